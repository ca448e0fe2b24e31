using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using ErrorCode = RoslynMcp.Host.Protocol.ErrorCode;
using HostErrorException = RoslynMcp.Host.Protocol.HostErrorException;

namespace RoslynMcp.Host.Semantics;

/// <summary>Symbols declared in the solution's source: where one is first declared, and the refusal of one that is not.</summary>
internal static class SourceSymbols
{
    /// <summary>The first declaration in source, by path and then position.</summary>
    public static Location FirstDeclaration(ISymbol symbol) => symbol.Locations
        .Where(l => l.IsInSource)
        .OrderBy(l => l.SourceTree!.FilePath, StringComparer.Ordinal)
        .ThenBy(l => l.SourceSpan.Start)
        .First();

    public static HostErrorException NotInSource(ISymbol symbol) => HostErrorException.Create(
        ErrorCode.SymbolNotInSource,
        $"{symbol.ToDisplayString(SymbolFormat.Display)} is declared in the referenced assembly {SymbolFormat.AssemblyOf(symbol)}, not in the solution's source",
        new JsonObject
        {
            ["symbol"] = symbol.ToDisplayString(SymbolFormat.Display),
            ["assembly"] = SymbolFormat.AssemblyOf(symbol),
        },
        "Only symbols declared in the solution can be renamed; place the position on one of those");

    /// <summary>
    /// The member of a referenced assembly that <paramref name="symbol"/> overrides or implements (its name is
    /// that member's: renamed alone, the override or implementation breaks), or null.
    /// </summary>
    public static ISymbol? MetadataBase(ISymbol symbol)
    {
        for (var overridden = Overridden(symbol); overridden is not null; overridden = Overridden(overridden))
        {
            if (SymbolFormat.IsMetadata(overridden))
            {
                return overridden;
            }
        }
        if (symbol.ContainingType is not { } type || symbol is not (IMethodSymbol or IPropertySymbol or IEventSymbol))
        {
            return null;
        }
        return type.AllInterfaces
            .Where(SymbolFormat.IsMetadata)
            .SelectMany(i => i.GetMembers())
            .FirstOrDefault(member => SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(member), symbol));
    }

    private static ISymbol? Overridden(ISymbol symbol) => symbol switch
    {
        IMethodSymbol method => method.OverriddenMethod,
        IPropertySymbol property => property.OverriddenProperty,
        IEventSymbol @event => @event.OverriddenEvent,
        _ => null,
    };

    /// <summary>The refusal of renaming a member whose name a referenced assembly's member gives it.</summary>
    public static HostErrorException NamedByMetadata(ISymbol symbol, ISymbol metadata) => HostErrorException.Create(
        ErrorCode.SymbolNotInSource,
        $"{symbol.ToDisplayString(SymbolFormat.Display)} {(metadata.ContainingType?.TypeKind == TypeKind.Interface ? "implements" : "overrides")} " +
        $"{metadata.ToDisplayString(SymbolFormat.Display)}, declared in the referenced assembly {SymbolFormat.AssemblyOf(metadata)}: " +
        "its name is that member's and cannot be renamed alone",
        new JsonObject
        {
            ["symbol"] = symbol.ToDisplayString(SymbolFormat.Display),
            ["member"] = metadata.ToDisplayString(SymbolFormat.Display),
            ["assembly"] = SymbolFormat.AssemblyOf(metadata),
        },
        "Rename a member the solution declares itself; to give this behaviour a new name, add a member of that name and call it from here");
}
