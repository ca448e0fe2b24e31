using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Semantics;

/// <summary>The symbols a document's code names: each simple name, bound (or its first candidate), with the name.</summary>
internal static class NamedSymbols
{
    public static async Task<List<(SimpleNameSyntax Name, ISymbol Symbol)>> InAsync(Document document, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken);
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var named = new List<(SimpleNameSyntax, ISymbol)>();
        foreach (var name in root!.DescendantNodes().OfType<SimpleNameSyntax>())
        {
            var info = model!.GetSymbolInfo(name, cancellationToken);
            if ((info.Symbol ?? info.CandidateSymbols.FirstOrDefault()) is { } symbol)
            {
                named.Add((name, symbol));
            }
        }
        return named;
    }
}
