using System.Buffers.Binary;

namespace RoslynMcp.Host.Protocol;

/// <summary>
/// The framing of the broker connection: a little-endian u32 payload length, then a bincode payload.
/// </summary>
public static class Frames
{
    /// <summary>Largest payload either side accepts.</summary>
    public const int MaxPayloadBytes = 64 * 1024 * 1024;

    public const int HeaderBytes = 4;

    /// <summary>A whole frame: length prefix and payload.</summary>
    public static byte[] Encode<T>(T message)
        where T : IBincode<T>
    {
        var writer = new BincodeWriter();
        message.Encode(writer);
        CheckLength((uint)writer.Length);
        var frame = new byte[HeaderBytes + writer.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, (uint)writer.Length);
        writer.WrittenSpan.CopyTo(frame.AsSpan(HeaderBytes));
        return frame;
    }

    /// <summary>Validates a length prefix before anything is allocated for the payload.</summary>
    public static int PayloadLength(ReadOnlySpan<byte> header)
    {
        var length = BinaryPrimitives.ReadUInt32LittleEndian(header);
        CheckLength(length);
        return (int)length;
    }

    /// <summary>Decodes one payload; trailing bytes make it malformed.</summary>
    public static T DecodePayload<T>(ReadOnlyMemory<byte> payload)
        where T : IBincode<T>
    {
        var reader = new BincodeReader(payload);
        var message = T.Decode(reader);
        reader.EnsureEnd();
        return message;
    }

    /// <summary>
    /// Reads the next frame's payload, or null when the stream ends (cleanly or mid-frame: either way the
    /// peer is gone and nothing more will come).
    /// </summary>
    public static async Task<byte[]?> ReadPayloadAsync(Stream stream, CancellationToken cancellationToken)
    {
        var header = new byte[HeaderBytes];
        if (!await ReadExactlyOrEndAsync(stream, header, cancellationToken))
        {
            return null;
        }
        var payload = new byte[PayloadLength(header)];
        return await ReadExactlyOrEndAsync(stream, payload, cancellationToken) ? payload : null;
    }

    private static async Task<bool> ReadExactlyOrEndAsync(Stream stream, byte[] buffer, CancellationToken cancellationToken)
    {
        try
        {
            await stream.ReadExactlyAsync(buffer, cancellationToken);
            return true;
        }
        catch (EndOfStreamException)
        {
            return false;
        }
    }

    private static void CheckLength(uint length)
    {
        if (length > MaxPayloadBytes)
        {
            throw new FrameException(
                FrameError.Oversized,
                $"frame of {length} bytes exceeds the limit of {MaxPayloadBytes} bytes");
        }
    }
}
