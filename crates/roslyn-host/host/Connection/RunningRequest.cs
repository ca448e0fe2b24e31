using System.Diagnostics;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Connection;

/// <summary>A request between its frame being read and its answer being queued.</summary>
internal sealed class RunningRequest(RequestId id) : IDisposable
{
    private readonly CancellationTokenSource cancellation = new();
    private readonly Stopwatch clock = Stopwatch.StartNew();

    public RequestId Id { get; } = id;

    public CancellationToken Token => cancellation.Token;

    public ulong ElapsedMicros => (ulong)(clock.Elapsed.Ticks / (TimeSpan.TicksPerMillisecond / 1000));

    public void Cancel()
    {
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
