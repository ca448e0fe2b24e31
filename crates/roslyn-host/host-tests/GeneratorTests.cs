using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Dispatch;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// A project that references an analyzer assembly no one has built (a fresh clone's own source generator):
/// Roslyn's search cannot take the checksum of such a reference, so the solution leaves it out, says so, and
/// takes the service's build of it in its place.
/// </summary>
public sealed class GeneratorTests : IDisposable
{
    private const string Source = "public class Uses { public void Caller() { Callee(); } public void Callee() { } }";
    private static readonly string Missing = Path.Combine(AdhocSolutions.Root, "Gen", "bin", "Debug", "netstandard2.0", "Gen.dll");
    private readonly DirectoryInfo builds = Directory.CreateTempSubdirectory("roslyn-mcp-generator-builds-");

    public void Dispose() => builds.Delete(recursive: true);

    [Fact]
    public async Task AMissingAnalyzerIsLeftOutSoThatFindReferencesAnswersAndSaysSo()
    {
        var solution = WithMissingAnalyzer();
        var callee = await CalleeAsync(solution);
        // What Roslyn does with the reference as loaded: the search fails for the whole solution.
        var failure = await Assert.ThrowsAnyAsync<Exception>(() => SymbolFinder.FindReferencesAsync(callee, solution));
        Assert.Contains(nameof(UnresolvedAnalyzerReference), failure.Message);

        var generators = Generators.None with { Uses = Generators.Discover(solution) };
        var settled = generators.Apply(solution);
        Assert.Empty(settled.Projects.Single().AnalyzerReferences);
        var references = await SymbolFinder.FindReferencesAsync(await CalleeAsync(settled), settled);
        Assert.Single(Assert.Single(references).Locations);
        var described = Assert.Single(generators.Describe(settled));
        Assert.Equal((GeneratorState.Missing, "Gen.dll", Missing, ""), (described.State, described.Name, described.Assembly, described.Built));
        Assert.Equal(["Adhoc"], described.Consumers);
    }

    [Fact]
    public void TheServicesBuildStandsInAndALaterBuildReplacesIt()
    {
        var solution = WithMissingAnalyzer();
        var generators = Generators.None with { Uses = Generators.Discover(solution) };
        solution = generators.Apply(solution);

        var first = generators.With([Build("1")]);
        solution = first.Apply(solution, generators);
        Assert.Equal(Built("1"), Assert.Single(solution.Projects.Single().AnalyzerReferences).FullPath);
        var described = Assert.Single(first.Describe(solution));
        Assert.Equal((GeneratorState.Current, Built("1")), (described.State, described.Built));

        var second = first.With([Build("2")]);
        solution = second.Apply(solution, first);
        Assert.Equal(Built("2"), Assert.Single(solution.Projects.Single().AnalyzerReferences).FullPath);
        // A reload finds the reference missing again and keeps the build.
        var fresh = WithMissingAnalyzer();
        var reloaded = second with { Uses = Generators.Discover(fresh) };
        Assert.Equal(Built("2"), Assert.Single(reloaded.Apply(fresh).Projects.Single().AnalyzerReferences).FullPath);
    }

    [Fact]
    public async Task AFailureMetBeforeHasItsOwnCodeAndEveryOtherNamesItsOperationAndProject()
    {
        var solution = AdhocSolutions.WithFile("Uses", Source);
        var snapshot = new SolutionSnapshot(solution, 1, "Adhoc.sln", [], Generators.None);
        var body = new RequestBody.References(new ReferencesRequest(new Position(AdhocSolutions.PathOf("Uses"), 1, 50), false));

        var unresolved = new InvalidOperationException($"Unexpected value '{typeof(UnresolvedAnalyzerReference).FullName}' of type '{typeof(UnresolvedAnalyzerReference).FullName}'");
        var met = UnexpectedFailure.Describe(body, snapshot, unresolved);
        Assert.Equal(ErrorCode.GeneratorNotBuilt, met.Code);
        Assert.Contains("References in project Adhoc", met.Message);
        Assert.NotEmpty(met.Suggestions);

        var other = UnexpectedFailure.Describe(body, snapshot, new NullReferenceException("no value"));
        Assert.Equal(ErrorCode.RoslynError, other.Code);
        Assert.Equal("References in project Adhoc failed: NullReferenceException: no value", other.Message);
        Assert.Contains("\"operation\":\"References\"", other.DetailsJson);
    }

    private static Solution WithMissingAnalyzer()
    {
        var solution = AdhocSolutions.WithFile("Uses", Source);
        return solution.AddAnalyzerReference(solution.ProjectIds.Single(), new UnresolvedAnalyzerReference(Missing));
    }

    private static async Task<ISymbol> CalleeAsync(Solution solution)
    {
        var compilation = await solution.Projects.Single().GetCompilationAsync();
        return compilation!.GetTypeByMetadataName("Uses")!.GetMembers("Callee").Single();
    }

    /// <summary>A build of the service's: an assembly (any will do) in a folder of its own.</summary>
    private GeneratorBuild Build(string name)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Built(name))!);
        File.Copy(typeof(GeneratorTests).Assembly.Location, Built(name), overwrite: true);
        return new GeneratorBuild(Missing, Built(name), (ulong)DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
    }

    private string Built(string name) => Path.Combine(builds.FullName, name, "Gen.dll");
}
