using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>Compiler errors before and after a change, compared as multisets of (id, message): positions shift.</summary>
internal static class ErrorDiff
{
    public static async Task<IReadOnlyList<Diagnostic>> OfDocumentAsync(Solution solution, DocumentId id, CancellationToken cancellationToken)
    {
        var document = solution.GetDocument(id) ?? throw new InvalidOperationException($"document {id} is not in the solution");
        var model = await document.GetSemanticModelAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");
        return Errors(model.GetDiagnostics(cancellationToken: cancellationToken));
    }

    /// <summary>
    /// A document's errors (within <paramref name="spans"/> when given), from its compilation's diagnostics when
    /// they are kept (the warm-up computed them), else asked of its semantic model.
    /// </summary>
    public static async Task<IReadOnlyList<Diagnostic>> KeptOfDocumentAsync(
        Solution solution,
        Compilation? compilation,
        DocumentId id,
        CancellationToken cancellationToken,
        List<TextSpan>? spans = null)
    {
        var document = solution.GetDocument(id);
        var tree = document is null ? null : await document.GetSyntaxTreeAsync(cancellationToken);
        return compilation is not null && tree is not null && CompilerDiagnostics.KeptOf(compilation) is { } kept
            ? Errors(kept.Where(d => d.Location.SourceTree == tree && (spans is null || spans.Any(s => s.IntersectsWith(d.Location.SourceSpan)))))
            : spans is null || document is null ? await OfDocumentAsync(solution, id, cancellationToken) : await InSpansAsync(document, spans, cancellationToken);
    }

    /// <summary>
    /// A document's errors before and after a change that only renames <paramref name="names"/>, in the members that
    /// spell one (<see cref="SpelledMembers"/>): the rest of the document binds as it did. The whole document when a
    /// name is spelled outside every type.
    /// </summary>
    public static async Task<(IReadOnlyList<Diagnostic> Before, IReadOnlyList<Diagnostic> After)> InSpelledMembersAsync(
        Solution before,
        Compilation? compilation,
        Solution after,
        DocumentId id,
        IReadOnlySet<string> names,
        CancellationToken cancellationToken)
    {
        var (was, @is) = (before.GetDocument(id), after.GetDocument(id));
        var wasSpans = was is null ? null : SpelledMembers.Of((await was.GetSyntaxRootAsync(cancellationToken))!, names);
        var isSpans = @is is null ? null : SpelledMembers.Of((await @is.GetSyntaxRootAsync(cancellationToken))!, names);
        if (wasSpans is null || isSpans is null)
        {
            return (await KeptOfDocumentAsync(before, compilation, id, cancellationToken), await OfDocumentAsync(after, id, cancellationToken));
        }
        return (await KeptOfDocumentAsync(before, compilation, id, cancellationToken, wasSpans), await InSpansAsync(@is!, isSpans, cancellationToken));
    }

    private static async Task<IReadOnlyList<Diagnostic>> InSpansAsync(Document document, List<TextSpan> spans, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");
        return Errors(spans.SelectMany(span => model.GetDiagnostics(span, cancellationToken)).DistinctBy(d => (d.Id, d.Location.SourceSpan)));
    }

    public static async Task<IReadOnlyList<Diagnostic>> OfProjectAsync(Project? project, CancellationToken cancellationToken)
    {
        var compilation = project is null ? null : await project.GetCompilationAsync(cancellationToken);
        return compilation is null ? [] : Errors(CompilerDiagnostics.Of(project!, compilation, cancellationToken));
    }

    /// <summary>The errors of a project as a plan leaves it, worked out from the project it changes when it can.</summary>
    public static async Task<IReadOnlyList<Diagnostic>> OfPlannedAsync(Project? before, Project? after, CancellationToken cancellationToken)
    {
        var planned = after is null ? null : await after.GetCompilationAsync(cancellationToken);
        var baseCompilation = before is null ? null : await before.GetCompilationAsync(cancellationToken);
        return (planned, baseCompilation) switch
        {
            (null, _) => [],
            (_, null) => Errors(planned.GetDiagnostics(cancellationToken)),
            _ => Errors(CompilerDiagnostics.OfPlanned(before!, baseCompilation, planned, cancellationToken)),
        };
    }

    /// <summary>The errors of <paramref name="after"/> beyond those of <paramref name="before"/>.</summary>
    public static List<Diagnostic> Added(IEnumerable<Diagnostic> before, IEnumerable<Diagnostic> after)
    {
        var counts = new Dictionary<(string, string), int>();
        foreach (var error in before)
        {
            counts[Key(error)] = counts.GetValueOrDefault(Key(error)) + 1;
        }
        var added = new List<Diagnostic>();
        foreach (var error in after)
        {
            var remaining = counts.GetValueOrDefault(Key(error));
            if (remaining > 0)
            {
                counts[Key(error)] = remaining - 1;
            }
            else
            {
                added.Add(error);
            }
        }
        return added;
    }

    public static bool Grew(IEnumerable<Diagnostic> before, IEnumerable<Diagnostic> after) => Added(before, after).Count > 0;

    private static List<Diagnostic> Errors(IEnumerable<Diagnostic> diagnostics) =>
        [.. diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error && !d.IsSuppressed)];

    private static (string, string) Key(Diagnostic error) => (error.Id, error.GetMessage(CultureInfo.InvariantCulture));
}
