using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Tests;

public sealed class WorkspaceLifecycleTests
{
    [Fact]
    public async Task ReadsBeforeALoadAreRefused()
    {
        using var host = new SolutionHost();
        var (outcome, version) = await new RequestDispatcher(host).HandleAsync(
            new RequestBody.TypeAtPosition(new Position("/nowhere/a.cs", 1, 1)), CancellationToken.None);
        Assert.Equal(ErrorCode.WorkspaceNotLoaded, Assert.IsType<Outcome.Err>(outcome).Value.Code);
        Assert.Equal(0ul, version);
    }

    [Fact]
    public async Task LoadingAMissingSolutionFails()
    {
        using var host = new SolutionHost();
        var path = Path.Combine(Path.GetTempPath(), $"missing-{Guid.NewGuid():N}", "Nope.sln");
        var (outcome, _) = await new RequestDispatcher(host).HandleAsync(new RequestBody.Load(new LoadRequest(path)), CancellationToken.None);
        var error = Assert.IsType<Outcome.Err>(outcome).Value;
        Assert.Equal(ErrorCode.SolutionLoadFailed, error.Code);
        Assert.Equal($$"""{"solutionPath":"{{path}}","diagnostics":[]}""", error.DetailsJson);
    }

    [Fact]
    public async Task PingAnswersPong()
    {
        using var host = new SolutionHost();
        var (outcome, _) = await new RequestDispatcher(host).HandleAsync(new RequestBody.Ping(new PingRequest(0)), CancellationToken.None);
        var pong = Assert.IsType<ResponseBody.Pong>(Assert.IsType<Outcome.Ok>(outcome).Value);
        Assert.Equal(0u, pong.Value.ProjectsLoaded);
    }

    [Fact]
    public async Task ALoadCountsEachProjectItOpensOnce()
    {
        var root = TestPaths.CopyFixture("Shop");
        var progress = new LoadProgress();
        var loaded = await SolutionLoader.OpenAsync(Path.Combine(root, "Shop.sln"), progress, CancellationToken.None);
        using var workspace = loaded.Workspace;
        var projects = loaded.Solution.Projects.Select(p => p.FilePath).Distinct().Count();
        Assert.True(projects >= 3, $"{projects} projects");
        Assert.Equal((uint)projects, progress.ProjectsLoaded);
    }
}
