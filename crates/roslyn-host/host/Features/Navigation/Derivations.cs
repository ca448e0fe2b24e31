using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Navigation;

/// <summary>A symbol found to derive from, implement or override another, and whether it names it itself.</summary>
public readonly record struct Derivation(ISymbol Symbol, bool IsDirect);

/// <summary>The solution's types and members built on a type or member, for implementation and hierarchy queries.</summary>
public static class Derivations
{
    /// <summary>Classes deriving from a class, directly when it is their base type.</summary>
    public static async Task<IEnumerable<Derivation>> DerivedClassesAsync(
        INamedTypeSymbol type, Solution solution, CancellationToken cancellationToken)
    {
        var definition = type.OriginalDefinition;
        var derived = await SymbolFinder.FindDerivedClassesAsync(definition, solution, transitive: true, cancellationToken: cancellationToken);
        return InSolution(derived).Select(d => new Derivation(d, Same(d.BaseType?.OriginalDefinition, definition)));
    }

    /// <summary>Classes and structs implementing an interface, directly when it is in their own base list.</summary>
    public static async Task<IEnumerable<Derivation>> ImplementingTypesAsync(
        INamedTypeSymbol type, Solution solution, CancellationToken cancellationToken)
    {
        var definition = type.OriginalDefinition;
        var implementing = await SymbolFinder.FindImplementationsAsync(definition, solution, transitive: true, cancellationToken: cancellationToken);
        return InSolution(implementing).Select(t => new Derivation(t, NamesInterface(t, definition)));
    }

    /// <summary>Interfaces extending an interface, directly when it is in their own base list.</summary>
    public static async Task<IEnumerable<Derivation>> DerivedInterfacesAsync(
        INamedTypeSymbol type, Solution solution, CancellationToken cancellationToken)
    {
        var definition = type.OriginalDefinition;
        var derived = await SymbolFinder.FindDerivedInterfacesAsync(definition, solution, transitive: true, cancellationToken: cancellationToken);
        return InSolution(derived).Select(i => new Derivation(i, NamesInterface(i, definition)));
    }

    /// <summary>
    /// Members implementing an interface member, overrides of those included (they implement it in derived types);
    /// directly when their type names the interface itself.
    /// </summary>
    public static async Task<IEnumerable<Derivation>> ImplementingMembersAsync(
        ISymbol member, Solution solution, CancellationToken cancellationToken)
    {
        var implementing = new List<ISymbol>();
        foreach (var implementation in await SymbolFinder.FindImplementationsAsync(member, solution, cancellationToken: cancellationToken))
        {
            implementing.Add(implementation);
            implementing.AddRange(await SymbolFinder.FindOverridesAsync(implementation, solution, cancellationToken: cancellationToken));
        }
        var definition = member.ContainingType.OriginalDefinition;
        return InSolution(implementing).Select(m => new Derivation(m, NamesInterface(m.ContainingType, definition)));
    }

    /// <summary>Overrides of a virtual or abstract member, directly when they override it rather than an override of it.</summary>
    public static async Task<IEnumerable<Derivation>> OverridesAsync(
        ISymbol member, Solution solution, CancellationToken cancellationToken)
    {
        var overrides = await SymbolFinder.FindOverridesAsync(member, solution, cancellationToken: cancellationToken);
        return InSolution(overrides).Select(o => new Derivation(o, Same(Overridden(o)?.OriginalDefinition, member.OriginalDefinition)));
    }

    /// <summary>As answer entries: one per symbol (direct if found so once), ordered by display.</summary>
    public static async Task<List<Related>> RelatedAsync(
        IEnumerable<Derivation> derivations, Relation relation, CancellationToken cancellationToken)
    {
        var related = new List<Related>();
        var unique = derivations
            .GroupBy(d => d.Symbol, SymbolEqualityComparer.Default)
            .Select(g => new Derivation(g.Key!, g.Any(d => d.IsDirect)));
        foreach (var derivation in unique)
        {
            related.Add(new Related(await SymbolFormat.RefAsync(derivation.Symbol, cancellationToken), relation, derivation.IsDirect));
        }
        return related
            .OrderBy(r => r.Symbol.Symbol.Display, StringComparer.Ordinal)
            .ThenBy(r => r.Symbol.Symbol.Key, StringComparer.Ordinal)
            .ToList();
    }

    /// <summary>The solution's own declarations: the finders also walk referenced assemblies.</summary>
    private static IEnumerable<T> InSolution<T>(IEnumerable<T> symbols)
        where T : ISymbol => symbols.Where(s => !SymbolFormat.IsMetadata(s));

    /// <summary>Whether the interface is in the type's own base list.</summary>
    private static bool NamesInterface(INamedTypeSymbol type, INamedTypeSymbol definition) =>
        type.Interfaces.Any(i => Same(i.OriginalDefinition, definition));

    /// <summary>The member this one directly overrides, if any.</summary>
    public static ISymbol? Overridden(ISymbol member) => member switch
    {
        IMethodSymbol method => method.OverriddenMethod,
        IPropertySymbol property => property.OverriddenProperty,
        IEventSymbol @event => @event.OverriddenEvent,
        _ => null,
    };

    private static bool Same(ISymbol? a, ISymbol b) => SymbolEqualityComparer.Default.Equals(a, b);
}
