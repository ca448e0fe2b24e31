using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics;

/// <summary>Finding the projects a request names: diagnostics and plans cover every target framework of one.</summary>
public static class ProjectLookup
{
    /// <summary>
    /// The projects with this name, with this project file name (<c>Lib</c> for <c>Lib.csproj</c>, whose projects
    /// are <c>Lib(net10.0)</c>, <c>Lib(net9.0)</c>...), or with this absolute project file path: one per target
    /// framework of a multi-targeted project.
    /// </summary>
    public static List<Project> Find(Solution solution, string wanted)
    {
        var path = Path.IsPathFullyQualified(wanted) ? Path.GetFullPath(wanted) : null;
        var projects = solution.Projects
            .Where(p => p.Name == wanted
                || (p.FilePath is { } file && (Path.GetFileNameWithoutExtension(file) == wanted || string.Equals(file, path, StringComparison.Ordinal))))
            .ToList();
        if (projects.Count > 0)
        {
            return projects;
        }
        var available = solution.Projects.Select(p => p.Name).Distinct().Order(StringComparer.Ordinal).ToList();
        throw HostErrorException.Create(
            ErrorCode.ProjectNotFound,
            $"No project of the loaded solution is named or located at '{wanted}'",
            new JsonObject { ["project"] = wanted, ["available"] = new JsonArray([.. available.Select(n => JsonValue.Create(n))]) },
            $"Pass one of the solution's projects by name ({string.Join(", ", available)}) or by absolute project file path");
    }
}
