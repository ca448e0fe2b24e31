using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Tests;

public sealed class PartitionedLoadTests
{
    [Fact]
    public void ModulesOfTheSameHubsGoToDifferentLoadersAndAChainStaysWithOne()
    {
        // Two hubs every module references: the modules split evenly, the hubs load in both shares.
        var hubs = new[] { "/s/Hub0.csproj", "/s/Hub1.csproj" };
        var modules = Enumerable.Range(0, 20).Select(i => $"/s/Module{i}.csproj").ToList();
        var shares = LoadPartitions.Plan([.. hubs, .. modules], p => p.Contains("Module") ? hubs : [], loaders: 2);
        Assert.Equal(2, shares.Count);
        Assert.All(shares, share => Assert.Equal(10, share.Count(p => p.Contains("Module"))));
        Assert.Equal(modules.Order(StringComparer.Ordinal), shares.SelectMany(s => s).Where(p => p.Contains("Module")).Order(StringComparer.Ordinal));

        // A chain: whichever loader takes the top loads all of it, so a second one would only build twice.
        var chain = Enumerable.Range(0, 20).Select(i => $"/s/Chain{i:00}.csproj").ToList();
        var whole = LoadPartitions.Plan(chain, p => chain.IndexOf(p) is > 0 and var i ? [chain[i - 1]] : [], loaders: 2);
        Assert.Equal(chain, Assert.Single(whole));

        // Too few projects for a second BuildHost to pay, and one loader.
        Assert.Single(LoadPartitions.Plan(modules[..4], _ => [], loaders: 2));
        Assert.Single(LoadPartitions.Plan(modules, _ => [], loaders: 1));
    }

    [Fact]
    public async Task ASolutionLoadedInSharesIsTheSolutionLoadedWhole()
    {
        // Layout: Tools → Core and Listed → Extra (Core and Extra with two frameworks each).
        var root = TestPaths.CopyFixture("Layout");
        var path = Path.Combine(root, "Layout.slnx");
        var whole = await SolutionLoader.OpenAsync(path, new LoadProgress(), CancellationToken.None);
        using var wholeWorkspace = whole.Workspace;

        var projects = await PartitionedLoad.ProjectsOfAsync(path, CancellationToken.None);
        Assert.Equal(4, projects.Count);
        string At(string name) => Path.Combine(root, name, $"{name}.csproj");
        var planned = LoadPartitions.Plan(projects, ProjectReferenceItems.Named, loaders: 2, minProjects: 0);
        Assert.Equal(["Core.csproj Tools.csproj", "Extra.csproj Listed.csproj"], planned.Select(s => string.Join(" ", s.Select(Path.GetFileName))).Order(StringComparer.Ordinal));
        Assert.All(planned.SelectMany(s => s), p => Assert.StartsWith(root, p));
        // Shares that both load Core (Tools's share discovers it): the join keeps one copy of each of its
        // frameworks and points Tools at the kept ones.
        IReadOnlyList<IReadOnlyList<string>> shares = [[At("Tools")], [At("Core"), At("Extra"), At("Listed")]];
        var progress = new LoadProgress();
        using var joinedWorkspace = new JoinedWorkspace(await Composition.ServicesAsync());
        var joined = await PartitionedLoad.LoadAsync(joinedWorkspace, path, projects, shares, progress, CancellationToken.None);

        Assert.NotNull(joined);
        Assert.Equal(4u, progress.ProjectsLoaded);
        Assert.Equal(whole.Solution.FilePath, joined.FilePath);
        Assert.Equal(Describe(whole.Solution), Describe(joined));
        foreach (var project in joined.Projects)
        {
            var compilation = await project.GetCompilationAsync();
            Assert.Empty(compilation!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        }
        Assert.Equal(WorkspaceKind.MSBuild, joinedWorkspace.Kind);
        Assert.Equal(
            Enum.GetValues<ApplyChangesKind>().Select(wholeWorkspace.CanApplyChange),
            Enum.GetValues<ApplyChangesKind>().Select(joinedWorkspace.CanApplyChange));
    }

    /// <summary>Each project in order: its name, file, options, documents and references, by name and path.</summary>
    private static List<string> Describe(Solution solution) =>
        [.. solution.Projects.Select(p => string.Join(" | ",
            p.Name,
            p.FilePath,
            p.AssemblyName,
            p.OutputFilePath,
            p.ParseOptions?.PreprocessorSymbolNames.Order(StringComparer.Ordinal) is { } symbols ? string.Join(",", symbols) : "",
            p.CompilationOptions?.OutputKind,
            p.CompilationOptions?.NullableContextOptions,
            string.Join(",", p.Documents.Select(d => d.FilePath).Order(StringComparer.Ordinal)),
            string.Join(",", p.AnalyzerConfigDocuments.Select(d => d.FilePath).Order(StringComparer.Ordinal)),
            string.Join(",", p.ProjectReferences.Select(r => solution.GetProject(r.ProjectId)?.Name ?? "missing").Order(StringComparer.Ordinal)),
            string.Join(",", p.MetadataReferences.Select(r => r.Display).Order(StringComparer.Ordinal)),
            string.Join(",", p.AnalyzerReferences.Select(r => r.FullPath).Order(StringComparer.Ordinal))))];
}
