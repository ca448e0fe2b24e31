using System.Xml;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// The target frameworks of a project. MSBuildWorkspace loads a multi-targeted project once per framework,
/// named <c>Lib(net10.0)</c>: those names are the evaluated truth, whatever properties or imports set them.
/// A project loaded once has no such suffix; its frameworks are read from its XML (Roslyn's <c>Project</c>
/// does not expose them).
/// </summary>
public static class TargetFrameworks
{
    public static IReadOnlyList<string> Of(Solution solution, Project project)
    {
        var loaded = InNames(solution.Projects.Where(p => p.FilePath == project.FilePath).Select(p => p.Name));
        return loaded.Count > 0 ? loaded : project.FilePath is null ? [] : Of(project.FilePath);
    }

    /// <summary>The frameworks named by projects of the form <c>Name(framework)</c>, once each, in ordinal order.</summary>
    public static ValueList<string> InNames(IEnumerable<string> projectNames) =>
        projectNames
            .Select(InName)
            .OfType<string>()
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .Order(StringComparer.Ordinal)
            .ToValueList();

    /// <summary>The framework one of <paramref name="project"/>'s projects compiles for: its name's, else its first.</summary>
    public static string Compiled(Solution solution, Project project) =>
        InName(project.Name) ?? Of(solution, project).FirstOrDefault() ?? "";

    /// <summary>The framework in a project name of the form <c>Name(framework)</c>.</summary>
    public static string? InName(string name) =>
        name.EndsWith(')') && name.LastIndexOf('(') is var open and > 0 ? name[(open + 1)..^1] : null;

    private static IReadOnlyList<string> Of(string projectPath)
    {
        var declared = Read(projectPath);
        // Without its own, the project inherits the nearest Directory.Build.props that sets one.
        for (var folder = Path.GetDirectoryName(Path.GetDirectoryName(projectPath) + Path.DirectorySeparatorChar);
             declared.Count == 0 && folder is not null;
             folder = Path.GetDirectoryName(folder))
        {
            var props = Path.Combine(folder, "Directory.Build.props");
            if (File.Exists(props))
            {
                declared = Read(props);
            }
        }
        return declared;
    }

    private static List<string> Read(string path)
    {
        try
        {
            return XDocument.Load(path).Descendants()
                .Where(e => e.Name.LocalName is "TargetFramework" or "TargetFrameworks")
                .SelectMany(e => e.Value.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
                .Distinct(StringComparer.OrdinalIgnoreCase)
                .Order(StringComparer.Ordinal)
                .ToList();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or XmlException)
        {
            return [];
        }
    }
}
