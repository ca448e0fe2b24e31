using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Diagnostics with analyzers on the Actions fixture, whose .editorconfig raises IDE0044 and CA1822 to warnings.</summary>
[Collection(ActionsCollection.Name)]
public sealed class AnalyzerDiagnosticsTests(ActionsSolution fixture)
{
    private async Task<IReadOnlyList<Diagnostic>> DiagnosticsAsync(string? file, string? project, bool analyzers) =>
        (await fixture.OkAsync<ResponseBody.CompilationDiagnostics>(new RequestBody.CompilationDiagnostics(
            new DiagnosticsRequest(file is null ? null : fixture.PathOf(file), project, Severity.Warning, analyzers)))).Value.Diagnostics;

    [Fact]
    public async Task Analyzers_report_with_editorconfig_severities_and_name_their_source()
    {
        Assert.DoesNotContain(await DiagnosticsAsync("Actions.Core/Counters.cs", null, false), d => d.Id == "IDE0044");
        var counters = await DiagnosticsAsync("Actions.Core/Counters.cs", null, true);
        var ide = counters.Where(d => d.Id == "IDE0044").ToList();
        Assert.Equal(2, ide.Count);
        Assert.All(ide, d => Assert.Equal((Severity.Warning, "Microsoft.CodeAnalysis.CSharp.Features"), (d.Severity, d.Source)));

        var project = await DiagnosticsAsync(null, "Actions.Core", true);
        var ca = Assert.Single(project, d => d.Id == "CA1822");
        Assert.EndsWith("Order.cs", ca.Location!.File);
        Assert.Contains("NetAnalyzers", ca.Source);
        Assert.Contains(project, d => d.Id == "CS0649" && d.Source == "compiler");
    }
}
