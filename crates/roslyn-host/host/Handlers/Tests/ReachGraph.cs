using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Handlers.Tests;

/// <summary>A test method of a project file (every target framework of it).</summary>
public sealed record DeclaredTest(TestMethodFact Fact, string ProjectPath, ProjectId Project);

/// <summary>A project file declaring tests, over its target frameworks.</summary>
public sealed record TestProjectFacts(string Name, string FilePath, List<ProjectId> Projects, SortedSet<TestFramework> Frameworks, SortedSet<string> Keys);

/// <summary>
/// The whole solution's uses, reversed (who uses each node), in every target framework, with its tests; one per
/// snapshot, built from <see cref="DocumentReach"/>es kept across snapshots.
/// </summary>
public sealed class ReachGraph
{
    public Dictionary<string, HashSet<string>> UsedBy { get; } = new(StringComparer.Ordinal);
    public Dictionary<string, string> Displays { get; } = new(StringComparer.Ordinal);
    /// <summary>Tests by node, one per project file declaring it.</summary>
    public Dictionary<string, List<DeclaredTest>> Tests { get; } = new(StringComparer.Ordinal);
    /// <summary>By project file path.</summary>
    public SortedDictionary<string, TestProjectFacts> TestProjects { get; } = new(StringComparer.Ordinal);

    private static readonly ConditionalWeakTable<Solution, Task<ReachGraph>> Built = new();

    public static Task<ReachGraph> OfAsync(Solution solution, CancellationToken cancellationToken)
    {
        lock (Built)
        {
            if (Built.TryGetValue(solution, out var built) && !built.IsCanceled && !built.IsFaulted)
            {
                return built;
            }
            // Not the caller's token: a cancelled first caller must not cancel the one waiting on the same build.
            var build = Task.Run(() => BuildAsync(solution, CancellationToken.None), CancellationToken.None);
            Built.AddOrUpdate(solution, build);
            return build.WaitAsync(cancellationToken);
        }
    }

    private static async Task<ReachGraph> BuildAsync(Solution solution, CancellationToken cancellationToken)
    {
        var projects = solution.Projects.Where(p => p.Language == LanguageNames.CSharp).ToList();
        var reaches = new List<(Project Project, DocumentReach Reach)>[projects.Count];
        await Parallel.ForEachAsync(
            Enumerable.Range(0, projects.Count),
            new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount, CancellationToken = cancellationToken },
            async (index, ct) =>
            {
                var project = projects[index];
                var version = await project.GetDependentSemanticVersionAsync(ct);
                Task<IReadOnlySet<string>>? names = null;
                var found = new List<(Project, DocumentReach)>();
                foreach (var document in project.Documents)
                {
                    found.Add((project, await DocumentReach.OfAsync(document, version, () => names ??= SourceNames.VisibleFromAsync(project, ct), ct)));
                }
                reaches[index] = found;
            });
        var graph = new ReachGraph();
        foreach (var (project, reach) in reaches.SelectMany(r => r))
        {
            graph.Add(solution, project, reach);
        }
        return graph;
    }

    private void Add(Solution solution, Project project, DocumentReach reach)
    {
        foreach (var (from, to) in reach.Edges)
        {
            if (from != to)
            {
                (UsedBy.TryGetValue(to, out var users) ? users : UsedBy[to] = new(StringComparer.Ordinal)).Add(from);
            }
        }
        foreach (var (key, display) in reach.Displays)
        {
            Displays.TryAdd(key, display);
        }
        if (reach.Tests.Count == 0 || project.FilePath is not { } path)
        {
            return;
        }
        if (!TestProjects.TryGetValue(path, out var facts))
        {
            TestProjects[path] = facts = new TestProjectFacts(
                Path.GetFileNameWithoutExtension(path), path, [], [], new(StringComparer.Ordinal));
        }
        if (!facts.Projects.Contains(project.Id))
        {
            facts.Projects.Add(project.Id);
        }
        foreach (var test in reach.Tests)
        {
            facts.Frameworks.Add(test.Framework);
            if (facts.Keys.Add(test.Key))
            {
                (Tests.TryGetValue(test.Key, out var declared) ? declared : Tests[test.Key] = []).Add(new DeclaredTest(test, path, project.Id));
            }
        }
    }

    /// <summary>The target frameworks of a test project, sorted; empty when it has one.</summary>
    public IReadOnlyList<string> FrameworksOf(Solution solution, TestProjectFacts project) =>
        TargetFrameworks.InNames(project.Projects.Select(id => solution.GetProject(id)?.Name).OfType<string>());
}
