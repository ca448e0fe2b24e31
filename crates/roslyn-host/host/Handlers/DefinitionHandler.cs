using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Handlers;

public static class DefinitionHandler
{
    public static async Task<DefinitionInfo> HandleAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        var symbol = Definition(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
        return new DefinitionInfo(
            SymbolFormat.Summarize(symbol),
            await SymbolFormat.DeclarationsAsync(symbol, cancellationToken),
            await Sources.MetadataDocuments.Shared.PlaceOfAsync(solution, symbol, cancellationToken));
    }

    /// <summary>
    /// The declared symbol behind a use: <c>List&lt;T&gt;</c> for <c>List&lt;string&gt;</c>, the static extension
    /// method for a reduced call.
    /// </summary>
    public static ISymbol Definition(ISymbol symbol)
    {
        if (symbol is IMethodSymbol { ReducedFrom: { } reducedFrom })
        {
            symbol = reducedFrom;
        }
        return symbol.OriginalDefinition;
    }
}
