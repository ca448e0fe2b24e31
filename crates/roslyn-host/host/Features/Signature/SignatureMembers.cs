using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>A member as one project sees it, and where its name is declared in that project's document.</summary>
internal sealed record DeclaredMember(ISymbol Symbol, DocumentId Document, string Path, int Position)
{
    /// <summary>The member again in a solution <paramref name="changes"/> led to, by where its name moved.</summary>
    public async Task<DeclaredMember?> MovedAsync(Solution solution, MergedChanges changes, CancellationToken cancellationToken)
    {
        var position = changes.Map(Path, Position);
        return solution.GetDocument(Document) is { } document
            && await SignatureMembers.DeclaredAtAsync(document, position, cancellationToken) is { } symbol
            ? this with { Symbol = symbol, Position = position }
            : null;
    }
}

/// <summary>
/// The members whose parameter lists change together: the member, the members it overrides or implements, and
/// theirs overriding or implementing them, in source, each as every target framework's project sees it.
/// </summary>
internal static class SignatureMembers
{
    /// <summary>The member's own declarations first.</summary>
    public static async Task<List<DeclaredMember>> OfAsync(Solution solution, ISymbol member, CancellationToken cancellationToken)
    {
        var found = new List<ISymbol>();
        var seen = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
        var queue = new Queue<ISymbol>([member]);
        while (queue.TryDequeue(out var next))
        {
            if (!seen.Add(next.OriginalDefinition))
            {
                continue;
            }
            if (!SymbolFormat.IsMetadata(next))
            {
                found.Add(next.OriginalDefinition);
            }
            foreach (var related in await RelatedAsync(solution, next, cancellationToken))
            {
                queue.Enqueue(related);
            }
        }
        var perFramework = new List<DeclaredMember>();
        foreach (var symbol in found)
        {
            foreach (var location in symbol.Locations.Where(l => l.IsInSource))
            {
                foreach (var document in PositionResolver.DocumentsAt(solution, location.SourceTree!.FilePath))
                {
                    if (await DeclaredAtAsync(document, location.SourceSpan.Start, cancellationToken) is { } seenThere)
                    {
                        perFramework.Add(new DeclaredMember(seenThere, document.Id, document.FilePath!, location.SourceSpan.Start));
                    }
                }
            }
        }
        return perFramework;
    }

    /// <summary>The member declared at a position (its name), as the document's project sees it.</summary>
    public static async Task<ISymbol?> DeclaredAtAsync(Document document, int position, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var model = (await document.GetSemanticModelAsync(cancellationToken))!;
        for (var node = root!.FindToken(position).Parent; node is not null; node = node.Parent)
        {
            switch (model.GetDeclaredSymbol(node, cancellationToken))
            {
                case (IMethodSymbol or IPropertySymbol { IsIndexer: true } or INamedTypeSymbol { TypeKind: TypeKind.Delegate }) and var member:
                    return member;
                case INamedTypeSymbol or INamespaceSymbol:
                    return null;
            }
        }
        return null;
    }

    private static async Task<IEnumerable<ISymbol>> RelatedAsync(Solution solution, ISymbol symbol, CancellationToken cancellationToken)
    {
        if (symbol is not (IMethodSymbol or IPropertySymbol))
        {
            return [];
        }
        var overridden = symbol switch
        {
            IMethodSymbol { OverriddenMethod: { } method } => [method],
            IPropertySymbol { OverriddenProperty: { } property } => [property],
            _ => Array.Empty<ISymbol>(),
        };
        return overridden
            .Concat(await SymbolFinder.FindOverridesAsync(symbol, solution, cancellationToken: cancellationToken))
            .Concat(await SymbolFinder.FindImplementationsAsync(symbol, solution, cancellationToken: cancellationToken))
            .Concat(await SymbolFinder.FindImplementedInterfaceMembersAsync(symbol, solution, cancellationToken: cancellationToken));
    }
}
