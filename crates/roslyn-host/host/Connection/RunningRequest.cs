using System.Diagnostics;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Connection;

/// <summary>A request between its frame being read and its answer being queued.</summary>
internal sealed class RunningRequest(RequestId id) : IDisposable
{
    private readonly CancellationTokenSource cancellation = new();
    private readonly Stopwatch clock = Stopwatch.StartNew();

    // Stopwatch timestamp of the first Cancel; 0 while none came.
    private long cancelledAt;

    public RequestId Id { get; } = id;

    public CancellationToken Token => cancellation.Token;

    public ulong ElapsedMicros => (ulong)(clock.Elapsed.Ticks / (TimeSpan.TicksPerMillisecond / 1000));

    /// <summary>Time since the first <see cref="Cancel"/>, or null when the request was never cancelled.</summary>
    public TimeSpan? SinceCancellation =>
        Interlocked.Read(ref cancelledAt) is var at and not 0 ? Stopwatch.GetElapsedTime(at) : null;

    public void Cancel()
    {
        // Stamped before cancelling: token callbacks run inside Cancel and count towards the stop.
        Interlocked.CompareExchange(ref cancelledAt, Stopwatch.GetTimestamp(), 0);
        try
        {
            cancellation.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The request finished between being looked up and being cancelled.
        }
    }

    public void Dispose() => cancellation.Dispose();
}
