using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using RoslynMcp.Host.Connection;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Tests that read the host's stderr run alone: the log is one process-wide stream.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class HostLogCollection
{
    public const string Name = "Host log";
}

/// <summary>
/// The broker hears Cancelled at once; the log says how long the cancelled work itself took to stop.
/// </summary>
[Collection(HostLogCollection.Name)]
public sealed partial class CancellationTimingTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(20);

    /// <summary>How long the handler keeps working after its token fires.</summary>
    private static readonly TimeSpan Lag = TimeSpan.FromMilliseconds(300);

    [Fact]
    public async Task TheStopOfACancelledHandlerIsLoggedWithItsDelay()
    {
        var log = new StringWriter();
        var original = Console.Error;
        Console.SetError(TextWriter.Synchronized(log));
        try
        {
            await using var broker = new FakeBroker();
            using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            var accepted = broker.AcceptAsync(Timeout);
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(broker.SocketPath));
            await accepted;
            await using var stream = new NetworkStream(socket, ownsSocket: false);
            var hello = new HostHello(ProtocolVersion.Current, "test", "", "", "", "", "", 1);
            var session = Task.Run(() => new HostSession(stream, new LaggingHandler(Lag), hello).RunAsync());

            Assert.IsType<HostMessage.Hello>(await broker.ReceiveAsync(Timeout));
            await broker.SendAsync(new BrokerMessage.Hello(new BrokerHello(ProtocolVersion.Current)));
            await broker.SendAsync(Ping(1, 60_000));
            await broker.SendAsync(Ping(2, 0));
            Assert.IsType<Outcome.Ok>((await broker.ReceiveResponseAsync(Timeout)).Outcome);

            await broker.SendAsync(new BrokerMessage.Cancel(new RequestId(1)));
            var cancelled = await broker.ReceiveResponseAsync(Timeout);
            Assert.Equal(new RequestId(1), cancelled.Id);
            Assert.IsType<Outcome.Cancelled>(cancelled.Outcome);

            var stopped = await StopLineAsync(log, "request 1 Ping");
            var ms = int.Parse(stopped.Groups["ms"].Value, CultureInfo.InvariantCulture);
            Assert.InRange(ms, (int)Lag.TotalMilliseconds - 20, (int)Timeout.TotalMilliseconds);

            await broker.SendAsync(new BrokerMessage.Shutdown());
            Assert.Equal(0, await session.WaitAsync(Timeout));
            // The request that was answered never counts as stopped.
            Assert.DoesNotContain("request 2 Ping stopped", log.ToString());
        }
        finally
        {
            Console.SetError(original);
        }
    }

    [Fact]
    public async Task TheCancellationClockStartsAtTheFirstCancel()
    {
        using var running = new RunningRequest(new RequestId(1));
        Assert.Null(running.SinceCancellation);
        running.Cancel();
        await Task.Delay(50);
        running.Cancel();
        // The first cancellation counts; a second does not restart the clock.
        Assert.True(running.SinceCancellation >= TimeSpan.FromMilliseconds(45), $"{running.SinceCancellation}");
        Assert.True(running.Token.IsCancellationRequested);
    }

    private static BrokerMessage Ping(ulong id, uint delayMs) =>
        new BrokerMessage.Request(new HostRequest(new RequestId(id), new RequestBody.Ping(new PingRequest(delayMs))));

    private static async Task<Match> StopLineAsync(StringWriter log, string request)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < Timeout)
        {
            foreach (Match match in StopLine().Matches(log.ToString()))
            {
                if (match.Groups["request"].Value == request)
                {
                    return match;
                }
            }
            await Task.Delay(20);
        }
        throw new TimeoutException($"no stop line for {request} in:\n{log}");
    }

    [GeneratedRegex(@"info roslyn-host: (?<request>request \d+ \w+) stopped (?<ms>\d+) ms after cancellation")]
    private static partial Regex StopLine();

    /// <summary>A Ping that waits its delay and, once cancelled, keeps working for a while before it gives up.</summary>
    private sealed class LaggingHandler(TimeSpan lag) : IRequestHandler
    {
        public ulong CurrentVersion => 0;

        public async Task<(Outcome Outcome, ulong WorkspaceVersion)> HandleAsync(RequestBody body, CancellationToken cancellationToken)
        {
            var delay = Assert.IsType<RequestBody.Ping>(body).Value.DelayMs;
            try
            {
                await Task.Delay(TimeSpan.FromMilliseconds(delay), cancellationToken);
            }
            catch (OperationCanceledException)
            {
                await Task.Delay(lag, CancellationToken.None);
                throw;
            }
            return (new Outcome.Ok(new ResponseBody.Pong(new HostState(0))), 0);
        }
    }
}
