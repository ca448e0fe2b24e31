using System.Net.Sockets;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>The broker's end of a host connection: it listens, the host connects.</summary>
public sealed class FakeBroker : IAsyncDisposable
{
    private readonly Socket listener = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
    private Socket? connection;
    private NetworkStream? stream;

    public FakeBroker()
    {
        // Unix socket paths are short (108 bytes): keep it in /tmp rather than a deep temp folder.
        SocketPath = Path.Combine(Path.GetTempPath(), $"rmcp-{Guid.NewGuid():N}.sock");
        listener.Bind(new UnixDomainSocketEndPoint(SocketPath));
        listener.Listen(1);
    }

    public string SocketPath { get; }

    public async Task AcceptAsync(TimeSpan timeout)
    {
        using var limit = new CancellationTokenSource(timeout);
        connection = await listener.AcceptAsync(limit.Token);
        stream = new NetworkStream(connection, ownsSocket: false);
    }

    public async Task SendAsync(BrokerMessage message) => await stream!.WriteAsync(Frames.Encode(message));

    public async Task SendRawAsync(byte[] bytes) => await stream!.WriteAsync(bytes);

    /// <summary>The next message, or null when the host closed the connection.</summary>
    public async Task<HostMessage?> ReceiveAsync(TimeSpan timeout)
    {
        using var limit = new CancellationTokenSource(timeout);
        var payload = await Frames.ReadPayloadAsync(stream!, limit.Token);
        return payload is null ? null : Frames.DecodePayload<HostMessage>(payload);
    }

    public async Task<HostResponse> ReceiveResponseAsync(TimeSpan timeout) =>
        Assert.IsType<HostMessage.Response>(await ReceiveAsync(timeout)).Value;

    public void CloseConnection() => connection?.Shutdown(SocketShutdown.Both);

    public ValueTask DisposeAsync()
    {
        stream?.Dispose();
        connection?.Dispose();
        listener.Dispose();
        File.Delete(SocketPath);
        return ValueTask.CompletedTask;
    }
}
