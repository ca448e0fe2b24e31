using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>Refuses a move that would put a second type of the same name and arity in the target namespace.</summary>
internal static class NameCollisions
{
    public static async Task CheckAsync(MovedType type, string targetNamespace, IEnumerable<Project> projects, CancellationToken cancellationToken)
    {
        foreach (var project in projects)
        {
            var compilation = await project.GetCompilationAsync(cancellationToken);
            var existing = compilation is null ? null : Find(compilation, type, targetNamespace);
            if (existing is not null)
            {
                var file = existing.Locations.FirstOrDefault(l => l.IsInSource)?.SourceTree?.FilePath;
                var where = file ?? existing.ContainingAssembly.Name;
                throw MoveErrors.Collision(
                    type.Name,
                    targetNamespace,
                    $"Namespace {targetNamespace} already has a type {type.Name} (in {where}), visible to {project.Name}",
                    file);
            }
        }
    }

    /// <summary>The solution's projects that see the type: its own and those referencing it, directly or not.</summary>
    public static IEnumerable<Project> SeeingProjects(Solution solution, ProjectId source) =>
        solution.GetProjectDependencyGraph()
            .GetProjectsThatTransitivelyDependOnThisProject(source)
            .Prepend(source)
            .Select(solution.GetProject)
            .OfType<Project>();

    private static INamedTypeSymbol? Find(Compilation compilation, MovedType type, string targetNamespace)
    {
        var ns = compilation.GlobalNamespace;
        foreach (var segment in targetNamespace.Split('.', StringSplitOptions.RemoveEmptyEntries))
        {
            ns = ns.GetNamespaceMembers().FirstOrDefault(n => n.Name == segment);
            if (ns is null)
            {
                return null;
            }
        }
        // The moved type itself (seen from a referencing compilation) and file-local types of other files do not collide.
        return ns.GetTypeMembers(type.Name, type.Symbol.Arity).FirstOrDefault(t =>
            !(t.ContainingAssembly.Name == type.Symbol.ContainingAssembly.Name && Names.NamespaceOf(t) == type.Namespace)
            && !t.IsFileLocal);
    }
}
