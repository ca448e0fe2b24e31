using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.VisualStudio.SolutionPersistence.Serializer;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// Loads a solution's shares of projects (<see cref="LoadPartitions"/>) at once, each by its own
/// MSBuildProjectLoader and BuildHost over a solution filter of the share (so that <c>$(SolutionDir)</c> is the
/// solution's own folder), then joins what they loaded into one solution: a project two loaders loaded (a hub
/// both shares reference) is kept once, and the references to the other copy point to it.
/// </summary>
public static class PartitionedLoad
{
    /// <summary>The project files a .sln or .slnx lists, absolute, in its order; none when it cannot be read.</summary>
    public static async Task<IReadOnlyList<string>> ProjectsOfAsync(string solutionPath, CancellationToken cancellationToken)
    {
        try
        {
            if (SolutionSerializers.GetSerializerByMoniker(solutionPath) is not { } serializer)
            {
                return [];
            }
            var model = await serializer.OpenAsync(solutionPath, cancellationToken);
            var folder = Path.GetDirectoryName(solutionPath)!;
            return [.. model.SolutionProjects
                .Select(p => Path.GetFullPath(Path.Combine(folder, p.FilePath.Replace('\\', '/'))))
                .Distinct(StringComparer.Ordinal)];
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // The plain load reads it again and reports what is wrong with it.
            Log.Warn($"could not list the projects of {solutionPath}: {e.Message}");
            return [];
        }
    }

    /// <summary>
    /// The joined solution; null when a share came back without one of its projects (its filter did not name
    /// them as the solution does), so that the caller loads the solution the plain way instead.
    /// </summary>
    public static async Task<Solution?> LoadAsync(
        JoinedWorkspace workspace, string solutionPath, IReadOnlyList<string> projects, IReadOnlyList<IReadOnlyList<string>> shares,
        IProgress<ProjectLoadProgress> progress, CancellationToken cancellationToken)
    {
        var folder = Directory.CreateTempSubdirectory("roslyn-mcp-load-");
        using var failed = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        try
        {
            var loads = shares.Select((share, index) => Task.Run(async () =>
            {
                try
                {
                    var filter = Path.Combine(folder.FullName, $"share{index}.slnf");
                    await File.WriteAllTextAsync(filter, FilterText(solutionPath, share), failed.Token);
                    return await new MSBuildProjectLoader(workspace).LoadSolutionInfoAsync(filter, progress, cancellationToken: failed.Token);
                }
                catch
                {
                    // The other shares' work is wasted: stop them.
                    failed.Cancel();
                    throw;
                }
            }, failed.Token)).ToArray();
            var loaded = await Task.WhenAll(loads);
            var missing = shares.SelectMany((share, index) => share.Where(p => File.Exists(p) && !loaded[index].Projects.Any(i => i.FilePath == p))).ToList();
            if (missing.Count > 0)
            {
                Log.Warn($"a share of {solutionPath} came back without {missing.Count} of its projects ({missing[0]}, ...)");
                return null;
            }
            return workspace.Open(Join(solutionPath, projects, loaded));
        }
        finally
        {
            try
            {
                folder.Delete(recursive: true);
            }
            catch (IOException)
            {
                // Best effort: a temp folder.
            }
        }
    }

    /// <summary>A solution filter (.slnf) of the share: the solution's absolute path and the share's projects.</summary>
    private static string FilterText(string solutionPath, IReadOnlyList<string> share) =>
        System.Text.Json.JsonSerializer.Serialize(new { solution = new { path = solutionPath, projects = share } });

    /// <summary>
    /// One solution of what the shares loaded: each project (a file and, when multi-targeted, a framework) once, in
    /// the solution's order and then in the order the loaders discovered the rest, with every reference to a copy
    /// turned to the kept one.
    /// </summary>
    internal static SolutionInfo Join(string solutionPath, IReadOnlyList<string> order, IReadOnlyList<SolutionInfo> loaded)
    {
        var kept = new Dictionary<(string?, string), ProjectInfo>();
        var keptIds = new Dictionary<ProjectId, ProjectId>();
        foreach (var project in loaded.SelectMany(s => s.Projects))
        {
            if (kept.TryGetValue((project.FilePath, project.Name), out var first))
            {
                keptIds[project.Id] = first.Id;
            }
            else
            {
                kept[(project.FilePath, project.Name)] = project;
            }
        }
        var rank = order.Select((path, index) => (path, index)).ToDictionary(p => p.path, p => p.index, StringComparer.Ordinal);
        var projects = kept.Values
            .Select((project, index) => (project, index))
            .OrderBy(p => RankOf(p.project))
            .ThenBy(p => p.index)
            .Select(p => p.project.WithProjectReferences(p.project.ProjectReferences.Select(ToKept).Distinct()));
        return SolutionInfo.Create(SolutionId.CreateNewId(debugName: solutionPath), VersionStamp.Default, solutionPath, projects);

        int RankOf(ProjectInfo project) =>
            project.FilePath is { } path && rank.TryGetValue(path, out var index) ? index : int.MaxValue;

        ProjectReference ToKept(ProjectReference reference) =>
            keptIds.TryGetValue(reference.ProjectId, out var id)
                ? new ProjectReference(id, reference.Aliases, reference.EmbedInteropTypes)
                : reference;
    }
}
