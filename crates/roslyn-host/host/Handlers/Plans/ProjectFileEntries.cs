using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Handlers.Plans;

/// <summary>
/// A project file changes only where it lists a deleted or renamed file itself: a one-line
/// <c>&lt;Compile Include="..." /&gt;</c> naming it (relative to the project, either slash) loses that line, or names
/// the new file. Files the SDK includes by default need no edit.
/// </summary>
internal static class ProjectFileEntries
{
    public static Task<List<FileEdit>> WithoutAsync(Solution solution, IReadOnlyList<string> deleted, CancellationToken cancellationToken) =>
        EditedAsync(solution, deleted.ToDictionary(p => p, _ => (string?)null, StringComparer.Ordinal), cancellationToken);

    /// <param name="files">Each file listed, and its new path (null: deleted).</param>
    public static async Task<List<FileEdit>> EditedAsync(Solution solution, IReadOnlyDictionary<string, string?> files, CancellationToken cancellationToken)
    {
        var edits = new List<FileEdit>();
        var projects = files.Keys.SelectMany(path => solution.GetDocumentIdsWithFilePath(path))
            .Select(id => solution.GetProject(id.ProjectId)?.FilePath)
            .OfType<string>()
            .Distinct(StringComparer.Ordinal);
        foreach (var projectFile in projects.Where(File.Exists))
        {
            var text = await File.ReadAllTextAsync(projectFile, cancellationToken);
            var folder = Path.GetDirectoryName(projectFile)!;
            var kept = new StringBuilder();
            var changed = false;
            foreach (var line in SourceText.From(text).Lines.Select(l => text[l.SpanIncludingLineBreak.Start..l.SpanIncludingLineBreak.End]))
            {
                var entry = line.Contains("<Compile ", StringComparison.Ordinal) && line.TrimEnd().EndsWith("/>", StringComparison.Ordinal)
                    ? files.Select(f => (Listed: Listed(line, folder, f.Key), Target: f.Value)).FirstOrDefault(f => f.Listed is not null)
                    : default;
                if (entry.Listed is not { } listed)
                {
                    kept.Append(line);
                    continue;
                }
                changed = true;
                if (entry.Target is { } target)
                {
                    var renamed = Path.GetRelativePath(folder, target);
                    kept.Append(line.Replace($"Include=\"{listed}\"", $"Include=\"{(listed.Contains('\\') ? renamed.Replace('/', '\\') : renamed.Replace('\\', '/'))}\"", StringComparison.Ordinal));
                }
            }
            if (changed)
            {
                edits.Add(new FileEdit(projectFile, EditKind.Modify, TextHash.Sha256(text), kept.ToString(), "Update the Compile entries of the files it lists"));
            }
        }
        return edits;
    }

    /// <summary>How the line's Include names the file (either slash), or null when it names another.</summary>
    private static string? Listed(string line, string folder, string path)
    {
        var relative = Path.GetRelativePath(folder, path);
        return new[] { relative.Replace('\\', '/'), relative.Replace('/', '\\') }
            .FirstOrDefault(r => line.Contains($"Include=\"{r}\"", StringComparison.Ordinal));
    }
}
