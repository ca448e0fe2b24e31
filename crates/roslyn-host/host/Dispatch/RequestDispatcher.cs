using System.Globalization;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Sources;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// Routes each request to its handler against the solution snapshot current when it started. A positive
/// <paramref name="readDelay"/> makes every request but Load, ApplyFileChanges, UseGenerators, WarmUp and Ping wait that long first, so that
/// tests can observe slow, cancelled and timed-out reads; an armed <paramref name="crash"/> kills the process on
/// its snippet; an armed <paramref name="loadHold"/> keeps every load waiting for its release, an armed
/// <paramref name="warmUpHold"/> every warm-up. <paramref name="computeSlots"/> bounds the computations at once; <paramref name="heapTrim"/>
/// gives back the heap a burst of them grew.
/// </summary>
public sealed class RequestDispatcher(
    SolutionHost host,
    TimeSpan readDelay = default,
    CrashFault? crash = null,
    ReleaseHold? loadHold = null,
    ReleaseHold? warmUpHold = null,
    int? computeSlots = null,
    HeapTrim? heapTrim = null) : IRequestHandler
{
    /// <summary>
    /// Roslyn computations (reads and plans) run at most this many at once; the rest wait their turn. A burst
    /// from many sessions then queues instead of growing the heap by one working set per call in flight, and
    /// work bound by the CPU gains nothing from running on more threads than there are cores.
    /// </summary>
    public static int DefaultComputeSlots => Math.Max(4, Environment.ProcessorCount);

    private readonly SemaphoreSlim computing = new(computeSlots ?? DefaultComputeSlots);

    private readonly HeapTrim trim = heapTrim ?? new HeapTrim(HeapTrim.DefaultIdle);

    public const string ReadDelayVariable = "ROSLYN_MCP_FAULT_READ_DELAY_MS";

    public static TimeSpan ReadDelayFromEnvironment() => ParseReadDelay(Environment.GetEnvironmentVariable(ReadDelayVariable));

    /// <summary>A positive whole number of milliseconds; anything else means no delay.</summary>
    public static TimeSpan ParseReadDelay(string? milliseconds) =>
        int.TryParse(milliseconds, NumberStyles.None, CultureInfo.InvariantCulture, out var ms) && ms > 0
            ? TimeSpan.FromMilliseconds(ms)
            : TimeSpan.Zero;

    public ulong CurrentVersion => host.CurrentVersion;

    public async Task<(Outcome Outcome, ulong WorkspaceVersion)> HandleAsync(RequestBody body, CancellationToken cancellationToken)
    {
        // Reads see this one immutable snapshot, whatever loads or changes meanwhile.
        var snapshot = host.Current;
        var version = snapshot?.Version ?? 0;
        try
        {
            var (response, usedVersion) = await DispatchAsync(body, snapshot, cancellationToken);
            return (new Outcome.Ok(response), usedVersion);
        }
        catch (HostErrorException e)
        {
            return (new Outcome.Err(e.Error), version);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception e)
        {
            Log.Error($"{body.GetType().Name} failed: {e}");
            return (new Outcome.Err(UnexpectedFailure.Describe(body, snapshot, e)), version);
        }
    }

    private async Task<(ResponseBody Response, ulong Version)> DispatchAsync(
        RequestBody body,
        SolutionSnapshot? snapshot,
        CancellationToken cancellationToken)
    {
        var operations = new Operations(host, snapshot);
        switch (body)
        {
            case RequestBody.Ping or RequestBody.ApplyFileChanges or RequestBody.UseGenerators:
                break;
            case RequestBody.Load:
                if (loadHold is not null)
                {
                    await loadHold.WaitAsync(cancellationToken);
                }
                break;
            // Warm-up is the service's own work, not a read a test slows down.
            case RequestBody.WarmUp:
                if (warmUpHold is not null)
                {
                    await warmUpHold.WaitAsync(cancellationToken);
                }
                _ = snapshot ?? throw SolutionHost.NotLoaded();
                return (await TrimmedAfterAsync(() => operations.AnswerAsync(body, cancellationToken)), operations.Version);
            default:
                return (await ComputeAsync(body, snapshot, operations, cancellationToken), operations.Version);
        }
        var answer = await operations.AnswerAsync(body, cancellationToken);
        return (answer, operations.Version);
    }

    /// <summary>A session's read or plan: slowed by the read delay, checked by the crash fault, in a compute slot.</summary>
    private async Task<ResponseBody> ComputeAsync(
        RequestBody body,
        SolutionSnapshot? snapshot,
        Operations operations,
        CancellationToken cancellationToken)
    {
        if (readDelay > TimeSpan.Zero)
        {
            await Task.Delay(readDelay, cancellationToken);
        }
        crash?.Check(body);
        var loaded = snapshot ?? throw SolutionHost.NotLoaded();
        // Loads, file changes and the warm-up do not queue here: they are not a session's computation.
        await computing.WaitAsync(cancellationToken);
        try
        {
            GeneratedDocuments.Answering(loaded.Solution);
            return await TrimmedAfterAsync(() => operations.AnswerAsync(body, cancellationToken));
        }
        finally
        {
            computing.Release();
        }
    }

    /// <summary>Runs one computation counted by the heap trim, which looks for a burst to give back once none runs.</summary>
    private async Task<T> TrimmedAfterAsync<T>(Func<Task<T>> compute)
    {
        trim.Began();
        try
        {
            return await compute();
        }
        finally
        {
            trim.Ended();
        }
    }
}
