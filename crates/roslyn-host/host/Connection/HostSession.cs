using System.Collections.Concurrent;
using System.Threading.Channels;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Connection;

/// <summary>
/// One broker connection: the handshake, then a read loop that starts every request on its own task, and a
/// single writer so that response frames never interleave.
/// </summary>
public sealed class HostSession(Stream stream, IRequestHandler handler, HostHello hello)
{
    private readonly Channel<HostMessage> outgoing =
        Channel.CreateUnbounded<HostMessage>(new UnboundedChannelOptions { SingleReader = true });

    private readonly ConcurrentDictionary<RequestId, RunningRequest> inFlight = new();

    // Every handler task, answered or not: a cancelled load still has a BuildHost process to shut down.
    private readonly ConcurrentDictionary<Task, byte> handlers = new();

    /// <summary>How long the end of a session waits for cancelled handlers to unwind.</summary>
    public static readonly TimeSpan DrainTimeout = TimeSpan.FromSeconds(3);

    /// <summary>Runs until Shutdown, the end of the stream or a protocol fault; returns the exit code.</summary>
    public async Task<int> RunAsync(CancellationToken cancellationToken = default)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var writer = Task.Run(() => WriteLoopAsync(stop.Token), CancellationToken.None);
        try
        {
            outgoing.Writer.TryWrite(new HostMessage.Hello(hello));
            return await ReadLoopAsync(stop.Token);
        }
        catch (FrameException e)
        {
            Log.Error($"protocol fault from the broker, exiting: {e.Message}");
            return ExitCodes.ProtocolFault;
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException)
        {
            Log.Info($"connection ended: {e.Message}");
            return ExitCodes.Ok;
        }
        finally
        {
            foreach (var running in inFlight.Values)
            {
                running.Cancel();
            }
            // Cancelled handlers unwind (a load shuts its BuildHost down) and answer Cancelled.
            await Task.WhenAny(Task.WhenAll(handlers.Keys), Task.Delay(DrainTimeout, CancellationToken.None));
            outgoing.Writer.TryComplete();
            // Let already-queued answers go out (Shutdown means "start nothing more", not "drop what is done").
            await Task.WhenAny(writer, Task.Delay(TimeSpan.FromSeconds(1), CancellationToken.None));
            await stop.CancelAsync();
        }
    }

    private async Task<int> ReadLoopAsync(CancellationToken cancellationToken)
    {
        var first = await ReadMessageAsync(cancellationToken);
        switch (first)
        {
            case null:
                Log.Info("the broker closed the connection before its Hello");
                return ExitCodes.Ok;
            case BrokerMessage.Hello { Value.ProtocolVersion: var version } when version != ProtocolVersion.Current:
                Log.Error($"the broker speaks protocol {version}, this host speaks {ProtocolVersion.Current}; exiting");
                return ExitCodes.VersionMismatch;
            case BrokerMessage.Hello:
                break;
            default:
                throw FrameException.Malformed($"expected the broker's Hello, got {first.GetType().Name}");
        }

        while (true)
        {
            switch (await ReadMessageAsync(cancellationToken))
            {
                case null:
                    Log.Info("the broker closed the connection; exiting");
                    return ExitCodes.Ok;
                case BrokerMessage.Shutdown:
                    Log.Info("shutdown requested; exiting");
                    return ExitCodes.Ok;
                case BrokerMessage.Request { Value: var request }:
                    Start(request);
                    break;
                case BrokerMessage.Cancel { Value: var id }:
                    Cancel(id);
                    break;
                case BrokerMessage.Hello:
                    Log.Warn("the broker sent a second Hello; ignored");
                    break;
            }
        }
    }

    private async Task<BrokerMessage?> ReadMessageAsync(CancellationToken cancellationToken)
    {
        var payload = await Frames.ReadPayloadAsync(stream, cancellationToken);
        return payload is null ? null : Frames.DecodePayload<BrokerMessage>(payload);
    }

    private void Start(HostRequest request)
    {
        var running = new RunningRequest(request.Id);
        if (!inFlight.TryAdd(request.Id, running))
        {
            running.Dispose();
            Log.Warn($"request {request.Id} reuses the id of a request still running; refused");
            var error = new HostError(ErrorCode.InvalidParameter, $"Request id {request.Id} is already in flight", "", []);
            Send(running, handler.CurrentVersion, new Outcome.Err(error));
            return;
        }
        var task = Task.Run(() => RunRequestAsync(request, running), CancellationToken.None);
        handlers.TryAdd(task, 0);
        task.ContinueWith(done => handlers.TryRemove(done, out _), TaskScheduler.Default);
    }

    private void Cancel(RequestId id)
    {
        // Removing the entry claims the answer: the handler's own answer is dropped when it finishes, so the
        // broker hears Cancelled promptly even from a handler that is slow to notice its token.
        if (inFlight.TryRemove(id, out var running))
        {
            running.Cancel();
            Send(running, handler.CurrentVersion, new Outcome.Cancelled());
        }
    }

    private async Task RunRequestAsync(HostRequest request, RunningRequest running)
    {
        Outcome outcome;
        var version = handler.CurrentVersion;
        var reported = new ReportedProgress(request.Id, message => outgoing.Writer.TryWrite(message));
        FileProgress.Listen(reported.Report);
        try
        {
            (outcome, version) = await handler.HandleAsync(request.Body, running.Token);
        }
        catch (OperationCanceledException) when (running.Token.IsCancellationRequested)
        {
            outcome = new Outcome.Cancelled();
        }
        catch (Exception e)
        {
            // The handler maps its own failures; this is the last line that keeps the process alive.
            Log.Error($"request {request.Id} failed: {e}");
            outcome = new Outcome.Err(new HostError(ErrorCode.RoslynError, e.Message, "", []));
        }
        if (inFlight.TryRemove(request.Id, out _))
        {
            Send(running, version, outcome);
        }
        // The broker heard Cancelled at once; this shows how long the work itself took to stop.
        if (running.SinceCancellation is { } stopping)
        {
            Log.Info($"request {request.Id} {request.Body.GetType().Name} stopped {stopping.TotalMilliseconds:F0} ms after cancellation");
        }
        running.Dispose();
    }

    private void Send(RunningRequest running, ulong version, Outcome outcome) =>
        outgoing.Writer.TryWrite(Respond(running.Id, running.ElapsedMicros, version, outcome));

    private static HostMessage Respond(RequestId id, ulong micros, ulong version, Outcome outcome) =>
        new HostMessage.Response(new HostResponse(id, micros, version, outcome));

    private async Task WriteLoopAsync(CancellationToken cancellationToken)
    {
        try
        {
            await foreach (var message in outgoing.Reader.ReadAllAsync(cancellationToken))
            {
                await stream.WriteAsync(Frames.Encode(message), cancellationToken);
                await stream.FlushAsync(cancellationToken);
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException)
        {
            Log.Info($"writer stopped: {e.Message}");
        }
    }
}
