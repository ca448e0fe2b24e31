using System.Diagnostics;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Connection;

/// <summary>
/// One request's file counts as progress frames to the broker: the first, the last, and between them at most
/// one per <see cref="Every"/>, so that a loop over thousands of files does not flood the connection.
/// </summary>
public sealed class ReportedProgress(RequestId id, Action<HostMessage> send)
{
    public static readonly TimeSpan Every = TimeSpan.FromMilliseconds(250);

    private readonly object gate = new();
    private long lastSent = -1;

    public void Report(int done, int total)
    {
        var now = Stopwatch.GetTimestamp();
        lock (gate)
        {
            if (lastSent >= 0 && done < total && Stopwatch.GetElapsedTime(lastSent, now) < Every)
            {
                return;
            }
            lastSent = now;
        }
        send(new HostMessage.Progress(new WorkProgress(id, (uint)Math.Max(done, 0), (uint)Math.Max(total, 0))));
    }
}
