using System.Buffers.Binary;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

public sealed class FrameTests
{
    [Fact]
    public void OversizedLengthPrefixIsRefusedBeforeReading()
    {
        var header = new byte[Frames.HeaderBytes];
        BinaryPrimitives.WriteUInt32LittleEndian(header, Frames.MaxPayloadBytes + 1u);
        var error = Assert.Throws<FrameException>(() => Frames.PayloadLength(header));
        Assert.Equal(FrameError.Oversized, error.Error);
    }

    [Fact]
    public async Task OversizedFrameOnAStreamIsRefusedWithoutReadingThePayload()
    {
        var header = new byte[Frames.HeaderBytes];
        BinaryPrimitives.WriteUInt32LittleEndian(header, uint.MaxValue);
        using var stream = new MemoryStream(header);
        var error = await Assert.ThrowsAsync<FrameException>(() => Frames.ReadPayloadAsync(stream, CancellationToken.None));
        Assert.Equal(FrameError.Oversized, error.Error);
    }

    [Fact]
    public void LargestPayloadLengthIsAccepted()
    {
        var header = new byte[Frames.HeaderBytes];
        BinaryPrimitives.WriteUInt32LittleEndian(header, Frames.MaxPayloadBytes);
        Assert.Equal(Frames.MaxPayloadBytes, Frames.PayloadLength(header));
    }

    [Theory]
    [InlineData(new byte[] { 9 }, "unknown BrokerMessage variant 9")]
    [InlineData(new byte[] { 3, 0 }, "1 trailing bytes")] // Shutdown plus a byte
    [InlineData(new byte[] { }, "unexpected end")]
    [InlineData(new byte[] { 2 }, "unexpected end")] // Cancel without its id
    [InlineData(new byte[] { 2, 251, 1 }, "unexpected end")] // truncated u16 varint
    [InlineData(new byte[] { 0, 253, 1, 0, 0, 0, 0, 0, 0, 0 }, "for a u32")] // u64-wide varint where a u32 is due
    [InlineData(new byte[] { 2, 254 }, "for a u64")] // u128 marker
    [InlineData(new byte[] { 1, 1, 0, 5, 0, 0 }, "exceeds")] // Load with a string longer than the payload
    [InlineData(new byte[] { 1, 1, 0, 2, 0xC3, 0x28 }, "UTF-8")]
    [InlineData(new byte[] { 1, 1, 4, 0, 1, 1, 2 }, "bool")] // References with include_declaration = 2
    [InlineData(new byte[] { 1, 1, 5, 0, 0, 4 }, "unknown Severity variant 4")]
    [InlineData(new byte[] { 1, 1, 5, 2, 3 }, "Option tag 2")]
    [InlineData(new byte[] { 1, 1, 37 }, "unknown RequestBody variant 37")]
    [InlineData(new byte[] { 1, 1, 11, 2 }, "unknown SymbolTarget variant 2")]
    public void MalformedPayloadsAreRejected(byte[] payload, string reason)
    {
        var error = Assert.Throws<FrameException>(() => Frames.DecodePayload<BrokerMessage>(payload));
        Assert.Equal(FrameError.Malformed, error.Error);
        Assert.Contains(reason, error.Message);
    }

    [Fact]
    public void CancelRoundTripsThroughAFrame()
    {
        var message = new BrokerMessage.Cancel(new RequestId(300));
        var frame = Frames.Encode<BrokerMessage>(message);
        Assert.Equal(frame.Length - Frames.HeaderBytes, Frames.PayloadLength(frame));
        Assert.Equal(message, Frames.DecodePayload<BrokerMessage>(frame.AsMemory(Frames.HeaderBytes)));
    }

    [Theory]
    [InlineData(250ul, new byte[] { 250 })]
    [InlineData(251ul, new byte[] { 251, 251, 0 })]
    [InlineData(65_535ul, new byte[] { 251, 255, 255 })]
    [InlineData(65_536ul, new byte[] { 252, 0, 0, 1, 0 })]
    [InlineData(4_294_967_295ul, new byte[] { 252, 255, 255, 255, 255 })]
    [InlineData(4_294_967_296ul, new byte[] { 253, 0, 0, 0, 0, 1, 0, 0, 0 })]
    [InlineData(ulong.MaxValue, new byte[] { 253, 255, 255, 255, 255, 255, 255, 255, 255 })]
    public void VarintBoundariesRoundTrip(ulong value, byte[] expected)
    {
        var writer = new BincodeWriter();
        writer.WriteU64(value);
        Assert.Equal(expected, writer.WrittenSpan.ToArray());

        var reader = new BincodeReader(expected);
        Assert.Equal(value, reader.ReadU64());
        reader.EnsureEnd();

        if (value <= uint.MaxValue)
        {
            Assert.Equal((uint)value, new BincodeReader(expected).ReadU32());
        }
        else
        {
            Assert.Throws<FrameException>(() => new BincodeReader(expected).ReadU32());
        }
    }

    [Fact]
    public async Task ReadingStopsCleanlyAtTheEndOfTheStream()
    {
        using var empty = new MemoryStream();
        Assert.Null(await Frames.ReadPayloadAsync(empty, CancellationToken.None));

        var frame = Frames.Encode<BrokerMessage>(new BrokerMessage.Shutdown());
        using var one = new MemoryStream(frame);
        Assert.Equal(frame[Frames.HeaderBytes..], await Frames.ReadPayloadAsync(one, CancellationToken.None));
        Assert.Null(await Frames.ReadPayloadAsync(one, CancellationToken.None));
    }
}
