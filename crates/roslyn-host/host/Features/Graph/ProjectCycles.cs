namespace RoslynMcp.Host.Features.Graph;

/// <summary>
/// The cycles among the project references project files name themselves (<see cref="Workspace.ProjectReferenceItems"/>),
/// read when restore wrote nothing: MSBuild refuses to restore a cycle, and Roslyn drops the reference that closes one.
/// </summary>
internal static class ProjectCycles
{
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
