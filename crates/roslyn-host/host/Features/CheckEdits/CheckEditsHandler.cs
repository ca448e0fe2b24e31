using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.CheckEdits;

/// <summary>
/// The compile check of new texts computed on an older snapshot (a plan kept or merged onto this one): each file's
/// documents take the new text in every project that compiles it, and the change must add no compiler error. A file
/// no project compiles is passed over.
/// </summary>
public static class CheckEditsHandler
{
    public static async Task<uint> HandleAsync(Solution solution, CheckEditsRequest request, CancellationToken cancellationToken)
    {
        var after = solution;
        foreach (var edit in request.Edits)
        {
            if (edit.Kind != EditKind.Modify)
            {
                throw HostErrorException.Create(
                    ErrorCode.InvalidParameter,
                    $"Only changed documents can be checked, not a {edit.Kind} of {edit.Path}",
                    new JsonObject { ["path"] = edit.Path });
            }
            var documents = PositionResolver.DocumentsAt(solution, edit.Path);
            if (documents.Count == 0)
            {
                // Not compiled (a project file, a text file): nothing for the compiler to check.
                continue;
            }
            var current = await documents[0].GetTextAsync(cancellationToken);
            if (TextHash.Sha256(current) != edit.BaseSha256)
            {
                throw HostErrorException.Create(
                    ErrorCode.StalePlan,
                    $"{edit.Path} changed since the edits were merged",
                    new JsonObject { ["files"] = new JsonArray(edit.Path) },
                    "Retry: the change is merged again onto the files as they are");
            }
            var text = SourceText.From(edit.NewText, current.Encoding, current.ChecksumAlgorithm);
            foreach (var document in documents)
            {
                after = after.WithDocumentText(document.Id, text);
            }
        }
        var names = request.Names.Count > 0 ? request.Names.ToHashSet(StringComparer.Ordinal) : null;
        var added = await AddedErrors.WhereSpelledAsync(solution, after, names, cancellationToken);
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError(
                "change on the solution as it is now",
                added,
                "Preview the change again on the solution as it is now");
        }
        return (uint)request.Edits.Count(e => PositionResolver.DocumentsAt(solution, e.Path).Count > 0);
    }
}
