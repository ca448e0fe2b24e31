using System.Diagnostics;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>The host's main loop over a real Unix domain socket, with this test as the broker.</summary>
public sealed class SocketSessionTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(20);

    private static BrokerMessage Ping(ulong id, uint delayMs) =>
        new BrokerMessage.Request(new HostRequest(new RequestId(id), new RequestBody.Ping(new PingRequest(delayMs))));

    [Fact]
    public async Task ConcurrentRequestsCancellationAndShutdown()
    {
        await using var broker = new FakeBroker();
        var host = Task.Run(() => HostProgram.RunAsync(["--socket", broker.SocketPath]));
        await broker.AcceptAsync(Timeout);

        var hello = Assert.IsType<HostMessage.Hello>(await broker.ReceiveAsync(Timeout)).Value;
        Assert.Equal(ProtocolVersion.Current, hello.ProtocolVersion);
        Assert.Equal((uint)Environment.ProcessId, hello.ProcessId);
        Assert.Equal("0.1.0", hello.HostVersion);
        Assert.Matches(@"^\d+\.\d+\.\d+", hello.RoslynVersion);
        Assert.DoesNotContain("+", hello.RoslynVersion);
        Assert.Equal(Environment.Version.ToString(), hello.RuntimeVersion);
        await broker.SendAsync(new BrokerMessage.Hello(new BrokerHello(ProtocolVersion.Current)));

        // The slow request goes first; the fast one overtakes it.
        await broker.SendAsync(Ping(1, 60_000));
        await broker.SendAsync(Ping(2, 0));
        var fast = await broker.ReceiveResponseAsync(Timeout);
        Assert.Equal(new RequestId(2), fast.Id);
        Assert.IsType<ResponseBody.Pong>(Assert.IsType<Outcome.Ok>(fast.Outcome).Value);
        Assert.Equal(0ul, fast.WorkspaceVersion);

        var clock = Stopwatch.StartNew();
        await broker.SendAsync(new BrokerMessage.Cancel(new RequestId(1)));
        var slow = await broker.ReceiveResponseAsync(Timeout);
        Assert.Equal(new RequestId(1), slow.Id);
        Assert.IsType<Outcome.Cancelled>(slow.Outcome);
        // Well before the ping would have ended by itself.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"cancellation took {clock.Elapsed}");

        // Cancelling something finished or unknown is harmless.
        await broker.SendAsync(new BrokerMessage.Cancel(new RequestId(1)));
        await broker.SendAsync(new BrokerMessage.Shutdown());
        Assert.Null(await broker.ReceiveAsync(Timeout));
        Assert.Equal(0, await host.WaitAsync(Timeout));
    }

    [Fact]
    public async Task ClosingTheConnectionEndsTheHost()
    {
        await using var broker = new FakeBroker();
        var host = Task.Run(() => HostProgram.RunAsync(["--socket", broker.SocketPath]));
        await broker.AcceptAsync(Timeout);
        Assert.IsType<HostMessage.Hello>(await broker.ReceiveAsync(Timeout));
        await broker.SendAsync(new BrokerMessage.Hello(new BrokerHello(ProtocolVersion.Current)));
        await broker.SendAsync(Ping(1, 60_000));
        broker.CloseConnection();
        Assert.Equal(0, await host.WaitAsync(Timeout));
    }

    [Fact]
    public async Task AnotherProtocolVersionExitsWithCode3()
    {
        await using var broker = new FakeBroker();
        var host = Task.Run(() => HostProgram.RunAsync(["--socket", broker.SocketPath]));
        await broker.AcceptAsync(Timeout);
        Assert.IsType<HostMessage.Hello>(await broker.ReceiveAsync(Timeout));
        await broker.SendAsync(new BrokerMessage.Hello(new BrokerHello(ProtocolVersion.Current + 1)));
        Assert.Equal(3, await host.WaitAsync(Timeout));
    }

    /// <summary>The built executable, as the broker starts it: a malformed frame ends it with code 2.</summary>
    [Fact]
    public async Task TheHostProcessExitsWithCode2OnAMalformedFrame()
    {
        await using var broker = new FakeBroker();
        var hostDll = Path.Combine(AppContext.BaseDirectory, "RoslynMcp.Host.dll");
        using var process = Process.Start(new ProcessStartInfo("dotnet")
        {
            ArgumentList = { hostDll, "--socket", broker.SocketPath },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        try
        {
            await broker.AcceptAsync(Timeout);
            var hello = Assert.IsType<HostMessage.Hello>(await broker.ReceiveAsync(Timeout)).Value;
            Assert.Equal((uint)process.Id, hello.ProcessId);
            await broker.SendAsync(new BrokerMessage.Hello(new BrokerHello(ProtocolVersion.Current)));
            await broker.SendRawAsync([2, 0, 0, 0, 42, 0]);

            using var limit = new CancellationTokenSource(Timeout);
            await process.WaitForExitAsync(limit.Token);
            Assert.Equal(2, process.ExitCode);
            Assert.Equal("", await stdout);
            Assert.Contains("malformed frame", await stderr);
        }
        finally
        {
            if (!process.HasExited)
            {
                process.Kill();
            }
        }
    }
}
