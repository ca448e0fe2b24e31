using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Formatting;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Usings;

/// <summary>
/// Plans removing unnecessary using directives and sorting the rest, for one document, one project (every
/// target framework) or the whole solution, checked to compile without new errors. Each file is examined once,
/// with every project compiling it voting on what may go.
/// </summary>
public static class OrganizeUsingsHandler
{
    public static async Task<OrganizeUsingsPlan> HandleAsync(Solution solution, OrganizeUsingsRequest request, CancellationToken cancellationToken)
    {
        var phases = new PlanPhases();
        var paths = await CoveredFiles.PathsAsync(solution, request.File, request.Project, cancellationToken);
        var edits = new List<FileEdit>();
        var warnings = new List<string>();
        var removed = 0;
        var after = solution;
        foreach (var path in FileProgress.Through(paths))
        {
            var documents = PositionResolver.DocumentsAt(solution, path);
            var original = await documents[0].GetTextAsync(cancellationToken);
            var text = original;
            var notes = new List<string>();
            phases.End("reading");
            if (request.RemoveUnused)
            {
                var vote = await UnusedUsings.VoteAsync(documents, cancellationToken);
                phases.End("Roslyn's binding for unused usings");
                warnings.AddRange(vote.Kept);
                if (vote.Removals.Count > 0)
                {
                    text = UnusedUsings.Remove(text, vote.Removals);
                    removed += vote.Removals.Count;
                    notes.Add($"Remove {vote.Removals.Count} using{(vote.Removals.Count == 1 ? "" : "s")}");
                }
            }
            if (request.Sort)
            {
                var sorted = await Formatter.OrganizeImportsAsync(documents[0].WithText(text), cancellationToken);
                var sortedText = await sorted.GetTextAsync(cancellationToken);
                phases.End("Roslyn's organize imports");
                if (!sortedText.ContentEquals(text))
                {
                    text = sortedText;
                    notes.Add("sort");
                }
            }
            if (text.ContentEquals(original))
            {
                continue;
            }
            var description = string.Join("; ", notes);
            edits.Add(new FileEdit(path, EditKind.Modify, TextHash.Sha256(original), text.ToString(), char.ToUpperInvariant(description[0]) + description[1..]));
            foreach (var document in documents)
            {
                after = after.WithDocumentText(document.Id, text);
            }
        }

        // A using directive (never a global one here) binds names in its own file alone: only the organized
        // files can have new errors.
        phases.End("edits");
        var added = await AddedErrors.InDocumentsAsync(solution, after, _ => false, cancellationToken)
            ?? await AddedErrors.BetweenAsync(solution, after, cancellationToken);
        phases.End("compile check");
        phases.Log($"organizing of usings in {paths.Count} file(s), {edits.Count} changed");
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("organizing of usings", added, "Organize the file by hand, or fix the code the error points at first");
        }
        return new OrganizeUsingsPlan(
            edits.OrderBy(e => e.Path, StringComparer.Ordinal).ToValueList(),
            (uint)paths.Count,
            (uint)removed,
            warnings.ToValueList());
    }
}
