using System.Xml.Linq;

namespace RoslynMcp.Host.Features.Graph;

/// <summary>
/// The project references a project file names itself, read from its XML when restore wrote nothing (MSBuild
/// refuses to restore a cycle, and Roslyn drops the reference that closes one), and the cycles among them.
/// </summary>
internal static class ProjectCycles
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

    /// <summary>Each cycle of the references (by project file), once, as the files it passes through back to the first.</summary>
    public static List<List<string>> Of(IReadOnlyDictionary<string, List<string>> references)
    {
        var cycles = new List<List<string>>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var start in references.Keys.Order(StringComparer.Ordinal))
        {
            var path = new List<string>();
            Walk(start);

            void Walk(string at)
            {
                if (path.IndexOf(at) is var back and >= 0)
                {
                    var cycle = path[back..];
                    // A cycle is reported from its least path, once.
                    if (cycle.Min(StringComparer.Ordinal) == cycle[0] && seen.Add(string.Join('|', cycle)))
                    {
                        cycles.Add([.. cycle, at]);
                    }
                    return;
                }
                path.Add(at);
                foreach (var next in references.GetValueOrDefault(at) ?? [])
                {
                    Walk(next);
                }
                path.RemoveAt(path.Count - 1);
            }
        }
        return cycles;
    }
}
