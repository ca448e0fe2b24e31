using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Features.TestDiscovery;

/// <summary>A test method of a project file (every target framework of it).</summary>
public sealed record DeclaredTest(TestMethodFact Fact, string ProjectPath, ProjectId Project);

/// <summary>A project file declaring tests, over its target frameworks.</summary>
public sealed record TestProjectFacts(string Name, string FilePath, ProjectId Project, SortedSet<TestFramework> Frameworks, SortedSet<string> Keys);

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
        var documents = await DocumentsToWalkAsync(solution, cancellationToken);
        var versions = new ConcurrentDictionary<ProjectId, Task<VersionStamp>>();
        var names = new ConcurrentDictionary<ProjectId, Task<IReadOnlySet<string>>>();
        var reaches = new DocumentReach[documents.Count];
        await Parallel.ForEachAsync(
            Enumerable.Range(0, documents.Count),
            new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount, CancellationToken = cancellationToken },
            async (index, ct) =>
            {
                var project = documents[index].Project;
                var version = await versions.GetOrAdd(project.Id, _ => project.GetDependentSemanticVersionAsync(ct));
                reaches[index] = await DocumentReach.OfAsync(
                    documents[index], version, () => names.GetOrAdd(project.Id, _ => SourceNames.VisibleFromAsync(project, ct)), ct);
            });
        var graph = new ReachGraph();
        for (var index = 0; index < documents.Count; index++)
        {
            graph.Add(documents[index].Project, reaches[index]);
        }
        return graph;
    }

    /// <summary>
    /// The documents a change can reach a test through: those of the projects that can declare tests (they
    /// reference a test framework) and of the projects they reference, for no code elsewhere can use theirs;
    /// one document per way the target frameworks see a file (<see cref="PreprocessorViews"/>), since a file
    /// without <c>#if</c> binds alike in each.
    /// </summary>
    private static async Task<List<Document>> DocumentsToWalkAsync(Solution solution, CancellationToken cancellationToken)
    {
        var wanted = new HashSet<ProjectId>();
        var pending = new Stack<ProjectId>();
        foreach (var project in solution.Projects.Where(p => p.Language == LanguageNames.CSharp))
        {
            var compilation = await project.GetCompilationAsync(cancellationToken);
            if (compilation is not null && TestAttributes.CanDeclareTests(compilation))
            {
                pending.Push(project.Id);
            }
        }
        while (pending.TryPop(out var id))
        {
            if (wanted.Add(id) && solution.GetProject(id) is { } project)
            {
                foreach (var reference in project.ProjectReferences)
                {
                    pending.Push(reference.ProjectId);
                }
            }
        }
        var documents = solution.Projects
            .Where(p => wanted.Contains(p.Id) && p.Language == LanguageNames.CSharp)
            .OrderBy(p => p.Name, StringComparer.Ordinal)
            .SelectMany(p => p.Documents);
        return await PreprocessorViews.OfEachFileAsync(documents, cancellationToken);
    }

    private void Add(Project project, DocumentReach reach)
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
                Path.GetFileNameWithoutExtension(path), path, project.Id, [], new(StringComparer.Ordinal));
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
    public static IReadOnlyList<string> FrameworksOf(Solution solution, TestProjectFacts project) =>
        TargetFrameworks.InNames(solution.Projects.Where(p => p.FilePath == project.FilePath).Select(p => p.Name));
}
