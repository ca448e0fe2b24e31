using System.Diagnostics;

// The envelopes of `crates/protocol/src/host/messages.rs`: same types, same field and variant order.
// Request payloads are in Requests.cs and NavigationRequests.cs, answers in Results.cs and NavigationResults.cs.
namespace RoslynMcp.Host.Protocol;

public static class ProtocolVersion
{
    /// <summary>Bumped with the Rust side on any change to the message types.</summary>
    public const uint Current = 3;
}

/// <summary>Correlates a response with its request; chosen by the broker, unique per connection.</summary>
public readonly record struct RequestId(ulong Value) : IBincode<RequestId>
{
    public void Encode(BincodeWriter writer) => writer.WriteU64(Value);

    public static RequestId Decode(BincodeReader reader) => new(reader.ReadU64());

    public override string ToString() => Value.ToString(System.Globalization.CultureInfo.InvariantCulture);
}

/// <summary>Everything the broker sends.</summary>
public abstract record BrokerMessage : IBincode<BrokerMessage>
{
    private BrokerMessage()
    {
    }

    public sealed record Hello(BrokerHello Value) : BrokerMessage;

    public sealed record Request(HostRequest Value) : BrokerMessage;

    public sealed record Cancel(RequestId Id) : BrokerMessage;

    public sealed record Shutdown : BrokerMessage;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case Hello m:
                writer.WriteVariant(0);
                m.Value.Encode(writer);
                break;
            case Request m:
                writer.WriteVariant(1);
                m.Value.Encode(writer);
                break;
            case Cancel m:
                writer.WriteVariant(2);
                m.Id.Encode(writer);
                break;
            case Shutdown:
                writer.WriteVariant(3);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static BrokerMessage Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new Hello(BrokerHello.Decode(reader)),
        1 => new Request(HostRequest.Decode(reader)),
        2 => new Cancel(RequestId.Decode(reader)),
        3 => new Shutdown(),
        var index => throw BincodeReader.UnknownVariant(nameof(BrokerMessage), index),
    };
}

public sealed record BrokerHello(uint ProtocolVersion) : IBincode<BrokerHello>
{
    public void Encode(BincodeWriter writer) => writer.WriteU32(ProtocolVersion);

    public static BrokerHello Decode(BincodeReader reader) => new(reader.ReadU32());
}

/// <summary>Everything the host sends.</summary>
public abstract record HostMessage : IBincode<HostMessage>
{
    private HostMessage()
    {
    }

    public sealed record Hello(HostHello Value) : HostMessage;

    public sealed record Response(HostResponse Value) : HostMessage;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case Hello m:
                writer.WriteVariant(0);
                m.Value.Encode(writer);
                break;
            case Response m:
                writer.WriteVariant(1);
                m.Value.Encode(writer);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static HostMessage Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new Hello(HostHello.Decode(reader)),
        1 => new Response(HostResponse.Decode(reader)),
        var index => throw BincodeReader.UnknownVariant(nameof(HostMessage), index),
    };
}

public sealed record HostHello(
    uint ProtocolVersion,
    string HostVersion,
    string RoslynVersion,
    string MsbuildVersion,
    string MsbuildPath,
    string DotnetSdkVersion,
    string RuntimeVersion,
    uint ProcessId) : IBincode<HostHello>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteU32(ProtocolVersion);
        writer.WriteString(HostVersion);
        writer.WriteString(RoslynVersion);
        writer.WriteString(MsbuildVersion);
        writer.WriteString(MsbuildPath);
        writer.WriteString(DotnetSdkVersion);
        writer.WriteString(RuntimeVersion);
        writer.WriteU32(ProcessId);
    }

    public static HostHello Decode(BincodeReader reader) => new(
        reader.ReadU32(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadString(),
        reader.ReadU32());
}

public sealed record HostRequest(RequestId Id, RequestBody Body) : IBincode<HostRequest>
{
    public void Encode(BincodeWriter writer)
    {
        Id.Encode(writer);
        Body.Encode(writer);
    }

    public static HostRequest Decode(BincodeReader reader) => new(RequestId.Decode(reader), RequestBody.Decode(reader));
}

public sealed record HostResponse(RequestId Id, ulong HostMicros, ulong WorkspaceVersion, Outcome Outcome)
    : IBincode<HostResponse>
{
    public void Encode(BincodeWriter writer)
    {
        Id.Encode(writer);
        writer.WriteU64(HostMicros);
        writer.WriteU64(WorkspaceVersion);
        Outcome.Encode(writer);
    }

    public static HostResponse Decode(BincodeReader reader) =>
        new(RequestId.Decode(reader), reader.ReadU64(), reader.ReadU64(), Outcome.Decode(reader));
}

public abstract record Outcome : IBincode<Outcome>
{
    private Outcome()
    {
    }

    public sealed record Ok(ResponseBody Body) : Outcome;

    public sealed record Err(HostError Error) : Outcome;

    public sealed record Cancelled : Outcome;

    public void Encode(BincodeWriter writer)
    {
        switch (this)
        {
            case Ok m:
                writer.WriteVariant(0);
                m.Body.Encode(writer);
                break;
            case Err m:
                writer.WriteVariant(1);
                m.Error.Encode(writer);
                break;
            case Cancelled:
                writer.WriteVariant(2);
                break;
            default:
                throw new UnreachableException();
        }
    }

    public static Outcome Decode(BincodeReader reader) => reader.ReadVariant() switch
    {
        0 => new Ok(ResponseBody.Decode(reader)),
        1 => new Err(HostError.Decode(reader)),
        2 => new Cancelled(),
        var index => throw BincodeReader.UnknownVariant(nameof(Outcome), index),
    };
}

/// <summary>A failure with its catalog code name (<c>SYMBOL_NOT_FOUND</c>, ...).</summary>
public sealed record HostError(string Code, string Message, string DetailsJson, ValueList<string> Suggestions)
    : IBincode<HostError>
{
    public void Encode(BincodeWriter writer)
    {
        writer.WriteString(Code);
        writer.WriteString(Message);
        writer.WriteString(DetailsJson);
        writer.WriteStrings(Suggestions);
    }

    public static HostError Decode(BincodeReader reader) =>
        new(reader.ReadString(), reader.ReadString(), reader.ReadString(), reader.ReadStrings());
}
