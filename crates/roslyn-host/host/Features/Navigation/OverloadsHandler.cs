using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Navigation;

public static class OverloadsHandler
{
    public static async Task<OverloadList> HandleAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        var symbol = Definitions.Of(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
        if (symbol is not IMethodSymbol method)
        {
            throw NotAMethod(symbol, position);
        }
        var overloads = new List<Member>();
        foreach (var overload in OverloadsOf(method))
        {
            overloads.Add(await MemberFormat.DescribeAsync(overload, cancellationToken));
        }
        return new OverloadList(SymbolFormat.Summarize(method), overloads.ToValueList());
    }

    /// <summary>
    /// The methods a call by this name could bind to: the type's, then each base type's not overridden or hidden
    /// by one already found; in declaration order.
    /// </summary>
    private static IEnumerable<IMethodSymbol> OverloadsOf(IMethodSymbol method)
    {
        if (method.ContainingSymbol is not INamedTypeSymbol type)
        {
            // Local functions cannot be overloaded.
            return [method];
        }
        if (method.MethodKind == MethodKind.Constructor)
        {
            return type.InstanceConstructors;
        }
        var found = new List<IMethodSymbol>();
        foreach (var candidate in TypeAndBases(type).SelectMany(t => t.GetMembers(method.Name).OfType<IMethodSymbol>()))
        {
            if (!found.Any(f => Supersedes(f, candidate)))
            {
                found.Add(candidate);
            }
        }
        return found;
    }

    private static IEnumerable<INamedTypeSymbol> TypeAndBases(INamedTypeSymbol type)
    {
        if (type.TypeKind == TypeKind.Interface)
        {
            return [type, .. type.AllInterfaces];
        }
        var chain = new List<INamedTypeSymbol>();
        for (var t = type; t is not null; t = t.BaseType)
        {
            chain.Add(t);
        }
        return chain;
    }

    /// <summary>Whether <paramref name="derived"/> overrides or hides <paramref name="baseMethod"/>.</summary>
    private static bool Supersedes(IMethodSymbol derived, IMethodSymbol baseMethod)
    {
        for (var overridden = derived.OverriddenMethod; overridden is not null; overridden = overridden.OverriddenMethod)
        {
            if (SymbolEqualityComparer.Default.Equals(overridden.OriginalDefinition, baseMethod.OriginalDefinition))
            {
                return true;
            }
        }
        return derived.Arity == baseMethod.Arity &&
            derived.Parameters.Length == baseMethod.Parameters.Length &&
            derived.Parameters.Zip(baseMethod.Parameters).All(p =>
                p.First.RefKind == p.Second.RefKind && SameType(p.First.Type, p.Second.Type));
    }

    /// <summary>Equal types, a method's own type parameters matching by position as in C# signatures.</summary>
    private static bool SameType(ITypeSymbol a, ITypeSymbol b) =>
        SymbolEqualityComparer.Default.Equals(a, b) ||
        a is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } ta &&
        b is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } tb &&
        ta.Ordinal == tb.Ordinal;

    private static HostErrorException NotAMethod(ISymbol symbol, Position position)
    {
        var kind = SymbolFormat.KindOf(symbol);
        return HostErrorException.Create(
            ErrorCode.SymbolNotFound,
            $"'{symbol.Name}' at {position.File}:{position.Line}:{position.Column} is a {kind}; overloads need a method or constructor",
            new JsonObject { ["file"] = position.File, ["line"] = position.Line, ["column"] = position.Column, ["kind"] = kind },
            "Place the column on the name of a method, in its declaration or in a call");
    }
}
