using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Sources;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Navigation;

public static class DefinitionHandler
{
    public static async Task<DefinitionInfo> HandleAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        var symbol = Definitions.Of(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
        return new DefinitionInfo(
            SymbolFormat.Summarize(symbol),
            await SymbolFormat.DeclarationsAsync(symbol, cancellationToken),
            await MetadataDocuments.Shared.PlaceOfAsync(solution, symbol, cancellationToken));
    }
}
