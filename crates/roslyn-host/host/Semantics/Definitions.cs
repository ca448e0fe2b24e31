using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics;

internal static class Definitions
{
    /// <summary>
    /// The declared symbol behind a use: <c>List&lt;T&gt;</c> for <c>List&lt;string&gt;</c>, the static extension
    /// method for a reduced call.
    /// </summary>
    public static ISymbol Of(ISymbol symbol)
    {
        if (symbol is IMethodSymbol { ReducedFrom: { } reducedFrom })
        {
            symbol = reducedFrom;
        }
        return symbol.OriginalDefinition;
    }
}
