using RoslynMcp.Host.Dispatch;

namespace RoslynMcp.Host.Tests;

/// <summary>A burst's heap is given back once nothing has run for the idle time, and not while anything runs.</summary>
public sealed class HeapTrimTests
{
    private const long MiB = 1024 * 1024;

    [Theory]
    [InlineData(0, 64, true)]
    [InlineData(0, 63, false)]
    [InlineData(1000, 1249, false)]
    [InlineData(1000, 1250, true)]
    [InlineData(1000, 900, false)]
    public void ATrimIsWorthAQuarterOfTheHeapAndAtLeast64MiB(long beforeMiB, long committedMiB, bool worth) =>
        Assert.Equal(worth, HeapTrim.Worth(committedMiB * MiB, beforeMiB * MiB));

    [Fact]
    public async Task ABurstIsTrimmedOnceIdleAndAComputationThatBeginsPutsItOff()
    {
        // The committed heap as this test sets it: other tests share the process's GC, and their own trims
        // would move the real figure under this one.
        var committed = 0L;
        var trim = new HeapTrim(TimeSpan.FromMilliseconds(100), () => Interlocked.Read(ref committed));
        trim.Began();
        Interlocked.Exchange(ref committed, 192 * MiB);
        trim.Ended();
        trim.Began();
        await Task.Delay(400);
        Assert.Equal(0, trim.Trims);

        trim.Ended();
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (trim.Trims == 0 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(50);
        }
        Assert.Equal(1, trim.Trims);
    }
}
