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
}
