using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Severity = RoslynMcp.Host.Protocol.Severity;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>
/// The compiler's diagnostics as the build reports them: a project's diagnostic suppressors (TUnit's hide
/// CS8604 where its data sources guarantee a value) take out what they suppress. Roslyn applies suppressors
/// only to a compilation run with its analyzers, which costs the compiler's diagnostics again: they run only
/// where a diagnostic one of them can suppress is present, once per compilation.
/// </summary>
internal static class Suppressions
{
    private static readonly ConditionalWeakTable<Compilation, HashSet<Key>> Suppressed = new();

    private readonly record struct Key(string Id, string? File, TextSpan Span);

    /// <summary>
    /// <paramref name="diagnostics"/> without those a suppressor suppresses; they run only when one of the
    /// answer's (at or above <paramref name="minimum"/>; an error is suppressed only as the warning it was) is theirs to suppress.
    /// </summary>
    public static async Task<ImmutableArray<Diagnostic>> ApplyAsync(
        Project project,
        Compilation compilation,
        ImmutableArray<Diagnostic> diagnostics,
        Severity minimum,
        CancellationToken cancellationToken)
    {
        var suppressors = project.AnalyzerReferences
            .SelectMany(r => r.GetAnalyzers(project.Language))
            .OfType<DiagnosticSuppressor>()
            .ToImmutableArray();
        var ids = suppressors.SelectMany(SuppressedIds).ToHashSet(StringComparer.Ordinal);
        // A warning made an error (`WarningsAsErrors`, nullable warnings in Refit's tests) is still suppressible.
        var suppressible = diagnostics.Where(d => (d.Severity != DiagnosticSeverity.Error || d.IsWarningAsError) && !d.IsSuppressed);
        if (!suppressible.Any(d => ids.Contains(d.Id) && DiagnosticFormat.SeverityOf(d.Severity) >= minimum))
        {
            return diagnostics;
        }
        // A cancelled computation throws before anything is kept; two callers racing compute the same thing.
        if (!Suppressed.TryGetValue(compilation, out var suppressed))
        {
            suppressed = await SuppressedByAsync(compilation, suppressors, project.AnalyzerOptions, cancellationToken);
            Suppressed.AddOrUpdate(compilation, suppressed);
        }
        return [.. diagnostics.Where(d => !suppressed.Contains(KeyOf(d)))];
    }

    private static async Task<HashSet<Key>> SuppressedByAsync(
        Compilation compilation,
        ImmutableArray<DiagnosticSuppressor> suppressors,
        AnalyzerOptions analyzerOptions,
        CancellationToken cancellationToken)
    {
        var options = AnalyzerDiagnostics.Options(analyzerOptions, reportSuppressed: true);
        var all = await compilation.WithAnalyzers([.. suppressors.Cast<DiagnosticAnalyzer>()], options).GetAllDiagnosticsAsync(cancellationToken);
        return [.. all.Where(d => d.IsSuppressed).Select(KeyOf)];
    }

    private static Key KeyOf(Diagnostic diagnostic) =>
        new(diagnostic.Id, diagnostic.Location.SourceTree?.FilePath, diagnostic.Location.SourceSpan);

    private static IEnumerable<string> SuppressedIds(DiagnosticSuppressor suppressor)
    {
        try
        {
            return [.. suppressor.SupportedSuppressions.Select(s => s.SuppressedDiagnosticId)];
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return [];
        }
    }
}
