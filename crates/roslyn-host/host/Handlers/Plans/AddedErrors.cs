using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Handlers.Plans;

/// <summary>
/// The compiler errors a planned change adds: only projects that changed, or depend on one that did, can differ,
/// so only those are compiled before and after.
/// </summary>
internal static class AddedErrors
{
    /// <summary>The added errors, sorted by path and position, each (id, place) once.</summary>
    public static async Task<List<Diagnostic>> BetweenAsync(Solution before, Solution after, CancellationToken cancellationToken)
    {
        var added = new List<Diagnostic>();
        foreach (var id in AffectedProjects(before, after))
        {
            var errorsBefore = await ErrorDiff.OfProjectAsync(before.GetProject(id), cancellationToken);
            var errorsAfter = await ErrorDiff.OfProjectAsync(after.GetProject(id), cancellationToken);
            added.AddRange(ErrorDiff.Added(errorsBefore, errorsAfter));
        }
        return added
            .Select(e => (Error: e, At: e.Location.GetLineSpan()))
            .OrderBy(e => e.At.Path, StringComparer.Ordinal)
            .ThenBy(e => e.At.StartLinePosition)
            .ThenBy(e => e.Error.Id, StringComparer.Ordinal)
            .Select(e => e.Error)
            .DistinctBy(e => (e.Id, e.Location.GetLineSpan()))
            .ToList();
    }

    /// <summary>The projects that changed and those that depend on them: the only ones whose compilation can differ.</summary>
    public static IEnumerable<ProjectId> AffectedProjects(Solution before, Solution after)
    {
        var changed = after.GetChanges(before).GetProjectChanges().Select(c => c.ProjectId).ToHashSet();
        var graph = after.GetProjectDependencyGraph();
        return changed.Concat(changed.SelectMany(graph.GetProjectsThatTransitivelyDependOnThisProject)).Distinct();
    }
}
