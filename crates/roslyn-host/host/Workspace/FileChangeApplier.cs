using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// Folds on-disk file changes into a solution snapshot. Only the in-memory snapshot changes: nothing is ever
/// written back through the workspace.
/// </summary>
public static class FileChangeApplier
{
    private static readonly string[] ReloadExtensions = [".sln", ".slnx", ".csproj", ".vbproj", ".fsproj", ".props", ".targets"];

    /// <summary>Whether the batch touches project structure, which only a full reload reflects correctly.</summary>
    public static bool NeedsReload(FileChanges changes) =>
        changes.Changed.Concat(changes.Removed)
            .Any(path => ReloadExtensions.Contains(Path.GetExtension(path), StringComparer.OrdinalIgnoreCase));

    public static async Task<Solution> ApplyAsync(Solution solution, FileChanges changes, CancellationToken cancellationToken)
    {
        foreach (var path in changes.Removed.Select(Path.GetFullPath))
        {
            var removed = solution.GetDocumentIdsWithFilePath(path);
            // A folder renamed or moved away is reported alone, not file by file: its documents go with it.
            solution = solution.RemoveDocuments(removed.IsEmpty ? DocumentsUnder(solution, path) : removed);
        }
        foreach (var path in changes.Changed.Select(Path.GetFullPath))
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (!path.EndsWith(".cs", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }
            var text = await ReadAsync(path, cancellationToken);
            var existing = solution.GetDocumentIdsWithFilePath(path).Where(id => solution.GetDocument(id) is not null).ToList();
            if (text is null)
            {
                // Changed, then deleted before we got to it.
                solution = solution.RemoveDocuments([.. existing]);
            }
            else if (existing.Count > 0)
            {
                foreach (var id in existing)
                {
                    // A file told of without a change in its text (a touch, a question about the files as they
                    // are) keeps its document, and with it every compilation built on it.
                    if (!(await solution.GetDocument(id)!.GetTextAsync(cancellationToken)).ContentEquals(text))
                    {
                        solution = solution.WithDocumentText(id, text, PreservationMode.PreserveIdentity);
                    }
                }
            }
            else
            {
                solution = AddToOwningProjects(solution, path, text);
            }
        }
        return solution;
    }

    /// <summary>
    /// A new file belongs to the project whose folder is its deepest ancestor (every target framework of it),
    /// unless it sits in that project's build output.
    /// </summary>
    private static Solution AddToOwningProjects(Solution solution, string path, SourceText text)
    {
        var owners = solution.Projects
            .Where(p => p.FilePath is not null && p.Language == LanguageNames.CSharp)
            .Select(p => (Project: p, Folder: Path.GetDirectoryName(p.FilePath)!))
            .Where(p => IsUnder(path, p.Folder))
            .GroupBy(p => p.Folder.Length)
            .OrderByDescending(g => g.Key)
            .FirstOrDefault();
        if (owners is null)
        {
            Log.Info($"{path} belongs to no project; ignored");
            return solution;
        }
        foreach (var (project, folder) in owners)
        {
            var relative = Path.GetRelativePath(folder, Path.GetDirectoryName(path)!);
            var folders = relative == "." ? [] : relative.Split(Path.DirectorySeparatorChar);
            if (folders.Length > 0 && (folders[0].Equals("bin", StringComparison.OrdinalIgnoreCase) || folders[0].Equals("obj", StringComparison.OrdinalIgnoreCase)))
            {
                continue;
            }
            var id = DocumentId.CreateNewId(project.Id, path);
            solution = solution.AddDocument(id, Path.GetFileName(path), text, folders, path);
        }
        return solution;
    }

    private static ImmutableArray<DocumentId> DocumentsUnder(Solution solution, string folder) =>
        [.. solution.Projects.SelectMany(p => p.Documents).Where(d => d.FilePath is not null && IsUnder(d.FilePath, folder)).Select(d => d.Id)];

    private static bool IsUnder(string path, string folder) =>
        path.StartsWith(folder.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar, StringComparison.Ordinal);

    /// <summary>The file's text with its encoding detected, or null when it no longer exists.</summary>
    private static async Task<SourceText?> ReadAsync(string path, CancellationToken cancellationToken)
    {
        try
        {
            // Read fully first so the file is not held open while Roslyn decodes it.
            var bytes = await File.ReadAllBytesAsync(path, cancellationToken);
            using var stream = new MemoryStream(bytes, writable: false);
            return SourceText.From(stream);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }
}
