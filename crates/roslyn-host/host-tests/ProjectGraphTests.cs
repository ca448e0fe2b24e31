using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>The project graph of the Layout fixture (FIXTURE.md).</summary>
[Collection(LayoutCollection.Name)]
public sealed class ProjectGraphTests(LayoutSolution fixture)
{
    [Fact]
    public async Task EachProjectFileComesOnceWithWhatItNamesAndWhatDependsOnIt()
    {
        var graph = await GraphAsync(null, unused: false);

        Assert.Equal(["Core", "Extra", "Listed", "Tools"], graph.Projects.Select(p => p.Name));
        var core = graph.Projects[0];
        Assert.Equal(["net10.0", "net9.0"], core.TargetFrameworks);
        Assert.Equal("library", core.OutputKind);
        Assert.Equal([fixture.PathOf("Tools/Tools.csproj")], core.Dependents);
        Assert.Empty(core.Dependencies);
        var tools = graph.Projects[3];
        Assert.Equal(("exe", false), (tools.OutputKind, tools.IsTestProject));
        Assert.Equal(["net10.0"], tools.TargetFrameworks);
        Assert.Equal([fixture.PathOf("Core/Core.csproj")], tools.ProjectReferences);
        var extra = graph.Projects[1];
        var package = Assert.Single(extra.Packages);
        Assert.Equal(("Microsoft.Extensions.Logging.Abstractions", "10.0.0"), (package.Name, package.Version));
        Assert.Contains(extra.Generators, g => g.Contains("LoggerMessage", StringComparison.Ordinal));
        Assert.Contains(extra.Analyzers, a => a.Contains("NetAnalyzers", StringComparison.Ordinal));
        Assert.Equal([fixture.PathOf("Listed/Listed.csproj")], extra.Dependents);
        Assert.Empty(graph.Unused);
        Assert.Empty(graph.Warnings);
    }

    [Fact]
    public async Task ReferencesNoCodeNamesAreTheCandidatesAndOnlyThey()
    {
        var graph = await GraphAsync(null, unused: true);

        Assert.Equal(
            [
                (fixture.PathOf("Extra/Extra.csproj"), "package", "Microsoft.Extensions.Logging.Abstractions"),
                (fixture.PathOf("Listed/Listed.csproj"), "project", fixture.PathOf("Extra/Extra.csproj")),
            ],
            graph.Unused.Select(u => (u.Project, u.Kind, u.Reference)));
        Assert.Contains("2 target frameworks", graph.Unused[0].Evidence);
    }

    [Fact]
    public async Task AMultiTargetedProjectIsNamedByItsFileAsWellAsByAFramework()
    {
        var byFile = Assert.Single((await GraphAsync("Core", unused: false)).Projects);
        var byFramework = Assert.Single((await GraphAsync("Core(net9.0)", unused: false)).Projects);

        Assert.Equal(["net10.0", "net9.0"], byFile.TargetFrameworks);
        Assert.Equal(fixture.PathOf("Core/Core.csproj"), byFramework.Path);
    }

    [Fact]
    public async Task OneProjectIsAnsweredAlone()
    {
        var graph = await GraphAsync("Tools", unused: true);

        var tools = Assert.Single(graph.Projects);
        Assert.Equal([fixture.PathOf("Core/Core.csproj")], tools.Dependencies);
        Assert.Empty(graph.Unused);
    }

    private async Task<ProjectGraph> GraphAsync(string? project, bool unused) =>
        (await fixture.OkAsync<ResponseBody.ProjectGraph>(new RequestBody.ProjectGraph(new ProjectGraphRequest(project, unused)))).Value;
}

/// <summary>The project graph of the Tested fixture: one library and its tests in four frameworks.</summary>
[Collection(TestedCollection.Name)]
public sealed class TestProjectGraphTests(TestedSolution tested)
{
    [Fact]
    public async Task ProjectsThatReferenceATestFrameworkAreTestProjects()
    {
        var graph = (await tested.OkAsync<ResponseBody.ProjectGraph>(new RequestBody.ProjectGraph(new ProjectGraphRequest(null, false)))).Value;

        Assert.Equal(
            [("Pricing.MstestTests", true), ("Pricing.NunitTests", true), ("Pricing.TunitTests", true), ("Pricing.XunitTests", true), ("Pricing", false)],
            graph.Projects.Select(p => (p.Name, p.IsTestProject)));
        Assert.Equal(4, graph.Projects[4].Dependents.Count);
        Assert.Contains(graph.Projects[1].Packages, p => p.Name == "NUnit" && p.Version == "4.4.0");
    }
}

/// <summary>Two projects that reference each other: MSBuild refuses to restore them.</summary>
public sealed class CycleSolution() : LoadedSolution("Cycle", "Cycle.slnx");

public sealed class CycleGraphTests : IClassFixture<CycleSolution>
{
    private readonly CycleSolution cycle;

    public CycleGraphTests(CycleSolution cycle) => this.cycle = cycle;

    [Fact]
    public async Task AReferenceCycleIsNamedByTheLoadAndByTheGraph()
    {
        var load = Assert.Single(cycle.Summary.WorkspaceDiagnostics, d => d.Message.Contains("restore", StringComparison.Ordinal));
        Assert.Contains("circular dependency", load.Message);

        var graph = (await cycle.OkAsync<ResponseBody.ProjectGraph>(new RequestBody.ProjectGraph(new ProjectGraphRequest(null, false)))).Value;
        Assert.Contains("The project references form a cycle, which MSBuild refuses to restore or build: A.csproj -> B.csproj -> A.csproj", graph.Warnings);
        Assert.Equal([cycle.PathOf("B/B.csproj")], graph.Projects[0].ProjectReferences);
        Assert.Equal([cycle.PathOf("A/A.csproj")], graph.Projects[1].ProjectReferences);
    }
}
