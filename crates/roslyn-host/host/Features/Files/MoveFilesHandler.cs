using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Namespaces;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Files;

/// <summary>
/// Plans moving C# files, or a folder's, to a folder of their project or of another. Unless asked to keep them,
/// each file's namespace first becomes the one its new folder implies, where it is, with every consumer updated
/// (as sync_namespaces does); then the documents move, the project references the move needs are added
/// (<see cref="NeededReferences"/>), project files that list their files are edited, and the whole must compile
/// without new errors in every target framework.
/// </summary>
public static class MoveFilesHandler
{
    public static async Task<MoveFilesPlan> HandleAsync(Solution solution, MoveFilesRequest request, CancellationToken cancellationToken)
    {
        var phases = new PlanPhases();
        var (moves, targets, warnings) = FileMoves.Resolve(solution, request);
        var target = targets[0];
        var references = await NeededReferences.FindAsync(solution, moves, targets, cancellationToken);
        phases.End("references");

        var current = solution;
        var namespaces = new List<NamespaceChange>();
        foreach (var move in FileProgress.Through(request.KeepNamespaces ? [] : moves))
        {
            if (FolderNamespace.Implied(target, ProjectLayout.FoldersOf(target, move.To)) is { } expected)
            {
                (current, var change) = await FolderNamespace.FollowAsync(solution, current, move.From, expected, warnings, phases, cancellationToken);
                if (change is not null)
                {
                    namespaces.Add(change);
                }
            }
        }
        phases.End("namespaces");
        foreach (var move in moves)
        {
            var text = await PositionResolver.DocumentAt(current, move.From)!.GetTextAsync(cancellationToken);
            current = current.RemoveDocuments([.. current.GetDocumentIdsWithFilePath(move.From)])
                .AddDocument(DocumentId.CreateNewId(target.Id), Path.GetFileName(move.To), text, ProjectLayout.FoldersOf(target, move.To), move.To);
        }
        var title = $"Move {moves.Count} file{(moves.Count == 1 ? "" : "s")} to {request.Destination}";
        var edits = await SolutionEdits.BetweenAsync(solution, current, title, cancellationToken);
        var after = NeededReferences.AddTo(edits.After, references);
        phases.End("documents moved");
        var added = await AddedErrors.BetweenAsync(solution, after, cancellationToken);
        phases.End("compile check");
        phases.Log($"move of {moves.Count} file(s) to {request.Destination}, {namespaces.Count} namespace(s) changed");
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("move", added, "Check what the error points at: the moved code may use what its new project cannot see, or a name may clash there");
        }
        warnings.AddRange(edits.Warnings);
        return new MoveFilesPlan(
            new EditPlan(
                title,
                [.. edits.Edits.Concat(await ProjectFileEditsAsync(moves, target.FilePath!, references, cancellationToken)).OrderBy(e => e.Path, StringComparer.Ordinal)],
                (uint)moves.Count,
                (uint)(edits.Changes + moves.Count),
                warnings.ToValueList()),
            moves.Select(m => new MovedFile(m.From, m.To)).ToValueList(),
            namespaces.ToValueList(),
            references.Select(r => new AddedReference(r.Project, r.References)).ToValueList());
    }

    /// <summary>
    /// One edit per project file that changes: the source's entries of files it lists renamed (same project) or
    /// removed, a destination that lists its files given theirs, and the project references added.
    /// </summary>
    private static async Task<List<FileEdit>> ProjectFileEditsAsync(List<FileMove> moves, string target, List<NeededReference> references, CancellationToken cancellationToken)
    {
        var files = moves.ToDictionary(m => m.From, m => m.Project == target ? m.To : (string?)null, StringComparer.Ordinal);
        var projectFiles = moves.Select(m => m.Project).Append(target).Concat(references.Select(r => r.Project)).Distinct(StringComparer.Ordinal);
        var edits = new List<FileEdit>();
        foreach (var projectFile in projectFiles.Where(File.Exists))
        {
            var original = await File.ReadAllTextAsync(projectFile, cancellationToken);
            var text = ProjectFileEntries.Edited(original, projectFile, files) ?? original;
            if (projectFile == target && ProjectFileEntries.ListsFiles(original))
            {
                text = ProjectFileEntries.WithItems(text, projectFile, "Compile", [.. files.Where(f => f.Value is null).Select(f => moves.First(m => m.From == f.Key).To)]);
            }
            text = ProjectFileEntries.WithItems(text, projectFile, "ProjectReference", [.. references.Where(r => r.Project == projectFile).Select(r => r.References)]);
            if (text != original)
            {
                edits.Add(new FileEdit(projectFile, EditKind.Modify, TextHash.Sha256(original), text, "List the moved files and the project references they need"));
            }
        }
        return edits;
    }
}
