using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Severity = RoslynMcp.Host.Protocol.Severity;

namespace RoslynMcp.Host.Semantics.Diagnostics;

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

    /// <summary>
    /// Analyzer diagnostics of one document, within <paramref name="span"/> when given; with
    /// <paramref name="minimum"/>, only analyzers that can report at that severity or above run.
    /// </summary>
    public static async Task<ImmutableArray<Diagnostic>> OfDocumentAsync(
        Document document,
        TextSpan? span,
        IReadOnlySet<string>? ids,
        CancellationToken cancellationToken,
        Severity minimum = Severity.Hidden)
    {
        if (await WithAnalyzersAsync(document.Project, ids, minimum, cancellationToken) is not { } analysis
            || await document.GetSyntaxTreeAsync(cancellationToken) is not { } tree)
        {
            return [];
        }
        var model = analysis.Compilation.GetSemanticModel(tree);
        var syntax = await analysis.GetAnalyzerSyntaxDiagnosticsAsync(tree, span, cancellationToken);
        var semantic = await analysis.GetAnalyzerSemanticDiagnosticsAsync(model, span, cancellationToken);
        return Kept(syntax.Concat(semantic), ids);
    }

    /// <summary>Every analyzer diagnostic of the project, the compilation-wide ones included (see <see cref="OfDocumentAsync"/>).</summary>
    public static async Task<ImmutableArray<Diagnostic>> OfProjectAsync(
        Project project,
        IReadOnlySet<string>? ids,
        CancellationToken cancellationToken,
        Severity minimum = Severity.Hidden)
    {
        if (await WithAnalyzersAsync(project, ids, minimum, cancellationToken) is not { } analysis)
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

    private static async Task<CompilationWithAnalyzers?> WithAnalyzersAsync(
        Project project,
        IReadOnlySet<string>? ids,
        Severity minimum,
        CancellationToken cancellationToken)
    {
        var analyzers = Of(project, ids);
        if (analyzers.IsEmpty || await project.GetCompilationAsync(cancellationToken) is not { } compilation)
        {
            return null;
        }
        analyzers = SeverityReach.Filter(analyzers, project, compilation, minimum, cancellationToken);
        if (analyzers.IsEmpty)
        {
            return null;
        }
        return compilation.WithAnalyzers(analyzers, Options(project.AnalyzerOptions, reportSuppressed: false));
    }

    /// <summary>How the host runs analyzers: concurrently, untimed; suppressed diagnostics reported when asked.</summary>
    public static CompilationWithAnalyzersOptions Options(AnalyzerOptions options, bool reportSuppressed) => new(
        options,
        onAnalyzerException: null,
        concurrentAnalysis: true,
        logAnalyzerExecutionTime: false,
        reportSuppressedDiagnostics: reportSuppressed);

    private static ImmutableArray<Diagnostic> Kept(IEnumerable<Diagnostic> diagnostics, IReadOnlySet<string>? ids) =>
        [.. diagnostics.Where(d => d.Id != AnalyzerFailure && !d.IsSuppressed && (ids is null || ids.Contains(d.Id)))];

    private static readonly ConditionalWeakTable<DiagnosticAnalyzer, HashSet<string>> Reported = new();

    private static readonly ConditionalWeakTable<DiagnosticAnalyzer, StrongBox<ImmutableArray<DiagnosticDescriptor>>> Described = new();

    /// <summary>The ids an analyzer reports (asked once per analyzer); none when it cannot say.</summary>
    private static HashSet<string> Reports(DiagnosticAnalyzer analyzer) =>
        Reported.GetValue(analyzer, a => Descriptors(a).Select(d => d.Id).ToHashSet(StringComparer.Ordinal));

    /// <summary>The rules an analyzer reports (asked once per analyzer); none when it cannot say.</summary>
    public static ImmutableArray<DiagnosticDescriptor> Descriptors(DiagnosticAnalyzer analyzer) =>
        Described.GetValue(analyzer, a => new(SupportedDiagnostics(a))).Value;

    private static ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics(DiagnosticAnalyzer analyzer)
    {
        try
        {
            return analyzer.SupportedDiagnostics;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return [];
        }
    }
}
