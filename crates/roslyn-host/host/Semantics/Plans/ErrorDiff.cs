using System.Globalization;
using Microsoft.CodeAnalysis;
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
    /// A document's errors, from its compilation's diagnostics when they are kept (the warm-up computed them),
    /// else asked of its semantic model.
    /// </summary>
    public static async Task<IReadOnlyList<Diagnostic>> KeptOfDocumentAsync(Solution solution, Compilation? compilation, DocumentId id, CancellationToken cancellationToken)
    {
        var tree = await (solution.GetDocument(id)?.GetSyntaxTreeAsync(cancellationToken) ?? Task.FromResult<SyntaxTree?>(null));
        return compilation is not null && tree is not null && CompilerDiagnostics.KeptOf(compilation) is { } kept
            ? Errors(kept.Where(d => d.Location.SourceTree == tree))
            : await OfDocumentAsync(solution, id, cancellationToken);
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
