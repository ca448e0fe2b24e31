using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// The analyzer assemblies a solution's projects take from its own projects (a source generator consumed by
/// <c>ProjectReference OutputItemType="Analyzer"</c>) or from a file that is missing, and what the solution uses
/// of each. On a fresh clone such an assembly is not built: Roslyn represents it as an
/// <see cref="UnresolvedAnalyzerReference"/>, which its search cannot take a checksum of, so every
/// find-references of the solution would fail. The solution leaves such a reference out until the service has
/// built the assembly (<see cref="Staged"/>), and says so in <see cref="Describe"/>.
/// </summary>
public sealed record Generators(ImmutableArray<Generators.Use> Uses, ImmutableDictionary<string, Generators.Staged> Builds)
{
    public static readonly Generators None = new([], ImmutableDictionary<string, Staged>.Empty.WithComparers(StringComparer.Ordinal));

    /// <summary>One analyzer assembly as the consumers name it, the project that builds it and each consumer's reference.</summary>
    public sealed record Use(string Assembly, ProjectId? Producer, string ProducerPath, string Name, ImmutableArray<(ProjectId Consumer, AnalyzerReference Original)> References);

    /// <summary>The service's build of an assembly: a file in a folder of its own, read once.</summary>
    public sealed record Staged(string Built, ulong SourcesReadMs, AnalyzerReference Reference);

    /// <summary>The generator uses of a solution as loaded, before any is left out or replaced.</summary>
    public static ImmutableArray<Use> Discover(Solution solution)
    {
        var producers = new Dictionary<string, Project>(StringComparer.Ordinal);
        foreach (var project in solution.Projects)
        {
            if (project.OutputFilePath is { } output)
            {
                producers.TryAdd(output, project);
            }
        }
        var uses = new SortedDictionary<string, (Project? Producer, List<(ProjectId, AnalyzerReference)> References)>(StringComparer.Ordinal);
        foreach (var project in solution.Projects)
        {
            foreach (var reference in project.AnalyzerReferences)
            {
                if (reference.FullPath is not { } path)
                {
                    continue;
                }
                var producer = producers.GetValueOrDefault(path);
                if (producer is null && !IsMissing(reference))
                {
                    // A package's analyzer: nothing of the solution builds it.
                    continue;
                }
                if (!uses.TryGetValue(path, out var use))
                {
                    uses[path] = use = (producer, []);
                }
                use.References.Add((project.Id, reference));
            }
        }
        return [.. uses.Select(pair =>
        {
            var producerPath = pair.Value.Producer?.FilePath ?? ProjectAbove(pair.Key) ?? "";
            var name = pair.Value.Producer?.Name
                ?? (producerPath.Length > 0 ? Path.GetFileNameWithoutExtension(producerPath) : Path.GetFileName(pair.Key));
            return new Use(pair.Key, pair.Value.Producer?.Id, producerPath, name, [.. pair.Value.References]);
        })];
    }

    /// <summary>
    /// The solution with each use's references as they should be: the service's build where there is one, else
    /// the assembly named where it exists, else none (and what the generator writes is missing). The references
    /// <paramref name="before"/> put in, builds since replaced, are taken out.
    /// </summary>
    public Solution Apply(Solution solution, Generators? before = null)
    {
        foreach (var use in Uses)
        {
            var standIns = new[] { Builds, before?.Builds }
                .Select(builds => builds?.GetValueOrDefault(use.Assembly)?.Reference)
                .OfType<AnalyzerReference>()
                .ToHashSet();
            var wanted = Builds.TryGetValue(use.Assembly, out var staged) && File.Exists(staged.Built) ? staged.Reference : null;
            foreach (var (consumer, original) in use.References)
            {
                if (solution.GetProject(consumer) is not { } project)
                {
                    continue;
                }
                var references = project.AnalyzerReferences.Where(r => r != original && !standIns.Contains(r)).ToList();
                if ((wanted ?? (IsMissing(original) ? null : original)) is { } usable)
                {
                    references.Add(usable);
                }
                if (!references.SequenceEqual(project.AnalyzerReferences))
                {
                    solution = solution.WithProjectAnalyzerReferences(consumer, references);
                }
            }
        }
        return solution;
    }

    /// <summary>These uses with the service's builds of some of them, replacing earlier builds of the same assemblies.</summary>
    public Generators With(IEnumerable<GeneratorBuild> builds)
    {
        var staged = Builds;
        foreach (var build in builds)
        {
            var reference = new AnalyzerFileReference(build.Built, new StagedAnalyzerLoader(Path.GetDirectoryName(build.Built)!));
            staged = staged.SetItem(build.Assembly, new Staged(build.Built, build.SourcesReadMs, reference));
        }
        return this with { Builds = staged };
    }

    /// <summary>What the solution uses of each generator, for the service.</summary>
    public ValueList<GeneratorProject> Describe(Solution solution) => Uses.Select(use =>
    {
        var sourcesChanged = use.Producer is { } producer && solution.GetProject(producer) is { } project ? NewestFile(project) : 0;
        var staged = Builds.GetValueOrDefault(use.Assembly) is { } build && File.Exists(build.Built) ? build : null;
        var state = staged is not null
            ? (sourcesChanged > staged.SourcesReadMs ? GeneratorState.Stale : GeneratorState.Current)
            : !File.Exists(use.Assembly) ? GeneratorState.Missing
            : sourcesChanged > LastWriteMs(use.Assembly) ? GeneratorState.Stale
            : GeneratorState.Current;
        var consumers = use.References
            .Select(r => solution.GetProject(r.Consumer)?.Name)
            .OfType<string>()
            .Select(WithoutFramework)
            .Distinct()
            .Order(StringComparer.Ordinal)
            .ToValueList();
        return new GeneratorProject(use.Name, use.ProducerPath, use.Assembly, consumers, state, staged?.Built ?? "", sourcesChanged);
    }).ToValueList();

    /// <summary>A project's name without the target framework MSBuildWorkspace adds to each of a multi-targeted project's: <c>Refit.Tests(net10.0)</c> is <c>Refit.Tests</c>.</summary>
    private static string WithoutFramework(string name) =>
        name.EndsWith(')') && name.LastIndexOf('(') is > 0 and var open ? name[..open] : name;

    private static bool IsMissing(AnalyzerReference reference) =>
        reference is UnresolvedAnalyzerReference || reference.FullPath is not { } path || !File.Exists(path);

    /// <summary>
    /// The project file of an assembly in a <c>bin</c> folder where no project of the solution names it as its
    /// output: the one project file in the folder above <c>bin</c>.
    /// </summary>
    private static string? ProjectAbove(string assembly)
    {
        for (var folder = Path.GetDirectoryName(assembly); folder is not null; folder = Path.GetDirectoryName(folder))
        {
            if (Path.GetFileName(folder).Equals("bin", StringComparison.OrdinalIgnoreCase))
            {
                var projects = Directory.Exists(Path.GetDirectoryName(folder))
                    ? Directory.GetFiles(Path.GetDirectoryName(folder)!, "*.csproj")
                    : [];
                return projects.Length == 1 ? projects[0] : null;
            }
        }
        return null;
    }

    /// <summary>
    /// The newest of a project's documents and its project file, in milliseconds since the Unix epoch; what a
    /// build writes under its <c>obj/</c> (assembly attributes, global usings) is not a source.
    /// </summary>
    private static ulong NewestFile(Project project)
    {
        var obj = project.FilePath is { } file ? Path.Combine(Path.GetDirectoryName(file)!, "obj") + Path.DirectorySeparatorChar : null;
        return project.Documents
            .Select(d => d.FilePath)
            .Where(path => obj is null || path?.StartsWith(obj, StringComparison.Ordinal) != true)
            .Append(project.FilePath)
            .OfType<string>()
            .Select(LastWriteMs)
            .DefaultIfEmpty(0UL)
            .Max();
    }

    private static ulong LastWriteMs(string path)
    {
        var written = File.GetLastWriteTimeUtc(path);
        // A file that does not exist reads as 1601.
        return written.Year < 1970 ? 0 : (ulong)new DateTimeOffset(written).ToUnixTimeMilliseconds();
    }
}
