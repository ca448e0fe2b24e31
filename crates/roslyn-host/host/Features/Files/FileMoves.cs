using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Files;

/// <summary>One C# file, where it goes, and the project file that compiles it now.</summary>
internal sealed record FileMove(string From, string To, string Project);

/// <summary>
/// What a move_files request moves, checked before anything is planned: the C# documents named (or under the
/// folder, its subfolders kept), each to a free path under the destination, all into one project's folder and
/// out of bin and obj; a folder that is (or holds) a project's folder is refused, a file that several project
/// files compile too.
/// </summary>
internal static class FileMoves
{
    public static (List<FileMove> Moves, List<Project> Targets, List<string> Warnings) Resolve(Solution solution, MoveFilesRequest request)
    {
        var destination = Absolute(request.Destination, "destination", ErrorCode.InvalidTargetPath);
        var warnings = new List<string>();
        List<FileMove> moves;
        if (request.Folder is { } raw)
        {
            var folder = Absolute(raw, "folder", ErrorCode.InvalidSourcePath);
            moves = FromFolder(solution, folder, destination, warnings);
        }
        else
        {
            moves = [.. request.Files.Select(f => PositionResolver.FindDocument(solution, f).FilePath!)
                .Distinct(StringComparer.Ordinal)
                .Select(from => Move(solution, from, Path.Combine(destination, Path.GetFileName(from))))];
            if (moves.Count == 0)
            {
                throw Invalid(ErrorCode.MissingRequiredParam, "files", "Neither files nor folder names anything to move", "Pass files, or a folder");
            }
        }
        moves = [.. moves.Where(m => m.From != m.To).OrderBy(m => m.From, StringComparer.Ordinal)];
        if (moves.Count == 0)
        {
            throw HostErrorException.Create(
                ErrorCode.SameLocation,
                $"Every file is already in {destination}",
                new JsonObject { ["destination"] = destination },
                "Choose another destination folder");
        }
        if (moves.GroupBy(m => m.To, StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1) is { } clash)
        {
            throw Invalid(ErrorCode.InvalidTargetPath, "files", $"{string.Join(" and ", clash.Select(m => m.From))} would both become {clash.Key}", "Move files of the same name to different folders, or rename one first");
        }
        foreach (var move in moves)
        {
            if (ProjectLayout.Exists(solution, move.To) || Directory.Exists(move.To))
            {
                throw Invalid(ErrorCode.InvalidTargetPath, "destination", $"{move.To} already exists", "Choose a destination where no file has the same name, or rename one of them first");
            }
        }
        return (moves, TargetProjects(solution, moves), warnings);
    }

    /// <summary>The projects (one per target framework) of the one project file whose folder gets every file.</summary>
    private static List<Project> TargetProjects(Solution solution, List<FileMove> moves)
    {
        var owners = moves.Select(m => (m.To, Owner: ProjectLayout.OwnerOf(solution, m.To))).ToList();
        if (owners.FirstOrDefault(o => o.Owner is null) is { To: { } outside, Owner: null })
        {
            throw Invalid(ErrorCode.InvalidTargetPath, "destination", $"{Path.GetDirectoryName(outside)} is not under the folder of any project of the solution, so no project would compile the files", "Choose a folder inside a project's folder");
        }
        var files = owners.Select(o => o.Owner!.FilePath!).Distinct(StringComparer.Ordinal).ToList();
        if (files.Count > 1)
        {
            throw Invalid(ErrorCode.InvalidTargetPath, "destination", $"The files would land in the folders of several projects: {string.Join(", ", files)}", "Move into one project's folder at a time");
        }
        foreach (var (to, owner) in owners)
        {
            if (ProjectLayout.FoldersOf(owner!, to) is [var first, ..] && (first.Equals("bin", StringComparison.OrdinalIgnoreCase) || first.Equals("obj", StringComparison.OrdinalIgnoreCase)))
            {
                throw Invalid(ErrorCode.InvalidTargetPath, "destination", $"{Path.GetDirectoryName(to)} is in the build output of {owner!.Name}, which no project compiles", "Choose a source folder of the project");
            }
        }
        return [.. solution.Projects.Where(p => p.FilePath == files[0]).OrderBy(p => p.Name, StringComparer.Ordinal)];
    }

    private static List<FileMove> FromFolder(Solution solution, string folder, string destination, List<string> warnings)
    {
        if (destination == folder || destination.StartsWith(folder + Path.DirectorySeparatorChar, StringComparison.Ordinal))
        {
            throw Invalid(ErrorCode.InvalidTargetPath, "destination", $"{destination} is {(destination == folder ? "the folder itself" : "inside the folder")}", "Choose a destination outside the folder: the folder's new path");
        }
        if (!Directory.Exists(folder))
        {
            throw Invalid(ErrorCode.SourceFileNotFound, "folder", $"{folder} does not exist", "Pass an existing folder of a project");
        }
        var project = Directory.EnumerateFiles(folder, "*.*proj", SearchOption.AllDirectories).FirstOrDefault();
        if (project is not null || solution.Projects.Any(p => p.FilePath is { } file && Path.GetDirectoryName(file) == folder))
        {
            throw Invalid(ErrorCode.InvalidSourcePath, "folder", $"{folder} holds a project ({project ?? folder}); move_files moves a project's files, not projects", "Move the folders inside the project instead");
        }
        var prefix = folder + Path.DirectorySeparatorChar;
        var documents = solution.Projects.SelectMany(p => p.Documents)
            .Select(d => d.FilePath)
            .OfType<string>()
            .Where(p => p.StartsWith(prefix, StringComparison.Ordinal))
            .ToHashSet(StringComparer.Ordinal);
        if (documents.Count == 0)
        {
            throw Invalid(ErrorCode.InvalidSourcePath, "folder", $"{folder} holds no C# file of the solution", "Pass a folder with source files of a project");
        }
        var left = Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories)
            .Where(f => !documents.Contains(f))
            .Select(f => Path.GetRelativePath(folder, f))
            .Order(StringComparer.Ordinal)
            .ToList();
        if (left.Count > 0)
        {
            warnings.Add($"Left {left.Count} file{(left.Count == 1 ? "" : "s")} that no project compiles as C# in {folder}: {string.Join(", ", left.Take(5))}{(left.Count > 5 ? ", ..." : "")}");
        }
        return [.. documents.Select(from => Move(solution, from, Path.Combine(destination, Path.GetRelativePath(folder, from))))];
    }

    /// <summary>The move of a file that one project file compiles (a linked file, compiled by several, is refused).</summary>
    private static FileMove Move(Solution solution, string from, string to)
    {
        var compiledBy = ProjectFileEntries.ProjectFilesOf(solution, [from]).ToList();
        if (compiledBy.Count > 1)
        {
            throw Invalid(ErrorCode.InvalidSourcePath, "files", $"{from} is compiled by {string.Join(" and ", compiledBy)}", "Move a file one project compiles; a linked file moves with a project file edit by hand");
        }
        return new FileMove(from, to, compiledBy[0]);
    }

    private static string Absolute(string path, string field, ErrorCode code)
    {
        try
        {
            if (Path.IsPathFullyQualified(path))
            {
                return Path.TrimEndingDirectorySeparator(Path.GetFullPath(path));
            }
        }
        catch (ArgumentException)
        {
            // Reported below.
        }
        throw Invalid(code, field, $"{path} is not an absolute path", "Pass an absolute path");
    }

    private static HostErrorException Invalid(ErrorCode code, string field, string message, string suggestion) =>
        HostErrorException.Create(code, message, new JsonObject { ["field"] = field }, suggestion);
}
