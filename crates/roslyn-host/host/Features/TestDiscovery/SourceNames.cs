using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Features.TestDiscovery;

/// <summary>
/// The names of the types and members a project's code can use from the solution's source (its own and its
/// referenced projects'): a name outside them cannot bind to a node of the reach graph, so it is never bound.
/// </summary>
public static class SourceNames
{
    public static async Task<IReadOnlySet<string>> VisibleFromAsync(Project project, CancellationToken cancellationToken)
    {
        var compilation = await project.GetCompilationAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{project.Name} has no compilation");
        var names = new HashSet<string>(StringComparer.Ordinal);
        Add(compilation.Assembly.GlobalNamespace, names);
        foreach (var reference in compilation.References.OfType<CompilationReference>())
        {
            if (compilation.GetAssemblyOrModuleSymbol(reference) is IAssemblySymbol assembly)
            {
                Add(assembly.GlobalNamespace, names);
            }
        }
        return names;
    }

    private static void Add(INamespaceSymbol root, HashSet<string> names)
    {
        var pending = new Stack<INamespaceOrTypeSymbol>();
        pending.Push(root);
        while (pending.Count > 0)
        {
            var container = pending.Pop();
            if (container is INamedTypeSymbol type)
            {
                names.Add(type.Name);
                names.UnionWith(type.MemberNames);
            }
            foreach (var member in container is INamespaceSymbol ns ? ns.GetMembers().Cast<INamespaceOrTypeSymbol>() : container.GetTypeMembers())
            {
                pending.Push(member);
            }
        }
    }
}
