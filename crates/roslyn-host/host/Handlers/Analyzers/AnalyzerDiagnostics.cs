using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Handlers.Actions;

namespace RoslynMcp.Host.Handlers.Analyzers;

/// <summary>
/// What the analyzers report on a document or a project: the project's own analyzer references (the SDK's CA rules,
/// StyleCop, ...) and Roslyn's IDE analyzers, with the severities the project's <c>.editorconfig</c> gives them.
/// Analyzer failures (AD0001) are left out: they say nothing about the code.
/// </summary>
internal static class AnalyzerDiagnostics
{
    private const string AnalyzerFailure = "AD0001";

    /// <summary>
    /// The analyzers of <paramref name="project"/>; with <paramref name="ids"/>, only those that report one of them.
    /// </summary>
    public static ImmutableArray<DiagnosticAnalyzer> Of(Project project, IReadOnlySet<string>? ids = null)
    {
        var own = project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language));
        return [.. own.Concat(RoslynFeatures.Analyzers).Where(a => ids is null || Reports(a).Overlaps(ids))];
    }

    /// <summary>Analyzer diagnostics of one document, within <paramref name="span"/> when given.</summary>
    public static async Task<ImmutableArray<Diagnostic>> OfDocumentAsync(
        Document document,
        TextSpan? span,
        IReadOnlySet<string>? ids,
        CancellationToken cancellationToken)
    {
        if (await WithAnalyzersAsync(document.Project, ids, cancellationToken) is not { } analysis
            || await document.GetSyntaxTreeAsync(cancellationToken) is not { } tree)
        {
            return [];
        }
        var model = analysis.Compilation.GetSemanticModel(tree);
        var syntax = await analysis.GetAnalyzerSyntaxDiagnosticsAsync(tree, span, cancellationToken);
        var semantic = await analysis.GetAnalyzerSemanticDiagnosticsAsync(model, span, cancellationToken);
        return Kept(syntax.Concat(semantic), ids);
    }

    /// <summary>Every analyzer diagnostic of the project, the compilation-wide ones included.</summary>
    public static async Task<ImmutableArray<Diagnostic>> OfProjectAsync(Project project, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        if (await WithAnalyzersAsync(project, ids, cancellationToken) is not { } analysis)
        {
            return [];
        }
        return Kept(await analysis.GetAnalyzerDiagnosticsAsync(cancellationToken), ids);
    }

    /// <summary>Each id the project's analyzers report, with the name of the assembly of the first that reports it.</summary>
    public static Dictionary<string, string> SourcesOf(Project project)
    {
        var sources = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var analyzer in Of(project))
        {
            foreach (var id in Reports(analyzer))
            {
                sources.TryAdd(id, analyzer.GetType().Assembly.GetName().Name ?? "analyzer");
            }
        }
        return sources;
    }

    private static async Task<CompilationWithAnalyzers?> WithAnalyzersAsync(Project project, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        var analyzers = Of(project, ids);
        if (analyzers.IsEmpty || await project.GetCompilationAsync(cancellationToken) is not { } compilation)
        {
            return null;
        }
        var options = new CompilationWithAnalyzersOptions(
            project.AnalyzerOptions,
            onAnalyzerException: null,
            concurrentAnalysis: true,
            logAnalyzerExecutionTime: false,
            reportSuppressedDiagnostics: false);
        return compilation.WithAnalyzers(analyzers, options);
    }

    private static ImmutableArray<Diagnostic> Kept(IEnumerable<Diagnostic> diagnostics, IReadOnlySet<string>? ids) =>
        [.. diagnostics.Where(d => d.Id != AnalyzerFailure && !d.IsSuppressed && (ids is null || ids.Contains(d.Id)))];

    private static readonly ConditionalWeakTable<DiagnosticAnalyzer, HashSet<string>> Reported = new();

    /// <summary>The ids an analyzer reports (asked once per analyzer); none when it cannot say.</summary>
    private static HashSet<string> Reports(DiagnosticAnalyzer analyzer) => Reported.GetValue(analyzer, SupportedIds);

    private static HashSet<string> SupportedIds(DiagnosticAnalyzer analyzer)
    {
        try
        {
            return analyzer.SupportedDiagnostics.Select(d => d.Id).ToHashSet(StringComparer.Ordinal);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return [];
        }
    }
}
