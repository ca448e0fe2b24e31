using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// A move can take the last type out of a namespace (and so out of the namespaces around it, when nothing else
/// is in them): a using of it is then an error wherever it no longer exists. Those directives go, in every
/// document that has one, whether the move edits it otherwise or not.
/// </summary>
internal static class VanishedNamespaces
{
    public static async Task RemoveUsingsAsync(EditSet edits, string oldNamespace, CancellationToken cancellationToken)
    {
        var original = edits.Original;
        var after = await edits.BuildAsync(cancellationToken);
        // Only a project that changed, or sees one that did, can lose a namespace.
        foreach (var id in AddedErrors.AffectedProjects(original, after))
        {
            if (original.GetProject(id) is not { } before || after.GetProject(id) is not { } moved)
            {
                continue;
            }
            var vanished = await VanishedAsync(before, moved, oldNamespace, cancellationToken);
            if (vanished.Count == 0)
            {
                continue;
            }
            foreach (var document in before.Documents.Where(d => !edits.IsDeleted(d.Id)))
            {
                var removals = await RemovalsAsync(document, vanished, edits.ChangesOf(document.Id), cancellationToken);
                if (removals.Count > 0)
                {
                    edits.RemoveUsings(document.Id, removals, "of a namespace that no longer exists");
                }
            }
        }
    }

    /// <summary>The old namespace and those around it that the project saw before the move and does not after it.</summary>
    private static async Task<HashSet<string>> VanishedAsync(Project before, Project after, string oldNamespace, CancellationToken cancellationToken)
    {
        var was = (await before.GetCompilationAsync(cancellationToken))!.GlobalNamespace;
        var now = (await after.GetCompilationAsync(cancellationToken))!.GlobalNamespace;
        return [.. Names.Chain(oldNamespace).Where(ns => Exists(was, ns) && !Exists(now, ns))];
    }

    /// <summary>True when the namespace exists in the compilation (declared in its sources or in a reference).</summary>
    private static bool Exists(INamespaceSymbol global, string ns)
    {
        INamespaceSymbol? at = global;
        foreach (var part in ns.Split('.'))
        {
            at = at?.GetNamespaceMembers().FirstOrDefault(n => n.Name == part);
        }
        return at is not null;
    }

    /// <summary>
    /// The removals of the document's directives (global ones and those in namespace blocks included) whose
    /// namespace, or the namespace of whose type, vanished; directives the move already edits are left to it.
    /// </summary>
    private static async Task<List<TextChange>> RemovalsAsync(
        Document document,
        HashSet<string> vanished,
        IReadOnlyList<TextChange> changes,
        CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var directives = root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .OfType<UsingDirectiveSyntax>()
            .ToList();
        if (directives.Count == 0)
        {
            return [];
        }
        var text = await document.GetTextAsync(cancellationToken);
        // Bound in the original snapshot, where they resolved: a name relative to an enclosing namespace counts too.
        var model = (await document.GetSemanticModelAsync(cancellationToken))!;
        return [.. directives
            .Where(u => !UsingDirectives.Touched(changes, UsingDirectives.LinesOf(text, u)))
            .Where(u => NamespaceOf(model.GetSymbolInfo(u.NamespaceOrType, cancellationToken).Symbol) is { } ns && vanished.Contains(ns))
            .Select(u => UsingDirectives.Removal(text, u))];
    }

    private static string? NamespaceOf(ISymbol? target) => target switch
    {
        INamespaceSymbol ns => ns.ToDisplayString(Names.Qualified),
        ITypeSymbol type => Names.NamespaceOf(type),
        _ => null,
    };
}
