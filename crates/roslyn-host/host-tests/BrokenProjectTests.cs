using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>The Broken fixture: a lone .csproj with exactly the error and warning its FIXTURE.md lists.</summary>
public sealed class BrokenProjectTests(BrokenProject broken) : IClassFixture<BrokenProject>
{
    [Fact]
    public void AProjectFileLoadsOnItsOwn()
    {
        var project = Assert.Single(broken.Summary.Projects);
        Assert.Equal("Broken", project.Name);
        Assert.Equal(["net10.0"], project.TargetFrameworks);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task DiagnosticsAreExactlyTheListedOnes(bool oneFile)
    {
        var file = broken.PathOf("Broken.cs");
        var project = broken.PathOf("Broken.csproj");
        var request = new DiagnosticsRequest(oneFile ? file : null, null, Severity.Warning, false);
        var diagnostics = (await broken.OkAsync<ResponseBody.CompilationDiagnostics>(new RequestBody.CompilationDiagnostics(request))).Value;
        Assert.Equal(
            new DiagnosticList(
            [
                new Diagnostic("CS0168", Severity.Warning, "The variable 'unused' is declared but never used", "Broken", project, new Span(file, 7, 13, 7, 19), "compiler"),
                new Diagnostic("CS0029", Severity.Error, "Cannot implicitly convert type 'string' to 'int'", "Broken", project, new Span(file, 8, 21, 8, 28), "compiler"),
            ]),
            diagnostics);

        var errors = (await broken.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(request with { MinSeverity = Severity.Error }))).Value;
        Assert.Equal("CS0029", Assert.Single(errors.Diagnostics).Id);
    }

    [Fact]
    public async Task HiddenDiagnosticsComeSorted()
    {
        var all = (await broken.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(null, null, Severity.Hidden, false)))).Value.Diagnostics;
        Assert.Contains(all, d => d.Id == "CS0029");
        var keys = all.Select(d => (d.Location is not null, d.Location?.File ?? "", d.Location?.StartLine ?? 0, d.Location?.StartColumn ?? 0)).ToList();
        Assert.Equal(keys.Order(), keys);
        Assert.Equal(all.Distinct().Count(), all.Count);
    }
}
