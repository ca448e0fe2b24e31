using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Diagnostics restricted to one project of the Shop fixture, by name or by project file.</summary>
[Collection(ShopCollection.Name)]
public sealed class ProjectDiagnosticsTests(ShopSolution shop)
{
    private const string CoreProject = "src/Shop.Core/Shop.Core.csproj";

    [Fact]
    public async Task AProjectGivesOnlyItsOwnDiagnostics()
    {
        var solution = await DiagnosticsAsync(project: null);
        var core = await DiagnosticsAsync("Shop.Core");

        // Hidden diagnostics (unnecessary usings, ...) exist in every project: the restriction must drop some.
        Assert.Contains(solution, d => d.Project != "Shop.Core");
        Assert.NotEmpty(core);
        Assert.Equal(solution.Where(d => d.Project == "Shop.Core"), core);
        Assert.All(core, d => Assert.Equal(shop.PathOf(CoreProject), d.ProjectPath));
        Assert.All(core, d => Assert.StartsWith(shop.PathOf("src/Shop.Core/"), d.Location?.File ?? shop.PathOf("src/Shop.Core/")));

        Assert.Equal(core, await DiagnosticsAsync(shop.PathOf(CoreProject)));
    }

    [Fact]
    public async Task EveryDiagnosticNamesItsProjectFile()
    {
        var solution = await DiagnosticsAsync(project: null);
        Assert.All(solution, d => Assert.Equal(shop.PathOf($"src/{d.Project}/{d.Project}.csproj"), d.ProjectPath));
    }

    [Fact]
    public async Task AnUnknownProjectIsRefusedWithTheAvailableOnes()
    {
        var error = await shop.ErrAsync(new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(null, "Shop.Web", Severity.Hidden, false)));
        Assert.Equal(ErrorCode.ProjectNotFound, error.Code);
        Assert.Equal("""{"project":"Shop.Web","available":["Shop.App","Shop.Core","Shop.Data"]}""", error.DetailsJson);
        Assert.Contains(error.Suggestions, s => s.Contains("Shop.App, Shop.Core, Shop.Data"));
    }

    [Fact]
    public async Task AFileTakesPrecedenceOverAProject()
    {
        // The unknown project is not even looked at.
        var program = shop.PathOf("src/Shop.App/Program.cs");
        var withProject = await shop.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(program, "Shop.Web", Severity.Hidden, false)));
        var fileOnly = await shop.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(program, null, Severity.Hidden, false)));
        Assert.Equal(fileOnly, withProject);
    }

    private async Task<ValueList<Diagnostic>> DiagnosticsAsync(string? project) =>
        (await shop.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(null, project, Severity.Hidden, false)))).Value.Diagnostics;
}
