using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Format;

/// <summary>
/// Plans formatting one document (or some of its lines), one project (every target framework) or the whole
/// solution, generated files left out, checked to compile without new errors like every plan.
/// </summary>
public static class FormatHandler
{
    public static async Task<EditPlan> HandleAsync(Solution solution, FormatRequest request, CancellationToken cancellationToken)
    {
        if (request.Lines is not null && request.File is null)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                "Lines can only be formatted in one file",
                new JsonObject { ["startLine"] = request.Lines.StartLine, ["endLine"] = request.Lines.EndLine },
                "Pass the file the lines are in, or no lines to format whole files");
        }
        var phases = new PlanPhases();
        var paths = await CoveredFiles.PathsAsync(solution, request.File, request.Project, cancellationToken);
        var edits = new List<FileEdit>();
        var changes = 0;
        var after = solution;
        foreach (var path in FileProgress.Through(paths))
        {
            var documents = PositionResolver.DocumentsAt(solution, path);
            var original = await documents[0].GetTextAsync(cancellationToken);
            TextSpan? span = request.Lines is { } lines ? LineSpan.Of(original, lines, path) : null;
            phases.End("reading");
            var (text, places) = await FormattedFile.FormatAsync(documents, span, cancellationToken);
            phases.End("Roslyn's formatter");
            if (text.ContentEquals(original))
            {
                continue;
            }
            changes += places;
            var description = request.Lines is { } range ? $"Format lines {range.StartLine}-{range.EndLine}" : "Format";
            edits.Add(new FileEdit(path, EditKind.Modify, TextHash.Sha256(original), text.ToString(), description));
            foreach (var document in documents)
            {
                after = after.WithDocumentText(document.Id, text);
            }
        }

        phases.End("edits");
        var added = await AddedErrors.BetweenAsync(solution, after, cancellationToken);
        phases.End("compile check");
        phases.Log($"format of {paths.Count} file(s), {edits.Count} changed");
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("formatting", added, "Format the file by hand, or fix the code the error points at first");
        }
        return new EditPlan(
            $"Format {edits.Count} file{(edits.Count == 1 ? "" : "s")}",
            edits.ToValueList(),
            (uint)paths.Count,
            (uint)changes,
            []);
    }
}
