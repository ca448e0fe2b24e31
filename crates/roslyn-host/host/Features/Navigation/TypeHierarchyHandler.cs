using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Navigation;

public static class TypeHierarchyHandler
{
    public static async Task<TypeHierarchy> HandleAsync(Solution solution, SymbolTarget target, CancellationToken cancellationToken)
    {
        var symbol = await SymbolTargets.ResolveAsync(solution, target, cancellationToken);
        var type = TypeOf(symbol) ?? throw NotAType(symbol);

        var baseTypes = new List<Related>();
        for (var baseType = type.BaseType; baseType is not null; baseType = baseType.BaseType)
        {
            baseTypes.Add(new Related(await SymbolFormat.RefAsync(baseType, cancellationToken), Relation.BaseType, baseTypes.Count == 0));
        }

        var derived = new List<Derivation>();
        if (type is INamedTypeSymbol named)
        {
            switch (named.TypeKind)
            {
                case TypeKind.Class:
                    derived.AddRange(await Derivations.DerivedClassesAsync(named, solution, cancellationToken));
                    break;
                case TypeKind.Interface:
                    derived.AddRange(await Derivations.ImplementingTypesAsync(named, solution, cancellationToken));
                    derived.AddRange(await Derivations.DerivedInterfacesAsync(named, solution, cancellationToken));
                    break;
            }
        }

        // AllInterfaces keeps constructed forms (IRepository<Customer>), so Interfaces compares exactly.
        var interfaces = type.AllInterfaces.Select(i => new Derivation(i, type.Interfaces.Contains(i, SymbolEqualityComparer.Default)));

        return new TypeHierarchy(
            await SymbolFormat.RefAsync(type, cancellationToken),
            baseTypes.ToValueList(),
            (await Derivations.RelatedAsync(derived, Relation.DerivedType, cancellationToken)).ToValueList(),
            (await Derivations.RelatedAsync(interfaces, Relation.Interface, cancellationToken)).ToValueList());
    }

    /// <summary>The type itself, or the type of a variable, field or property.</summary>
    private static ITypeSymbol? TypeOf(ISymbol symbol) => symbol switch
    {
        ITypeSymbol or ILocalSymbol or IParameterSymbol or IFieldSymbol or IPropertySymbol or IEventSymbol =>
            TypeAtPositionHandler.TypeOf(symbol),
        _ => null,
    };

    private static HostErrorException NotAType(ISymbol symbol)
    {
        var kind = SymbolFormat.KindOf(symbol);
        return HostErrorException.Create(
            ErrorCode.SymbolNotFound,
            $"'{symbol.ToDisplayString(SymbolFormat.Display)}' is a {kind}, which has no type hierarchy",
            new JsonObject { ["symbol"] = symbol.ToDisplayString(SymbolFormat.Display), ["kind"] = kind },
            "Name a type, or place the column on a type name, variable, parameter, field or property");
    }
}
