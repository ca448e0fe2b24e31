using System.Text;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// A project file changes only where it lists files itself: a one-line <c>&lt;Compile Include="..." /&gt;</c>
/// naming a deleted or renamed file (relative to the project, either slash) loses that line, or names the new
/// file; a project that lists its files gets a line for a file moved into it. Files the SDK includes by default
/// need no edit.
/// </summary>
internal static partial class ProjectFileEntries
{
    public static Task<List<FileEdit>> WithoutAsync(Solution solution, IReadOnlyList<string> deleted, CancellationToken cancellationToken) =>
        EditedAsync(solution, deleted.ToDictionary(p => p, _ => (string?)null, StringComparer.Ordinal), cancellationToken);

    /// <param name="files">Each file listed, and its new path (null: deleted).</param>
    public static async Task<List<FileEdit>> EditedAsync(Solution solution, IReadOnlyDictionary<string, string?> files, CancellationToken cancellationToken)
    {
        var edits = new List<FileEdit>();
        foreach (var projectFile in ProjectFilesOf(solution, files.Keys).Where(File.Exists))
        {
            var text = await File.ReadAllTextAsync(projectFile, cancellationToken);
            if (Edited(text, projectFile, files) is { } edited)
            {
                edits.Add(new FileEdit(projectFile, EditKind.Modify, TextHash.Sha256(text), edited, "Update the Compile entries of the files it lists"));
            }
        }
        return edits;
    }

    /// <summary>The project files of the projects that compile these files.</summary>
    public static IEnumerable<string> ProjectFilesOf(Solution solution, IEnumerable<string> files) => files
        .SelectMany(path => solution.GetDocumentIdsWithFilePath(path))
        .Select(id => solution.GetProject(id.ProjectId)?.FilePath)
        .OfType<string>()
        .Distinct(StringComparer.Ordinal);

    /// <summary>The project file's text with its entries of <paramref name="files"/> renamed or removed; null when it lists none.</summary>
    public static string? Edited(string text, string projectFile, IReadOnlyDictionary<string, string?> files)
    {
        var folder = Path.GetDirectoryName(projectFile)!;
        var backslash = Backslashes(text);
        var kept = new StringBuilder();
        var changed = false;
        foreach (var line in Lines(text))
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
                kept.Append(line.Replace($"Include=\"{listed}\"", $"Include=\"{Relative(folder, target, backslash)}\"", StringComparison.Ordinal));
            }
        }
        return changed ? kept.ToString() : null;
    }

    /// <summary>Whether the project compiles only the C# files it lists (default items off, or no SDK).</summary>
    public static bool ListsFiles(string text) =>
        !text.Contains("Sdk=\"", StringComparison.Ordinal) || DefaultItemsOff().IsMatch(text);

    /// <summary>
    /// The text with one <c>&lt;{item} Include="..." /&gt;</c> line per path (relative, in the slashes the file
    /// already uses, else backslashes as MSBuild writes them): after the last line of that item, else in a new
    /// item group before <c>&lt;/Project&gt;</c>.
    /// </summary>
    public static string WithItems(string text, string projectFile, string item, IReadOnlyList<string> paths)
    {
        if (paths.Count == 0)
        {
            return text;
        }
        var folder = Path.GetDirectoryName(projectFile)!;
        var backslash = Backslashes(text);
        var lines = Lines(text).ToList();
        var lineBreak = text.Contains("\r\n", StringComparison.Ordinal) ? "\r\n" : "\n";
        var last = lines.FindLastIndex(l => l.TrimStart().StartsWith($"<{item} Include=", StringComparison.Ordinal));
        if (last >= 0)
        {
            var indent = lines[last][..(lines[last].Length - lines[last].TrimStart().Length)];
            lines.InsertRange(last + 1, paths.Select(p => $"{indent}<{item} Include=\"{Relative(folder, p, backslash)}\" />{lineBreak}"));
            return string.Concat(lines);
        }
        var close = lines.FindLastIndex(l => l.TrimStart().StartsWith("</Project>", StringComparison.Ordinal));
        var unit = lines.Select(l => l[..(l.Length - l.TrimStart().Length)]).FirstOrDefault(i => i.Length > 0 && i.Trim().Length == 0) ?? "  ";
        string[] group =
        [
            $"{unit}<ItemGroup>{lineBreak}",
            .. paths.Select(p => $"{unit}{unit}<{item} Include=\"{Relative(folder, p, backslash)}\" />{lineBreak}"),
            $"{unit}</ItemGroup>{lineBreak}",
        ];
        lines.InsertRange(close < 0 ? lines.Count : close, group);
        return string.Concat(lines);
    }

    /// <summary>Whether paths are written with backslashes, as MSBuild does: unless the file's own use forward slashes.</summary>
    private static bool Backslashes(string text) => text.Contains('\\') || !ForwardSlashInclude().IsMatch(text);

    private static IEnumerable<string> Lines(string text) =>
        SourceText.From(text).Lines.Select(l => text[l.SpanIncludingLineBreak.Start..l.SpanIncludingLineBreak.End]);

    private static string Relative(string folder, string path, bool backslash)
    {
        var relative = Path.GetRelativePath(folder, path);
        return backslash ? relative.Replace('/', '\\') : relative.Replace('\\', '/');
    }

    /// <summary>How the line's Include names the file (either slash), or null when it names another.</summary>
    private static string? Listed(string line, string folder, string path)
    {
        var relative = Path.GetRelativePath(folder, path);
        return new[] { relative.Replace('\\', '/'), relative.Replace('/', '\\') }
            .FirstOrDefault(r => line.Contains($"Include=\"{r}\"", StringComparison.Ordinal));
    }

    [GeneratedRegex("Include=\"[^\"]*/")]
    private static partial Regex ForwardSlashInclude();

    [GeneratedRegex(@"<EnableDefault(Compile)?Items>\s*false\s*</EnableDefault(Compile)?Items>", RegexOptions.IgnoreCase)]
    private static partial Regex DefaultItemsOff();
}
