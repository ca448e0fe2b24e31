using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Diagnostics;
using Diagnostic = RoslynMcp.Host.Protocol.Diagnostic;

namespace RoslynMcp.Host.Tests;

/// <summary>Diagnostics with analyzers on the Actions fixture, whose .editorconfig raises IDE0044 and CA1822 to warnings.</summary>
[Collection(ActionsCollection.Name)]
public sealed class AnalyzerDiagnosticsTests(ActionsSolution fixture)
{
    private async Task<IReadOnlyList<Diagnostic>> DiagnosticsAsync(string? file, string? project, bool analyzers, Severity minimum = Severity.Warning) =>
        (await fixture.OkAsync<ResponseBody.CompilationDiagnostics>(new RequestBody.CompilationDiagnostics(
            new DiagnosticsRequest(file is null ? null : fixture.PathOf(file), project, minimum, analyzers)))).Value.Diagnostics;

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

    [Fact]
    public async Task Asked_for_warnings_only_analyzers_that_can_report_one_run_and_nothing_is_lost()
    {
        var project = fixture.Solution.Projects.Single(p => p.Name == "Actions.Core");
        var compilation = (await project.GetCompilationAsync())!;
        var all = AnalyzerDiagnostics.Of(project);
        var run = SeverityReach.Filter(all, project, compilation, Severity.Warning, CancellationToken.None);
        Assert.InRange(run.Length, 1, all.Length / 2);
        Assert.Contains(run, a => Reports(a, "IDE0044"));
        Assert.Contains(run, a => Reports(a, "CA1822"));
        Assert.DoesNotContain(run, a => Reports(a, "IDE0040"));
        Assert.Equal(all.Length, SeverityReach.Filter(all, project, compilation, Severity.Hidden, CancellationToken.None).Length);

        var warnings = await DiagnosticsAsync(null, "Actions.Core", true);
        var everything = await DiagnosticsAsync(null, "Actions.Core", true, Severity.Hidden);
        Assert.Contains(everything, d => d.Severity < Severity.Warning && d.Source != "compiler");
        Assert.Equal(everything.Where(d => d.Severity >= Severity.Warning), warnings);
    }

    [Theory]
    [InlineData("dotnet_diagnostic.IDE0040.severity = warning", false)]
    [InlineData("dotnet_style_require_accessibility_modifiers = always:warning", true)]
    [InlineData("dotnet_analyzer_diagnostic.category-Style.severity = error", true)]
    [InlineData("dotnet_naming_rule.fields.severity = warning", true)]
    [InlineData("dotnet_style_require_accessibility_modifiers = always:suggestion", false)]
    public async Task A_setting_that_raises_a_rule_without_naming_it_makes_every_analyzer_run(string setting, bool everyAnalyzer)
    {
        var solution = AdhocSolutions.WithFile("Raised", "class C { int f; }");
        var project = solution.Projects.Single();
        project = project.AddAnalyzerConfigDocument(
            ".editorconfig", SourceText.From($"root = true\n[*.cs]\n{setting}\n"), filePath: Path.Combine(AdhocSolutions.Root, ".editorconfig")).Project;
        var compilation = (await project.GetCompilationAsync())!;
        var all = AnalyzerDiagnostics.Of(project);
        var run = SeverityReach.Filter(all, project, compilation, Severity.Warning, CancellationToken.None);
        Assert.Equal(setting.Contains("IDE0040", StringComparison.Ordinal), run.Any(a => Reports(a, "IDE0040")) && !everyAnalyzer);
        Assert.Equal(everyAnalyzer, run.Length == all.Length);
    }

    private static bool Reports(DiagnosticAnalyzer analyzer, string id) => AnalyzerDiagnostics.Descriptors(analyzer).Any(d => d.Id == id);
}
