using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.FindReplace;

/// <summary>
/// Plans replacing text (a literal or a .NET regular expression) over the solution's documents, as the snapshot
/// holds them, and optionally its other text files. Like every plan it must compile: a replacement that adds
/// compiler errors is refused. No match is an empty plan, not an error.
/// </summary>
public static class FindReplaceHandler
{
    public const int MaxMatches = 10_000;

    public static async Task<FindReplacePlan> HandleAsync(Solution solution, string solutionPath, FindReplaceRequest request, CancellationToken cancellationToken)
    {
        var pattern = SearchPattern.Of(request);
        var warnings = new List<string>();
        var files = await SearchedFiles.ListAsync(solution, Path.GetDirectoryName(Path.GetFullPath(solutionPath))!, request, warnings, cancellationToken);
        var found = 0;
        var replaced = new List<FileReplacement>();
        foreach (var file in files)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var replacements = new List<TextChange>();
            foreach (var match in pattern.In(file.Path, file.Text.ToString()))
            {
                if (++found > MaxMatches)
                {
                    throw TooMany(request, found, replaced.Count + 1);
                }
                replacements.Add(new TextChange(new TextSpan(match.Index, match.Length), pattern.ReplacementOf(match)));
            }
            if (replacements.Count > 0)
            {
                replaced.Add(new FileReplacement(file, replacements));
            }
        }

        var edits = new List<FileEdit>();
        var after = solution;
        foreach (var replacement in replaced.Where(r => r.Changes > 0))
        {
            var file = replacement.File;
            edits.Add(new FileEdit(file.Path, EditKind.Modify, TextHash.Sha256(file.Text), replacement.NewText.ToString(), $"Replace {Count(replacement.Changes, "match", "matches")}"));
            foreach (var id in file.Documents)
            {
                after = after.WithDocumentText(id, replacement.NewText);
            }
        }
        var added = await AddedErrors.BetweenAsync(solution, after, cancellationToken);
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError(
                $"replacement of '{FileReplacement.Shown(request.Pattern, 100)}' with '{FileReplacement.Shown(request.Replacement, 100)}'",
                added,
                "Every plan must compile: narrow the search (whole word, include, project) so that declarations and their uses change together, or rename the symbol with rename");
        }
        var changes = replaced.Sum(r => r.Changes);
        return new FindReplacePlan(
            new EditPlan(
                $"Replace {Count(changes, "match", "matches")} in {Count(edits.Count, "file", "files")}",
                edits.ToValueList(),
                (uint)files.Count,
                (uint)changes,
                warnings.ToValueList()),
            replaced.SelectMany(r => r.Matches()).ToValueList());
    }

    private static string Count(int n, string one, string many) => $"{n} {(n == 1 ? one : many)}";

    private static HostErrorException TooMany(FindReplaceRequest request, int found, int files) => HostErrorException.Create(
        ErrorCode.CapExceeded,
        $"'{request.Pattern}' matches more than {MaxMatches} times ({found} counted so far, in {files} files)",
        new JsonObject { ["pattern"] = request.Pattern, ["matches"] = found, ["cap"] = MaxMatches },
        "Narrow the search with a more specific pattern, whole word, include or project");
}
