using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Navigation;

public static class ImplementationsHandler
{
    public static async Task<ImplementationList> HandleAsync(
        Solution solution, ImplementationsRequest request, CancellationToken cancellationToken)
    {
        var symbol = await SymbolTargets.ResolveAsync(solution, request.Target, cancellationToken);
        var implementations = new List<Related>();
        async Task AddAsync(Task<IEnumerable<Derivation>> found, Relation relation) =>
            implementations.AddRange(await Derivations.RelatedAsync(await found, relation, cancellationToken));

        switch (symbol)
        {
            case INamedTypeSymbol { TypeKind: TypeKind.Interface } type:
                if (request.InterfaceImplementations)
                {
                    await AddAsync(Derivations.ImplementingTypesAsync(type, solution, cancellationToken), Relation.Implements);
                }
                if (request.DerivedTypes)
                {
                    await AddAsync(Derivations.DerivedInterfacesAsync(type, solution, cancellationToken), Relation.Derives);
                }
                break;
            case INamedTypeSymbol { TypeKind: TypeKind.Class } type when request.DerivedTypes:
                await AddAsync(Derivations.DerivedClassesAsync(type, solution, cancellationToken), Relation.Derives);
                break;
            case IMethodSymbol or IPropertySymbol or IEventSymbol when symbol.ContainingType?.TypeKind == TypeKind.Interface:
                if (request.InterfaceImplementations)
                {
                    await AddAsync(Derivations.ImplementingMembersAsync(symbol, solution, cancellationToken), Relation.Implements);
                }
                break;
            case IMethodSymbol or IPropertySymbol or IEventSymbol when request.DerivedTypes && IsOverridable(symbol):
                await AddAsync(Derivations.OverridesAsync(symbol, solution, cancellationToken), Relation.Overrides);
                break;
        }
        // A partial member's implementing part (a generator's, often), asked at either part, whatever the filters.
        if (SymbolFormat.PartialImplementation(symbol) is { } implementation)
        {
            implementations.Add(new Related(await SymbolFormat.RefAsync(implementation, cancellationToken), Relation.Implements, IsDirect: true));
        }
        // Structs, enums, delegates and other symbols have nothing built on them: an empty list, not an error.
        return new ImplementationList(SymbolFormat.Summarize(symbol), implementations.ToValueList());
    }

    private static bool IsOverridable(ISymbol member) =>
        (member.IsVirtual || member.IsAbstract || member.IsOverride) && !member.IsSealed;
}
