using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace RoslynMcp.Host.Protocol;

/// <summary>
/// Writes bincode 2 with the standard configuration: little endian, variable-length integers.
/// </summary>
public sealed class BincodeWriter
{
    // Varint markers: values below 251 are one byte; these prefix a wider little-endian integer.
    internal const byte U16Marker = 251;
    internal const byte U32Marker = 252;
    internal const byte U64Marker = 253;
    internal const byte SingleByteMax = 250;

    private readonly ArrayBufferWriter<byte> buffer = new(256);

    public int Length => buffer.WrittenCount;

    public ReadOnlySpan<byte> WrittenSpan => buffer.WrittenSpan;

    public void WriteU8(byte value)
    {
        buffer.GetSpan(1)[0] = value;
        buffer.Advance(1);
    }

    public void WriteBool(bool value) => WriteU8(value ? (byte)1 : (byte)0);

    public void WriteU32(uint value) => WriteVarUInt(value);

    public void WriteU64(ulong value) => WriteVarUInt(value);

    /// <summary>An enum discriminant: the 0-based variant index as a varint u32.</summary>
    public void WriteVariant(uint index) => WriteVarUInt(index);

    public void WriteVarUInt(ulong value)
    {
        if (value <= SingleByteMax)
        {
            WriteU8((byte)value);
        }
        else if (value <= ushort.MaxValue)
        {
            var span = buffer.GetSpan(3);
            span[0] = U16Marker;
            BinaryPrimitives.WriteUInt16LittleEndian(span[1..], (ushort)value);
            buffer.Advance(3);
        }
        else if (value <= uint.MaxValue)
        {
            var span = buffer.GetSpan(5);
            span[0] = U32Marker;
            BinaryPrimitives.WriteUInt32LittleEndian(span[1..], (uint)value);
            buffer.Advance(5);
        }
        else
        {
            var span = buffer.GetSpan(9);
            span[0] = U64Marker;
            BinaryPrimitives.WriteUInt64LittleEndian(span[1..], value);
            buffer.Advance(9);
        }
    }

    public void WriteString(string value)
    {
        // Lone surrogates (possible in C# strings, never in Rust ones) become U+FFFD rather than failing.
        var byteCount = Encoding.UTF8.GetByteCount(value);
        WriteVarUInt((ulong)byteCount);
        var written = Encoding.UTF8.GetBytes(value, buffer.GetSpan(byteCount));
        buffer.Advance(written);
    }

    public void WriteSeq<T>(IReadOnlyList<T> items, Action<BincodeWriter, T> writeItem)
    {
        WriteVarUInt((ulong)items.Count);
        foreach (var item in items)
        {
            writeItem(this, item);
        }
    }

    public void WriteOption<T>(T? value, Action<BincodeWriter, T> writeValue)
        where T : class
    {
        if (value is null)
        {
            WriteU8(0);
            return;
        }
        WriteU8(1);
        writeValue(this, value);
    }

    public void WriteOptionValue<T>(T? value, Action<BincodeWriter, T> writeValue)
        where T : struct
    {
        if (value is not { } present)
        {
            WriteU8(0);
            return;
        }
        WriteU8(1);
        writeValue(this, present);
    }
}
