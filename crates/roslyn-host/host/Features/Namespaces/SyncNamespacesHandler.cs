using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Namespaces;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Namespaces;

/// <summary>
/// Plans making every file of a project or folder declare the namespace its folder implies
/// (<see cref="FolderNamespace"/>). Files that already do, or declare no single top-level namespace, get no edit;
/// the others change one at a time, consumers updated, and the whole must compile without new errors. A file
/// linked into the project from outside its directory is left as it is: its folder there (the link's) is one of
/// the places that compile it, not where it lies, and every project that links it shares its namespace.
/// </summary>
public static class SyncNamespacesHandler
{
    public static async Task<SyncNamespacesPlan> HandleAsync(Solution solution, SyncNamespacesRequest request, CancellationToken cancellationToken)
    {
        var phases = new PlanPhases();
        var paths = await CoveredFiles.PathsAsync(solution, null, request.Project, cancellationToken);
        if (request.Folder is { } folder)
        {
            var prefix = Path.TrimEndingDirectorySeparator(folder) + Path.DirectorySeparatorChar;
            paths = [.. paths.Where(p => p.StartsWith(prefix, StringComparison.Ordinal))];
        }
        var current = solution;
        var changed = new List<NamespaceChange>();
        var warnings = new List<string>();
        var linked = new List<string>();
        foreach (var path in FileProgress.Through(paths))
        {
            var document = PositionResolver.DocumentAt(current, path)!;
            if (!ProjectLayout.Holds(document.Project, path))
            {
                linked.Add(path);
                continue;
            }
            if (FolderNamespace.Implied(document.Project, document.Folders) is not { } expected)
            {
                continue;
            }
            (current, var change) = await FolderNamespace.FollowAsync(solution, current, path, expected, warnings, phases, cancellationToken);
            if (change is not null)
            {
                changed.Add(change);
            }
        }
        if (linked.Count > 0)
        {
            warnings.Add($"{linked.Count} file(s) linked into the project from outside its folder left as they are (their namespace is shared by every project that compiles them): {string.Join(", ", linked.Take(5))}{(linked.Count > 5 ? ", ..." : "")}");
        }
        var title = $"Sync the namespaces of {changed.Count} file{(changed.Count == 1 ? "" : "s")}";
        phases.End("files");
        var edits = await SolutionEdits.BetweenAsync(solution, current, title, cancellationToken);
        phases.End("edits");
        var added = await AddedErrors.BetweenAsync(solution, edits.After, cancellationToken);
        phases.End("compile check");
        phases.Log($"sync of {paths.Count} file(s), {changed.Count} changed");
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("namespace change", added, "Sync a smaller folder, or fix the code the error points at first");
        }
        warnings.AddRange(edits.Warnings);
        return new SyncNamespacesPlan(
            new EditPlan(title, edits.Edits.ToValueList(), (uint)paths.Count, (uint)edits.Changes, warnings.ToValueList()),
            changed.ToValueList());
    }
}
