using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// The compiler errors a planned change adds: only projects that changed, or depend on one that did, can differ,
/// so only those are compiled before and after.
/// </summary>
internal static class AddedErrors
{
    /// <summary>The added errors, sorted by path and position, each (id, place) once.</summary>
    public static async Task<List<Diagnostic>> BetweenAsync(Solution before, Solution after, CancellationToken cancellationToken)
    {
        if (await OnlyLayoutChangedAsync(before, after, cancellationToken))
        {
            return [];
        }
        var added = new List<Diagnostic>();
        foreach (var id in AffectedProjects(before, after))
        {
            var errorsBefore = await ErrorDiff.OfProjectAsync(before.GetProject(id), cancellationToken);
            var errorsAfter = await ErrorDiff.OfPlannedAsync(before.GetProject(id), after.GetProject(id), cancellationToken);
            added.AddRange(ErrorDiff.Added(errorsBefore, errorsAfter));
        }
        return Sorted(added);
    }

    // Names the compiler binds without their being written: a change to a member of one of them can change code
    // that never spells it (foreach, await, using, deconstruction, collection initializers, query expressions, indexes).
    private static readonly HashSet<string> PatternNames =
    [
        "GetEnumerator", "GetAsyncEnumerator", "MoveNext", "MoveNextAsync", "Current", "GetAwaiter", "IsCompleted",
        "GetResult", "OnCompleted", "Dispose", "DisposeAsync", "Deconstruct", "Add", "Select", "SelectMany", "Where",
        "Join", "GroupJoin", "OrderBy", "OrderByDescending", "ThenBy", "ThenByDescending", "GroupBy", "Cast", "Slice",
        "Length", "Count", "Item", "GetPinnableReference",
    ];

    /// <summary>
    /// The added errors of a change that can add errors only where code spells one of <paramref name="names"/>
    /// (and in the documents it changed): those documents are asked alone; of a change that only renames the names
    /// (<paramref name="renamesOnly"/>: it edits nothing else that compiles), only their members that spell one.
    /// Compiles the projects whole when there are no names, a name is one the compiler binds unwritten, or the
    /// scope is most of a project.
    /// </summary>
    public static async Task<List<Diagnostic>> WhereSpelledAsync(
        Solution before,
        Solution after,
        IReadOnlySet<string>? names,
        CancellationToken cancellationToken,
        bool renamesOnly = false)
    {
        var scoped = names is null || names.Any(PatternNames.Contains)
            ? null
            : await InDocumentsAsync(before, after, text => Spells(text, names), cancellationToken, renamesOnly ? names : null);
        return scoped ?? await BetweenAsync(before, after, cancellationToken);
    }

    private static bool Spells(SourceText text, IReadOnlySet<string> names)
    {
        var written = text.ToString();
        return names.Any(name => written.Contains(name, StringComparison.Ordinal));
    }

    /// <summary>
    /// The added errors when only the documents <paramref name="inScope"/> picks (from the changed ones and those
    /// whose text it is given) can have new ones: each is asked alone, before and after (in the members that spell
    /// one of <paramref name="renamed"/>, when the change only renames those). Null when the change is more than
    /// document texts, or the scope is most of a project: then compile the projects whole.
    /// </summary>
    public static async Task<List<Diagnostic>?> InDocumentsAsync(
        Solution before,
        Solution after,
        Func<SourceText, bool> inScope,
        CancellationToken cancellationToken,
        IReadOnlySet<string>? renamed = null)
    {
        var added = new List<Diagnostic>();
        var (askedInAll, documentsInAll) = (0, 0);
        // An unchanged file is one text in every target framework's project: it is read once, not once per framework.
        var pathInScope = new Dictionary<string, bool>(StringComparer.Ordinal);
        async Task<bool> InScopeAsync(Document document)
        {
            if (document.FilePath is { } path && pathInScope.TryGetValue(path, out var known))
            {
                return known;
            }
            var picked = inScope(await document.GetTextAsync(cancellationToken));
            if (document.FilePath is { } read)
            {
                pathInScope[read] = picked;
            }
            return picked;
        }
        foreach (var id in AffectedProjects(before, after))
        {
            var (was, @is) = (before.GetProject(id), after.GetProject(id));
            if (was is null || @is is null || was.DocumentIds.Count != @is.DocumentIds.Count)
            {
                return null;
            }
            var changed = @is.GetChanges(was).GetChangedDocuments(onlyGetDocumentsWithTextChanges: true).ToHashSet();
            var asked = new List<DocumentId>();
            foreach (var document in @is.Documents)
            {
                if (changed.Contains(document.Id) || await InScopeAsync(document))
                {
                    asked.Add(document.Id);
                }
            }
            if (asked.Count * 2 > @is.DocumentIds.Count)
            {
                return null;
            }
            (askedInAll, documentsInAll) = (askedInAll + asked.Count, documentsInAll + @is.DocumentIds.Count);
            var compiled = await was.GetCompilationAsync(cancellationToken);
            foreach (var document in asked)
            {
                var (errorsBefore, errorsAfter) = renamed is null
                    ? (await ErrorDiff.KeptOfDocumentAsync(before, compiled, document, cancellationToken),
                        await ErrorDiff.OfDocumentAsync(after, document, cancellationToken))
                    : await ErrorDiff.InSpelledMembersAsync(before, compiled, after, document, renamed, cancellationToken);
                added.AddRange(ErrorDiff.Added(errorsBefore, errorsAfter));
            }
        }
        Log.Info($"compile check: {askedInAll} of {documentsInAll} documents asked");
        return Sorted(added);
    }

    /// <summary>
    /// Whether every changed document has the same tokens and directives as before (a format): the compiler
    /// sees nothing else, so no error can be added. A file's documents with the same texts before and after are
    /// checked once for each way their projects see it (<see cref="PreprocessorViews"/>), not once per framework.
    /// </summary>
    private static async Task<bool> OnlyLayoutChangedAsync(Solution before, Solution after, CancellationToken cancellationToken)
    {
        var checkedViews = new HashSet<(string?, string, string, string)>();
        var namedIn = new Dictionary<string, HashSet<string>>(StringComparer.Ordinal);
        foreach (var project in after.GetChanges(before).GetProjectChanges())
        {
            if (project.GetAddedDocuments().Any() || project.GetRemovedDocuments().Any()
                || !project.OldProject.ProjectReferences.SequenceEqual(project.NewProject.ProjectReferences))
            {
                return false;
            }
            foreach (var id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                var (old, @new) = (project.OldProject.GetDocument(id)!, project.NewProject.GetDocument(id)!);
                var was = await old.GetSyntaxRootAsync(cancellationToken);
                var oldText = Convert.ToHexString((await old.GetTextAsync(cancellationToken)).GetContentHash().AsSpan());
                // One text names the same symbols in its conditions whichever project parsed it.
                if (!namedIn.TryGetValue(oldText, out var named))
                {
                    namedIn[oldText] = named = PreprocessorViews.Named(was);
                }
                var view = (
                    old.FilePath,
                    PreprocessorViews.Of(old.Project, named),
                    oldText,
                    Convert.ToHexString((await @new.GetTextAsync(cancellationToken)).GetContentHash().AsSpan()));
                if (!checkedViews.Add(view))
                {
                    continue;
                }
                var @is = await @new.GetSyntaxRootAsync(cancellationToken);
                if (was is null || @is is null || !SyntaxFactory.AreEquivalent(was, @is, topLevel: false)
                    || !BodyEdits.Directives(was).SequenceEqual(BodyEdits.Directives(@is)))
                {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<Diagnostic> Sorted(List<Diagnostic> added)
    {
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
