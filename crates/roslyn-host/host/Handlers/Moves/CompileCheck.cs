using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Handlers.Moves;

/// <summary>
/// Compiles the moved solution in memory and refuses the move when a project that changed, or depends on one
/// that did, has errors it did not have before.
/// </summary>
internal static class CompileCheck
{
    // CS0122 inaccessible; CS0050–CS0061 inconsistent accessibility.
    private static readonly HashSet<string> AccessibilityErrors =
        ["CS0122", .. Enumerable.Range(50, 12).Select(n => $"CS{n:D4}")];

    public static async Task RunAsync(Solution before, Solution after, MovedType type, CancellationToken cancellationToken)
    {
        var added = new List<Diagnostic>();
        foreach (var id in AffectedProjects(before, after))
        {
            var errorsBefore = await ErrorDiff.OfProjectAsync(before.GetProject(id), cancellationToken);
            var errorsAfter = await ErrorDiff.OfProjectAsync(after.GetProject(id), cancellationToken);
            added.AddRange(ErrorDiff.Added(errorsBefore, errorsAfter));
        }
        if (added.Count == 0)
        {
            return;
        }
        var sorted = added
            .Select(e => (Error: e, At: e.Location.GetLineSpan()))
            .OrderBy(e => e.At.Path, StringComparer.Ordinal)
            .ThenBy(e => e.At.StartLinePosition)
            .ThenBy(e => e.Error.Id, StringComparer.Ordinal)
            .Select(e => e.Error)
            .DistinctBy(e => (e.Id, e.Location.GetLineSpan()))
            .ToList();
        var accessibility = sorted.Where(e => AccessibilityErrors.Contains(e.Id)).ToList();
        throw accessibility.Count > 0
            ? MoveErrors.BreaksAccessibility(type.Name, accessibility)
            : MoveErrors.CompilationError(sorted);
    }

    /// <summary>The projects that changed and those that depend on them: the only ones whose compilation can differ.</summary>
    public static IEnumerable<ProjectId> AffectedProjects(Solution before, Solution after)
    {
        var changed = after.GetChanges(before).GetProjectChanges().Select(c => c.ProjectId).ToHashSet();
        var graph = after.GetProjectDependencyGraph();
        return changed.Concat(changed.SelectMany(graph.GetProjectsThatTransitivelyDependOnThisProject)).Distinct();
    }
}
