using System.Diagnostics;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Tests;

/// <summary>The injected read delay: reads wait (cancellably) before anything else, workspace requests never do.</summary>
public sealed class ReadDelayTests
{
    private static readonly RequestBody Read = new RequestBody.TypeAtPosition(new Position("/nowhere/a.cs", 1, 1));

    [Theory]
    [InlineData("250", 250)]
    [InlineData("0", 0)]
    [InlineData("-5", 0)]
    [InlineData("1.5", 0)]
    [InlineData("soon", 0)]
    [InlineData(null, 0)]
    public void OnlyAPositiveNumberOfMillisecondsDelays(string? value, int milliseconds) =>
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), RequestDispatcher.ParseReadDelay(value));

    [Fact]
    public async Task AReadWaitsBeforeBeingAnswered()
    {
        using var host = new SolutionHost();
        var clock = Stopwatch.StartNew();
        var (outcome, _) = await new RequestDispatcher(host, TimeSpan.FromMilliseconds(300)).HandleAsync(Read, CancellationToken.None);
        // .NET timers count whole ticks of a coarser clock than Stopwatch, so a delay may end a little early.
        Assert.True(clock.Elapsed >= TimeSpan.FromMilliseconds(290), $"took {clock.Elapsed}");
        Assert.Equal(ErrorCode.WorkspaceNotLoaded, Assert.IsType<Outcome.Err>(outcome).Value.Code);
    }

    [Fact]
    public async Task ACancelledReadEndsAtOnce()
    {
        using var host = new SolutionHost();
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));
        var clock = Stopwatch.StartNew();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(
            () => new RequestDispatcher(host, TimeSpan.FromMinutes(1)).HandleAsync(Read, cancel.Token));
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"took {clock.Elapsed}");
    }

    [Fact]
    public async Task PingIsNotDelayed()
    {
        using var host = new SolutionHost();
        var clock = Stopwatch.StartNew();
        var (outcome, _) = await new RequestDispatcher(host, TimeSpan.FromMinutes(1))
            .HandleAsync(new RequestBody.Ping(new PingRequest(0)), CancellationToken.None);
        Assert.IsType<ResponseBody.Pong>(Assert.IsType<Outcome.Ok>(outcome).Value);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"took {clock.Elapsed}");
    }
}
