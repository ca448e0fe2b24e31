using System.Xml;
using System.Xml.Linq;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// The target frameworks a project declares, read from its XML: Roslyn's <c>Project</c> does not expose them,
/// and a plain read is enough for the summary.
/// </summary>
public static class TargetFrameworks
{
    public static IReadOnlyList<string> Of(string projectPath)
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
