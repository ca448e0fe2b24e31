using System.Xml.Linq;

namespace RoslynMcp.Host.Workspace;

/// <summary>The project references a project file names itself, read from its XML without MSBuild.</summary>
public static class ProjectReferenceItems
{
    /// <summary>The <c>ProjectReference</c> items of the file, conditions ignored, as full paths; none when unreadable.</summary>
    public static List<string> Named(string projectFile)
    {
        try
        {
            var folder = Path.GetDirectoryName(projectFile)!;
            return [.. XDocument.Load(projectFile).Descendants()
                .Where(e => e.Name.LocalName == "ProjectReference" && e.Attribute("Include") is not null)
                .Select(e => Path.GetFullPath(Path.Combine(folder, e.Attribute("Include")!.Value.Replace('\\', Path.DirectorySeparatorChar))))
                .Distinct(StringComparer.Ordinal)
                .Order(StringComparer.Ordinal)];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or System.Xml.XmlException)
        {
            return [];
        }
    }
}
