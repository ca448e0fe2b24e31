using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Features.Navigation;

/// <summary>What counts as a call site, and where it is.</summary>
internal static class CallSites
{
    /// <summary>A name in a <c>cref</c> or a <c>nameof</c>: it names a member without calling it.</summary>
    public static bool IsMention(SyntaxNode node) =>
        node.AncestorsAndSelf().Any(n => n is CrefSyntax
            || n is InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } });

    /// <summary>
    /// The token naming what an expression calls or creates: <c>Calculate</c> in <c>calculator.Calculate</c>,
    /// <c>Line</c> in <c>Order.Line</c>; the first token of anything else (<c>(handler)</c>, <c>string</c>).
    /// </summary>
    public static SyntaxToken NameToken(ExpressionSyntax expression) => expression switch
    {
        SimpleNameSyntax name => name.Identifier,
        MemberAccessExpressionSyntax access => access.Name.Identifier,
        MemberBindingExpressionSyntax binding => binding.Name.Identifier,
        QualifiedNameSyntax qualified => qualified.Right.Identifier,
        AliasQualifiedNameSyntax alias => alias.Name.Identifier,
        _ => expression.GetFirstToken(),
    };

    public static void Add(Dictionary<ISymbol, List<Location>> calls, ISymbol symbol, Location site)
    {
        if (!calls.TryGetValue(symbol, out var sites))
        {
            calls[symbol] = sites = [];
        }
        sites.Add(site);
    }
}
