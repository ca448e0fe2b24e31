using System.Text;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Handlers.Plans;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Handlers.Delete;

/// <summary>
/// A project file changes only where it lists a deleted file itself: a one-line <c>&lt;Compile Include="..." /&gt;</c>
/// naming it (relative to the project, either slash) loses that line. Files the SDK includes by default need no edit.
/// </summary>
internal static class ProjectFileEntries
{
    public static async Task<List<FileEdit>> WithoutAsync(Solution solution, IReadOnlyList<string> deleted, CancellationToken cancellationToken)
    {
        var edits = new List<FileEdit>();
        var projects = deleted.SelectMany(path => solution.GetDocumentIdsWithFilePath(path))
            .Select(id => solution.GetProject(id.ProjectId)?.FilePath)
            .OfType<string>()
            .Distinct(StringComparer.Ordinal);
        foreach (var projectFile in projects.Where(File.Exists))
        {
            var text = await File.ReadAllTextAsync(projectFile, cancellationToken);
            var folder = Path.GetDirectoryName(projectFile)!;
            var names = deleted.Select(p => Path.GetRelativePath(folder, p)).SelectMany(r => new[] { r.Replace('\\', '/'), r.Replace('/', '\\') }).ToHashSet(StringComparer.Ordinal);
            var kept = new StringBuilder();
            var removed = false;
            foreach (var line in Lines(text))
            {
                if (line.Contains("<Compile ", StringComparison.Ordinal) && line.TrimEnd().EndsWith("/>", StringComparison.Ordinal)
                    && names.Any(n => line.Contains($"Include=\"{n}\"", StringComparison.Ordinal)))
                {
                    removed = true;
                    continue;
                }
                kept.Append(line);
            }
            if (removed)
            {
                edits.Add(new FileEdit(projectFile, EditKind.Modify, TextHash.Sha256(text), kept.ToString(), "Remove the deleted file's Compile entry"));
            }
        }
        return edits;
    }

    /// <summary>The text's lines, each with its line break.</summary>
    private static IEnumerable<string> Lines(string text)
    {
        var start = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n')
            {
                yield return text[start..(i + 1)];
                start = i + 1;
            }
        }
        if (start < text.Length)
        {
            yield return text[start..];
        }
    }
}
