using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Graph;

/// <summary>
/// Project and package references of a project that no code names in any of its target frameworks: no simple
/// name binds to a symbol of the referenced project's assembly or of anything it brings (its own references,
/// a package's dependencies). Candidates, with the evidence: a package may still bring analyzers, build steps
/// or runtime files, and code can use a library without naming it (reflection, a configuration file).
/// </summary>
internal static class UnusedReferences
{
    public static async Task<List<UnusedReference>> FindAsync(
        Solution solution,
        string file,
        List<Project> views,
        List<string> referenced,
        RestoreAssets? assets,
        CancellationToken cancellationToken)
    {
        var named = new HashSet<string>(StringComparer.Ordinal);
        var documents = views.Sum(v => v.DocumentIds.Count);
        // A file every framework sees alike names the same symbols in each: it is read once.
        foreach (var document in await PreprocessorViews.OfEachFileAsync(views.SelectMany(v => v.Documents), cancellationToken))
        {
            foreach (var (_, symbol) in await NamedSymbols.InAsync(document, cancellationToken))
            {
                if (symbol.ContainingAssembly is { } assembly)
                {
                    named.Add(assembly.Name);
                }
            }
        }
        var scope = $"in the {documents} documents of {views.Count} target framework{(views.Count == 1 ? "" : "s")}";
        var unused = new List<UnusedReference>();
        var graph = solution.GetProjectDependencyGraph();
        foreach (var reference in referenced)
        {
            var brought = solution.Projects.Where(p => p.FilePath == reference)
                .SelectMany(p => graph.GetProjectsThatThisProjectTransitivelyDependsOn(p.Id).Append(p.Id))
                .Select(id => solution.GetProject(id)!.AssemblyName)
                .ToHashSet(StringComparer.Ordinal);
            if (brought.Count > 0 && !brought.Overlaps(named))
            {
                unused.Add(new UnusedReference(file, "project", reference, $"no code names a symbol of {string.Join(", ", brought.Order(StringComparer.Ordinal))} {scope}"));
            }
        }
        foreach (var package in assets?.Packages ?? [])
        {
            var assemblies = assets!.Assemblies[package.Name];
            if (assemblies.Count > 0 && !assemblies.Overlaps(named))
            {
                unused.Add(new UnusedReference(
                    file,
                    "package",
                    package.Name,
                    $"no code names a symbol of its assemblies ({string.Join(", ", assemblies.Order(StringComparer.Ordinal))}) {scope}; it may still bring analyzers, build steps or runtime files"));
            }
        }
        return unused;
    }
}
