using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Features.Graph;

/// <summary>
/// The project graph, one entry per project file (its target frameworks together): what it is, what it names
/// itself (project references and packages, from what restore wrote; the project file's own references when
/// restore wrote nothing, a cycle among them reported), its analyzers and source generators, and the projects it depends on
/// and that depend on it, transitively. Optionally, the references no code names (<see cref="UnusedReferences"/>).
/// </summary>
public static class ProjectGraphHandler
{
    public static async Task<ProjectGraph> HandleAsync(Solution solution, ProjectGraphRequest request, CancellationToken cancellationToken)
    {
        var byFile = solution.Projects.Where(p => p.FilePath is not null)
            .GroupBy(p => p.FilePath!, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.OrderBy(p => p.Name, StringComparer.Ordinal).ToList(), StringComparer.Ordinal);
        var wanted = request.Project is { } name ? ProjectLookup.Find(solution, name).Select(p => p.FilePath!).ToHashSet(StringComparer.Ordinal) : byFile.Keys.ToHashSet(StringComparer.Ordinal);
        var graph = solution.GetProjectDependencyGraph();
        var warnings = new List<string>();
        var projects = new List<GraphProject>();
        var unused = new List<UnusedReference>();
        var assetsOf = byFile.Keys.ToDictionary(file => file, RestoreAssets.Read, StringComparer.Ordinal);
        var named = assetsOf.ToDictionary(a => a.Key, a => a.Value?.ProjectReferences ?? ProjectReferenceItems.Named(a.Key), StringComparer.Ordinal);
        foreach (var cycle in ProjectCycles.Of(named))
        {
            warnings.Add($"The project references form a cycle, which MSBuild refuses to restore or build: {string.Join(" -> ", cycle.Select(Path.GetFileName))}");
        }
        foreach (var (file, views) in byFile.Where(p => wanted.Contains(p.Key)).OrderBy(p => p.Key, StringComparer.Ordinal))
        {
            var assets = assetsOf[file];
            if (assets is null)
            {
                warnings.Add($"{Path.GetFileName(file)} has no restore output (obj/project.assets.json): its project references are read from the project file, its packages are unknown");
            }
            var referenced = named[file];
            var compilation = await views[0].GetCompilationAsync(cancellationToken);
            projects.Add(new GraphProject(
                Path.GetFileNameWithoutExtension(file),
                file,
                views[0].AssemblyName,
                TargetFrameworks.Of(solution, views[0]).ToValueList(),
                OutputKind(views[0].CompilationOptions?.OutputKind),
                compilation is not null && TestAttributes.CanDeclareTests(compilation),
                referenced.ToValueList(),
                (assets?.Packages ?? []).ToValueList(),
                Analyzers(views[0], generators: false).ToValueList(),
                Analyzers(views[0], generators: true).ToValueList(),
                FilesOf(solution, views.SelectMany(v => graph.GetProjectsThatThisProjectTransitivelyDependsOn(v.Id))).ToValueList(),
                FilesOf(solution, views.SelectMany(v => graph.GetProjectsThatTransitivelyDependOnThisProject(v.Id))).ToValueList()));
            if (request.Unused)
            {
                unused.AddRange(await UnusedReferences.FindAsync(solution, file, views, referenced, assets, cancellationToken));
            }
        }
        return new ProjectGraph(projects.ToValueList(), unused.ToValueList(), warnings.ToValueList());
    }

    private static List<string> FilesOf(Solution solution, IEnumerable<ProjectId> ids) =>
        [.. ids.Select(id => solution.GetProject(id)?.FilePath).OfType<string>().Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];

    private static string OutputKind(OutputKind? kind) => kind switch
    {
        Microsoft.CodeAnalysis.OutputKind.ConsoleApplication => "exe",
        Microsoft.CodeAnalysis.OutputKind.WindowsApplication => "winexe",
        Microsoft.CodeAnalysis.OutputKind.DynamicallyLinkedLibrary => "library",
        Microsoft.CodeAnalysis.OutputKind.NetModule => "module",
        Microsoft.CodeAnalysis.OutputKind.WindowsRuntimeMetadata => "winmdobj",
        Microsoft.CodeAnalysis.OutputKind.WindowsRuntimeApplication => "appcontainerexe",
        _ => "unknown",
    };

    /// <summary>The analyzer assemblies that report diagnostics in C#, or the generators (<c>Assembly: Type</c>).</summary>
    private static IEnumerable<string> Analyzers(Project project, bool generators) => project.AnalyzerReferences
        .SelectMany(reference => generators
            ? reference.GetGenerators(LanguageNames.CSharp).Select(g => $"{reference.Display}: {GeneratorExtensions.GetGeneratorType(g).Name}")
            : reference.GetAnalyzers(LanguageNames.CSharp).Any() ? [reference.Display ?? reference.Id.ToString()!] : [])
        .Distinct(StringComparer.Ordinal)
        .Order(StringComparer.Ordinal);
}
