using System.Collections.Immutable;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Features.Files;

/// <summary>A project reference a move needs, and the use that needs it (for a refusal).</summary>
internal sealed record NeededReference(string Project, string References, string Because);

/// <summary>
/// The project references files moved into another project need, worked out on the solution before the move:
/// the destination needs each project whose code the moved files use (what they declare aside), and each
/// project that uses what the moved files declare needs the destination. A project already referenced
/// (MSBuild's references are transitive, so Roslyn's are too) needs nothing; a type of a library that is no
/// project of the solution and that the destination cannot name is refused (REFERENCE_MISSING), and so is a reference that would close a
/// cycle (CIRCULAR_REFERENCE).
/// </summary>
internal static class NeededReferences
{
    public static async Task<List<NeededReference>> FindAsync(Solution solution, IReadOnlyList<FileMove> moves, IReadOnlyList<Project> targets, CancellationToken cancellationToken)
    {
        var target = targets[0].FilePath!;
        var moved = moves.Select(m => m.From).ToHashSet(StringComparer.Ordinal);
        var sources = moves.Select(m => m.Project).Where(f => f != target).Distinct(StringComparer.Ordinal).ToList();
        if (sources.Count == 0)
        {
            return [];
        }
        var needed = new Dictionary<(string, string), NeededReference>();
        void Need(string project, string references, string because)
        {
            if (project != references && !DependsOn(solution, project, references))
            {
                needed.TryAdd((project, references), new NeededReference(project, references, because));
            }
        }
        foreach (var (use, project) in await UsesAsync(solution, moved, targets, cancellationToken))
        {
            Need(target, project, use);
        }
        foreach (var (use, project) in await UsersAsync(solution, moved, sources, target, cancellationToken))
        {
            Need(project, target, use);
        }
        var added = needed.Values.OrderBy(n => n.Project, StringComparer.Ordinal).ThenBy(n => n.References, StringComparer.Ordinal).ToList();
        RefuseCycles(solution, added);
        return added;
    }

    /// <summary>The solution with the references added between the projects of the same target framework.</summary>
    public static Solution AddTo(Solution solution, IEnumerable<NeededReference> references)
    {
        foreach (var reference in references)
        {
            var candidates = solution.Projects.Where(p => p.FilePath == reference.References).ToList();
            foreach (var project in solution.Projects.Where(p => p.FilePath == reference.Project).ToList())
            {
                var referenced = candidates.FirstOrDefault(c => TargetFrameworks.InName(c.Name) == TargetFrameworks.InName(project.Name)) ?? candidates.OrderBy(c => c.Name, StringComparer.Ordinal).First();
                if (!project.ProjectReferences.Any(r => r.ProjectId == referenced.Id))
                {
                    solution = solution.AddProjectReference(project.Id, new ProjectReference(referenced.Id));
                }
            }
        }
        return solution;
    }

    /// <summary>
    /// Each project (by project file) whose code the moved files name, with the first such use; throws
    /// REFERENCE_MISSING for a library of no project that the destination does not reference.
    /// </summary>
    private static async Task<List<(string Use, string Project)>> UsesAsync(Solution solution, HashSet<string> moved, IReadOnlyList<Project> targets, CancellationToken cancellationToken)
    {
        var projectOf = solution.Projects.Where(p => p.FilePath is not null).GroupBy(p => p.AssemblyName).ToDictionary(g => g.Key, g => g.First().FilePath!);
        var targetCompilation = (await targets[0].GetCompilationAsync(cancellationToken))!;
        var resolves = new Dictionary<INamedTypeSymbol, bool>(SymbolEqualityComparer.Default);
        var uses = new Dictionary<string, string>(StringComparer.Ordinal);
        var missing = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var document in await PreprocessorViews.OfEachFileAsync(moved.SelectMany(path => PositionResolver.DocumentsAt(solution, path)), cancellationToken))
        {
            foreach (var (name, symbol) in await NamedSymbols.InAsync(document, cancellationToken))
            {
                if (symbol is INamespaceSymbol || symbol.ContainingAssembly is not { } assembly
                    || symbol.Locations.All(l => l.IsInSource && moved.Contains(l.SourceTree!.FilePath)))
                {
                    continue;
                }
                var use = $"{document.FilePath}:{name.GetLocation().GetLineSpan().StartLinePosition.Line + 1} uses {symbol.ToDisplayString(SymbolDisplayFormat.CSharpShortErrorMessageFormat)}";
                if (projectOf.TryGetValue(assembly.Name, out var project))
                {
                    uses.TryAdd(project, use);
                }
                else if ((symbol as INamedTypeSymbol ?? symbol.ContainingType) is { } type && !Resolves(targetCompilation, type, resolves))
                {
                    missing.TryAdd(assembly.Name, use);
                }
            }
        }
        if (missing.Count > 0)
        {
            var names = missing.Keys.Order(StringComparer.Ordinal).ToList();
            throw HostErrorException.Create(
                ErrorCode.ReferenceMissing,
                $"{targets[0].FilePath} does not reference {string.Join(", ", names)}, which the moved code uses: {missing[names[0]]}",
                new JsonObject
                {
                    ["project"] = targets[0].FilePath,
                    ["missing"] = new JsonArray([.. names.Select(n => new JsonObject { ["assembly"] = n, ["use"] = missing[n] })]),
                },
                "Add the package or framework reference that provides it to the destination project first, then move");
        }
        return [.. uses.Select(u => (u.Value, u.Key))];
    }

    /// <summary>
    /// Whether the destination sees a library type by its name: a type a framework assembly forwards (the same
    /// type under another assembly in another framework) is there, one of a package it lacks is not.
    /// </summary>
    private static bool Resolves(Compilation compilation, INamedTypeSymbol type, Dictionary<INamedTypeSymbol, bool> known)
    {
        type = type.OriginalDefinition;
        if (!known.TryGetValue(type, out var resolves))
        {
            known[type] = resolves = !compilation.GetTypesByMetadataName(MetadataName(type)).IsEmpty;
        }
        return resolves;
    }

    private static string MetadataName(INamedTypeSymbol type) => type.ContainingType is { } outer
        ? $"{MetadataName(outer)}+{type.MetadataName}"
        : type.ContainingNamespace.IsGlobalNamespace ? type.MetadataName : $"{type.ContainingNamespace.ToDisplayString()}.{type.MetadataName}";

    /// <summary>Each project that uses what the moved files declare and may lack the destination, with the first use.</summary>
    private static async Task<List<(string Use, string Project)>> UsersAsync(Solution solution, HashSet<string> moved, List<string> sources, string target, CancellationToken cancellationToken)
    {
        var candidates = solution.Projects
            .Where(p => p.FilePath is { } file && file != target
                && sources.Any(s => file == s || DependsOn(solution, file, s)) && !DependsOn(solution, file, target))
            .ToList();
        var documents = candidates.SelectMany(p => p.Documents).Where(d => !moved.Contains(d.FilePath!)).ToImmutableHashSet();
        if (documents.IsEmpty)
        {
            return [];
        }
        var users = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var symbol in await DeclaredAsync(solution, moved, cancellationToken))
        {
            foreach (var location in (await SymbolFinder.FindReferencesAsync(symbol, solution, documents, cancellationToken)).SelectMany(r => r.Locations))
            {
                var at = location.Location.GetLineSpan();
                users.TryAdd(location.Document.Project.FilePath!, $"{at.Path}:{at.StartLinePosition.Line + 1} uses {symbol.Name}");
            }
        }
        return [.. users.Select(u => (u.Value, u.Key))];
    }

    /// <summary>The top-level types the moved files declare, and the extension methods of those that are static (a call need not name its class).</summary>
    private static async Task<List<ISymbol>> DeclaredAsync(Solution solution, HashSet<string> moved, CancellationToken cancellationToken)
    {
        var declared = new List<ISymbol>();
        foreach (var path in moved)
        {
            var document = PositionResolver.DocumentAt(solution, path)!;
            var model = await document.GetSemanticModelAsync(cancellationToken);
            var root = await document.GetSyntaxRootAsync(cancellationToken);
            foreach (var type in root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax).OfType<BaseTypeDeclarationSyntax>())
            {
                if (model!.GetDeclaredSymbol(type, cancellationToken) is INamedTypeSymbol symbol)
                {
                    declared.Add(symbol);
                    declared.AddRange(symbol.IsStatic ? symbol.GetMembers().Where(m => m is IMethodSymbol { IsExtensionMethod: true } || m is INamedTypeSymbol { TypeKind: TypeKind.Extension }).SelectMany(Extensions) : []);
                }
            }
        }
        return declared;
    }

    private static IEnumerable<ISymbol> Extensions(ISymbol member) =>
        member is INamedTypeSymbol block ? block.GetMembers().Where(m => !m.IsImplicitlyDeclared) : [member];

    /// <summary>Refuses the references that, with the solution's and each other, would make a project depend on itself.</summary>
    private static void RefuseCycles(Solution solution, List<NeededReference> added)
    {
        var edges = solution.Projects.Where(p => p.FilePath is not null)
            .SelectMany(p => p.ProjectReferences.Select(r => (From: p.FilePath!, To: solution.GetProject(r.ProjectId)?.FilePath)))
            .Where(e => e.To is not null && e.To != e.From)
            .Select(e => (e.From, To: e.To!))
            .Concat(added.Select(a => (From: a.Project, To: a.References)))
            .ToLookup(e => e.From, e => e.To);
        foreach (var reference in added)
        {
            if (Reaches(edges, reference.References, reference.Project, []))
            {
                var back = added.FirstOrDefault(a => a.Project == reference.References && a.References == reference.Project);
                throw HostErrorException.Create(
                    ErrorCode.CircularReference,
                    $"{Path.GetFileName(reference.Project)} would need a reference to {Path.GetFileName(reference.References)} ({reference.Because}), " +
                    $"which already depends on it{(back is null ? "" : $" or would ({back.Because})")}: a cycle",
                    new JsonObject { ["project"] = reference.Project, ["references"] = reference.References, ["use"] = reference.Because },
                    "Move the code that uses the files along with them, or move them to a project both can reference");
            }
        }
    }

    private static bool Reaches(ILookup<string, string> edges, string from, string to, HashSet<string> seen) =>
        from == to || (seen.Add(from) && edges[from].Any(next => Reaches(edges, next, to, seen)));

    /// <summary>Whether a project of the first project file references one of the second (directly or not).</summary>
    private static bool DependsOn(Solution solution, string project, string on)
    {
        var graph = solution.GetProjectDependencyGraph();
        return solution.Projects.Where(p => p.FilePath == project)
            .Any(p => graph.GetProjectsThatThisProjectTransitivelyDependsOn(p.Id).Any(id => solution.GetProject(id)?.FilePath == on));
    }
}
