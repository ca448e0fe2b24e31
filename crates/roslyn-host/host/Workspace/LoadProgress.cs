using Microsoft.CodeAnalysis.MSBuild;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// How far a load under way got: the distinct project files MSBuildWorkspace has built (its design-time build,
/// the slow step of a project, once per target framework). A ping reads it while the load runs.
/// </summary>
public sealed class LoadProgress : IProgress<ProjectLoadProgress>
{
    private readonly HashSet<string> built = new(StringComparer.Ordinal);

    public uint ProjectsLoaded
    {
        get
        {
            lock (built)
            {
                return (uint)built.Count;
            }
        }
    }

    public void Report(ProjectLoadProgress value)
    {
        if (value.Operation == ProjectLoadOperation.Build)
        {
            lock (built)
            {
                built.Add(value.FilePath);
            }
        }
    }
}
