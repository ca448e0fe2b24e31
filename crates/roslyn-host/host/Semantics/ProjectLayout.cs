using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics;

/// <summary>Where files sit in projects: the owning project of a path, the folder of a namespace.</summary>
internal static class ProjectLayout
{
    public static string DirectoryOf(Project project) => Path.GetDirectoryName(project.FilePath!)!;

    /// <summary>The project whose directory holds the path; the deepest one wins.</summary>
    public static Project? OwnerOf(Solution solution, string path) => solution.Projects
        .Where(p => p.FilePath is not null && IsUnder(path, DirectoryOf(p)))
        .OrderByDescending(p => DirectoryOf(p).Length)
        .ThenBy(p => p.Name, StringComparer.Ordinal)
        .FirstOrDefault();

    /// <summary>True when the path lies in the project's directory (not linked into it from elsewhere).</summary>
    public static bool Holds(Project project, string path) => IsUnder(path, DirectoryOf(project));

    /// <summary>The folders of a document path relative to its project, as Roslyn records them.</summary>
    public static IReadOnlyList<string> FoldersOf(Project project, string path)
    {
        var relative = Path.GetRelativePath(DirectoryOf(project), Path.GetDirectoryName(path)!);
        return relative == "." ? [] : relative.Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries);
    }

    /// <summary>
    /// The folder a namespace maps to: the project directory plus the segments after the project's root
    /// namespace (its assembly name without one), or all segments when the namespace is not under it.
    /// </summary>
    public static string FolderFor(Project project, string ns)
    {
        var root = string.IsNullOrEmpty(project.DefaultNamespace) ? project.AssemblyName : project.DefaultNamespace;
        var rest = ns == root ? "" : ns.StartsWith(root + ".", StringComparison.Ordinal) ? ns[(root.Length + 1)..] : ns;
        return Path.Combine([DirectoryOf(project), .. rest.Split('.', StringSplitOptions.RemoveEmptyEntries)]);
    }

    /// <summary>True when the path exists as a document of the solution or as a file on disk.</summary>
    public static bool Exists(Solution solution, string path) =>
        !solution.GetDocumentIdsWithFilePath(path).IsEmpty || File.Exists(path);

    private static bool IsUnder(string path, string directory) =>
        path.StartsWith(Path.TrimEndingDirectorySeparator(directory) + Path.DirectorySeparatorChar, StringComparison.Ordinal);
}
