using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Semantics;

/// <summary>Namespace and type names as plain dotted strings ("" is the global namespace).</summary>
internal static class Names
{
    /// <summary><c>Moves.Core.Services.AreaCalculator.Options</c>: containing types included, no generics, no <c>global::</c>.</summary>
    public static readonly SymbolDisplayFormat Qualified = SymbolDisplayFormat.FullyQualifiedFormat
        .WithGlobalNamespaceStyle(SymbolDisplayGlobalNamespaceStyle.Omitted)
        .WithGenericsOptions(SymbolDisplayGenericsOptions.None);

    public static string Qualify(string ns, string name) => ns.Length == 0 ? name : ns + "." + name;

    public static string NamespaceOf(ISymbol symbol) =>
        symbol.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString(Qualified) : "";

    /// <summary>A name as written, without trivia or inner whitespace.</summary>
    public static string Of(SyntaxNode name) => string.Concat(name.DescendantTokens().Select(t => t.Text));

    /// <summary>The namespace a node is declared in, from the namespace declarations around it.</summary>
    public static string EnclosingNamespace(SyntaxNode node) =>
        string.Join(".", node.Ancestors().OfType<BaseNamespaceDeclarationSyntax>().Reverse().Select(ns => Of(ns.Name)));

    /// <summary><c>A.B.C</c>, <c>A.B</c>, <c>A</c>: the namespaces whose types a declaration in <paramref name="ns"/> sees unqualified.</summary>
    public static IEnumerable<string> Chain(string ns)
    {
        var current = ns;
        while (current.Length > 0)
        {
            yield return current;
            var dot = current.LastIndexOf('.');
            current = dot < 0 ? "" : current[..dot];
        }
    }

    /// <summary>True when code in <paramref name="enclosing"/> sees the types of <paramref name="ns"/> without a using.</summary>
    public static bool IsWithin(string enclosing, string ns) =>
        enclosing == ns || enclosing.StartsWith(ns + ".", StringComparison.Ordinal);

    public static int EditDistance(string a, string b)
    {
        a = a.ToLowerInvariant();
        b = b.ToLowerInvariant();
        var previous = Enumerable.Range(0, b.Length + 1).ToArray();
        for (var i = 1; i <= a.Length; i++)
        {
            var current = new int[b.Length + 1];
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                var substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                current[j] = Math.Min(substitution, Math.Min(previous[j], current[j - 1]) + 1);
            }
            previous = current;
        }
        return previous[b.Length];
    }
}
