using System.Runtime;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// Gives back to the system the heap a burst of computations grew. The GC keeps what it committed for a burst
/// (many sessions searching at once, a warm-up) long after the burst's objects are garbage, and the service
/// reads a host's resident memory against its memory budget between calls. So once no computation has run for
/// <paramref name="idle"/>, and the committed heap grew past both thresholds since the last trim, one full, compacting
/// collection that decommits what it frees runs. A computation that starts meanwhile waits for it.
/// <paramref name="committedBytes"/> reads the committed heap (the GC's own figure unless a test gives one).
/// </summary>
public sealed class HeapTrim(TimeSpan idle, Func<long>? committedBytes = null)
{
    /// <summary>Growth that makes a trim worth its pause: a quarter of the heap, and at least this much.</summary>
    public const long MinimumGrowthBytes = 64L * 1024 * 1024;

    public static TimeSpan DefaultIdle { get; } = TimeSpan.FromSeconds(2);

    private readonly object gate = new();
    private int running;
    private long generation;
    private long committedAfterTrim;

    private readonly Func<long> committed = committedBytes ?? (() => GC.GetGCMemoryInfo().TotalCommittedBytes);

    /// <summary>Trims done, for tests.</summary>
    public int Trims { get; private set; }

    public void Began()
    {
        lock (gate)
        {
            running++;
            generation++;
        }
    }

    public void Ended()
    {
        long mine;
        lock (gate)
        {
            running--;
            if (running > 0)
            {
                return;
            }
            mine = ++generation;
        }
        _ = Task.Delay(idle).ContinueWith(_ => TrimIfStillIdle(mine), TaskScheduler.Default);
    }

    /// <summary>One full, compacting collection (the large object heap too) that decommits what it frees.</summary>
    public static void CollectAll()
    {
        GCSettings.LargeObjectHeapCompactionMode = GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
    }

    public static bool Worth(long committed, long before) =>
        committed - before >= Math.Max(MinimumGrowthBytes, before / 4);

    private void TrimIfStillIdle(long scheduled)
    {
        lock (gate)
        {
            // Anything that began or ended since then has its own look coming, or is running.
            if (generation != scheduled || running > 0)
            {
                return;
            }
            var before = committed();
            if (!Worth(before, committedAfterTrim))
            {
                return;
            }
            CollectAll();
            Trims++;
            committedAfterTrim = committed();
            Log.Info($"heap trimmed after a burst: {before / (1024 * 1024)} MiB committed, {committedAfterTrim / (1024 * 1024)} MiB after");
        }
    }
}
