using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.TestDiscovery;

/// <summary>
/// The tests a change reaches: from the changed symbols, up the solution's uses (<see cref="ReachGraph"/>) to
/// the test methods, each with the shortest chain that reached it. Static: what reflection, a DI container or a
/// string names is invisible to it (but for the data sources a test's attributes name).
/// </summary>
public static class FindTestsHandler
{
    public static async Task<FoundTests> HandleAsync(Solution solution, FindTestsRequest request, CancellationToken cancellationToken)
    {
        var graph = await ReachGraph.OfAsync(solution, cancellationToken);
        var projects = Wanted(graph, request.Project);
        List<ISymbol> changed;
        List<(string Test, List<string> Chain)> reached;
        if (request.Origin is ChangeOrigin.Tests { Value: var names })
        {
            changed = [];
            reached = Named(graph, names);
        }
        else
        {
            changed = await ChangedSymbols.OfAsync(solution, request.Origin, cancellationToken);
            reached = Reach(graph, changed.Select(DocumentReach.KeyOf));
        }

        var tests = new List<FoundTest>();
        foreach (var (key, chain) in reached)
        {
            foreach (var declared in graph.Tests[key].Where(t => projects.ContainsKey(t.ProjectPath)))
            {
                if (await MethodAsync(solution, declared, cancellationToken) is not { } method)
                {
                    continue;
                }
                var project = projects[declared.ProjectPath];
                tests.Add(new FoundTest(
                    await SymbolFormat.RefAsync(method, cancellationToken),
                    declared.Fact.FullyQualifiedName,
                    project.Name,
                    project.FilePath,
                    declared.Fact.Framework,
                    ReachGraph.FrameworksOf(solution, project).ToValueList(),
                    chain.Select(k => graph.Displays.GetValueOrDefault(k, k)).ToValueList()));
            }
        }
        var changedRefs = new List<SymbolRef>();
        foreach (var symbol in changed)
        {
            changedRefs.Add(await SymbolFormat.RefAsync(symbol, cancellationToken));
        }
        return new FoundTests(
            changedRefs.OrderBy(s => s.Symbol.Display, StringComparer.Ordinal).ThenBy(s => s.Symbol.Key, StringComparer.Ordinal).ToValueList(),
            tests.OrderBy(t => t.Project, StringComparer.Ordinal).ThenBy(t => t.FullyQualifiedName, StringComparer.Ordinal).ToValueList(),
            projects.Values
                .Select(p => new TestProject(p.Name, p.FilePath, p.Frameworks.ToValueList(), ReachGraph.FrameworksOf(solution, p).ToValueList(), (uint)p.Keys.Count))
                .OrderBy(p => p.Name, StringComparer.Ordinal)
                .ThenBy(p => p.FilePath, StringComparer.Ordinal)
                .ToValueList());
    }

    /// <summary>The test projects asked about: all, or the one named (by name, file name or path).</summary>
    private static Dictionary<string, TestProjectFacts> Wanted(ReachGraph graph, string? wanted)
    {
        if (wanted is null)
        {
            return graph.TestProjects.ToDictionary(StringComparer.Ordinal);
        }
        var path = Path.IsPathFullyQualified(wanted) ? Path.GetFullPath(wanted) : null;
        var match = graph.TestProjects.Values.Where(p => p.Name == wanted || p.FilePath == path).ToList();
        if (match.Count > 0)
        {
            return match.ToDictionary(p => p.FilePath, StringComparer.Ordinal);
        }
        var testProjects = graph.TestProjects.Values.Select(p => p.Name).ToList();
        throw HostErrorException.Create(
            ErrorCode.NotATestProject,
            $"'{wanted}' is not a test project of the loaded solution: no method of it is a test that xunit, NUnit, MSTest or TUnit runs",
            new JsonObject { ["project"] = wanted, ["testProjects"] = new JsonArray([.. testProjects.Select(n => JsonValue.Create(n))]) },
            testProjects.Count > 0 ? $"Pass one of the test projects: {string.Join(", ", testProjects)}" : "The solution declares no test");
    }

    /// <summary>The tests named, each reached by itself; names of no test are left out (the caller tells them).</summary>
    private static List<(string Test, List<string> Chain)> Named(ReachGraph graph, IReadOnlyList<string> names)
    {
        var wanted = names.ToHashSet(StringComparer.Ordinal);
        return graph.Tests
            .Where(t => t.Value.Any(d => wanted.Contains(d.Fact.FullyQualifiedName)))
            .Select(t => (t.Key, new List<string> { t.Key }))
            .ToList();
    }

    /// <summary>Breadth first up the uses from the changed nodes: each test reached with its shortest chain, the changed node first.</summary>
    private static List<(string Test, List<string> Chain)> Reach(ReachGraph graph, IEnumerable<string> starts)
    {
        var cameFrom = new Dictionary<string, string?>(StringComparer.Ordinal);
        var queue = new Queue<string>();
        foreach (var start in starts)
        {
            if (cameFrom.TryAdd(start, null))
            {
                queue.Enqueue(start);
            }
        }
        var reached = new List<(string, List<string>)>();
        while (queue.Count > 0)
        {
            var node = queue.Dequeue();
            if (graph.Tests.ContainsKey(node))
            {
                var chain = new List<string>();
                for (string? step = node; step is not null; step = cameFrom[step])
                {
                    chain.Add(step);
                }
                chain.Reverse();
                reached.Add((node, chain));
            }
            foreach (var user in graph.UsedBy.GetValueOrDefault(node) ?? [])
            {
                if (cameFrom.TryAdd(user, node))
                {
                    queue.Enqueue(user);
                }
            }
        }
        return reached;
    }

    private static async Task<IMethodSymbol?> MethodAsync(Solution solution, DeclaredTest test, CancellationToken cancellationToken)
    {
        var compilation = solution.GetProject(test.Project) is { } project ? await project.GetCompilationAsync(cancellationToken) : null;
        return compilation is null ? null : DocumentationCommentId.GetFirstSymbolForDeclarationId(test.Fact.Method, compilation) as IMethodSymbol;
    }
}
