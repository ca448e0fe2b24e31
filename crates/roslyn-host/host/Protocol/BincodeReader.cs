using System.Buffers.Binary;
using System.Text;

namespace RoslynMcp.Host.Protocol;

/// <summary>
/// Reads bincode 2 with the standard configuration, as strictly as the Rust side decodes it: any input the
/// broker would reject is a <see cref="FrameException"/> here too.
/// </summary>
public sealed class BincodeReader(ReadOnlyMemory<byte> payload)
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private int position;

    public int Remaining => payload.Length - position;

    public byte ReadU8() => Take(1)[0];

    public bool ReadBool() => ReadU8() switch
    {
        0 => false,
        1 => true,
        var other => throw FrameException.Malformed($"invalid bool value {other}"),
    };

    public uint ReadU32()
    {
        var marker = ReadU8();
        return marker switch
        {
            <= BincodeWriter.SingleByteMax => marker,
            BincodeWriter.U16Marker => BinaryPrimitives.ReadUInt16LittleEndian(Take(2)),
            BincodeWriter.U32Marker => BinaryPrimitives.ReadUInt32LittleEndian(Take(4)),
            // bincode refuses a wider encoding than the target type even when the value would fit.
            _ => throw FrameException.Malformed($"invalid varint marker {marker} for a u32"),
        };
    }

    public ulong ReadU64()
    {
        var marker = ReadU8();
        return marker switch
        {
            <= BincodeWriter.SingleByteMax => marker,
            BincodeWriter.U16Marker => BinaryPrimitives.ReadUInt16LittleEndian(Take(2)),
            BincodeWriter.U32Marker => BinaryPrimitives.ReadUInt32LittleEndian(Take(4)),
            BincodeWriter.U64Marker => BinaryPrimitives.ReadUInt64LittleEndian(Take(8)),
            _ => throw FrameException.Malformed($"invalid varint marker {marker} for a u64"),
        };
    }

    public uint ReadVariant() => ReadU32();

    public string ReadString()
    {
        var length = ReadLength();
        try
        {
            return StrictUtf8.GetString(Take(length));
        }
        catch (DecoderFallbackException)
        {
            throw FrameException.Malformed("string is not valid UTF-8");
        }
    }

    public ValueList<T> ReadSeq<T>(Func<BincodeReader, T> readItem)
    {
        // Every element type in the protocol takes at least one byte, so the remaining bytes bound an honest
        // count and a forged one cannot make us allocate.
        var count = ReadLength();
        var items = new T[count];
        for (var i = 0; i < count; i++)
        {
            items[i] = readItem(this);
        }
        return new ValueList<T>(items);
    }

    public T? ReadOption<T>(Func<BincodeReader, T> readValue)
        where T : class => ReadU8() switch
        {
            0 => null,
            1 => readValue(this),
            var other => throw FrameException.Malformed($"invalid Option tag {other}"),
        };

    public T? ReadOptionValue<T>(Func<BincodeReader, T> readValue)
        where T : struct => ReadU8() switch
        {
            0 => null,
            1 => readValue(this),
            var other => throw FrameException.Malformed($"invalid Option tag {other}"),
        };

    /// <summary>Throws unless the whole payload has been consumed.</summary>
    public void EnsureEnd()
    {
        if (Remaining != 0)
        {
            throw FrameException.Malformed($"{Remaining} trailing bytes");
        }
    }

    internal static FrameException UnknownVariant(string type, uint index) =>
        FrameException.Malformed($"unknown {type} variant {index}");

    private int ReadLength()
    {
        var length = ReadU64();
        if (length > (ulong)Remaining)
        {
            throw FrameException.Malformed($"length {length} exceeds the {Remaining} remaining bytes");
        }
        return (int)length;
    }

    private ReadOnlySpan<byte> Take(int count)
    {
        if (count > Remaining)
        {
            throw FrameException.Malformed("unexpected end of payload");
        }
        var span = payload.Span.Slice(position, count);
        position += count;
        return span;
    }
}
