using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Navigation;

/// <summary>
/// The symbols a snippet declares and uses, from the model of the document it was inserted into.
/// <paramref name="original"/> is that document before the insertion.
/// </summary>
internal sealed class SnippetSymbols(SemanticModel model, TextSpan snippet, Document original)
{
    private readonly List<SyntaxNode> nodes = [.. model.SyntaxTree.GetRoot().DescendantNodes(snippet).Where(n => snippet.Contains(n.Span))];

    /// <summary>Locals (also from <c>out var</c>, patterns, deconstruction, <c>foreach</c>), local functions, members, types.</summary>
    public ValueList<SymbolSummary> Declared(CancellationToken cancellationToken) => nodes
        .Where(n => n is VariableDeclaratorSyntax or SingleVariableDesignationSyntax or ForEachStatementSyntax
            or CatchDeclarationSyntax or LocalFunctionStatementSyntax or BaseTypeDeclarationSyntax or DelegateDeclarationSyntax
            or BaseMethodDeclarationSyntax or BasePropertyDeclarationSyntax or EnumMemberDeclarationSyntax
            or FromClauseSyntax or LetClauseSyntax or JoinClauseSyntax or JoinIntoClauseSyntax or QueryContinuationSyntax)
        .Select(n => model.GetDeclaredSymbol(n, cancellationToken))
        .OfType<ISymbol>()
        .Distinct(SymbolEqualityComparer.Default)
        .Select(SymbolFormat.Summarize)
        .ToValueList();

    /// <summary>
    /// What the snippet's names bind to, except what it declares itself (lambda parameters included) and
    /// namespaces; each once, in order of first use, located in the files as they are.
    /// </summary>
    public async Task<ValueList<SymbolRef>> UsedAsync(CancellationToken cancellationToken)
    {
        var used = new List<SymbolRef>();
        var keys = new HashSet<string>(StringComparer.Ordinal);
        foreach (var name in nodes.OfType<SimpleNameSyntax>())
        {
            if (name is IdentifierNameSyntax { IsVar: true })
            {
                continue;
            }
            var info = model.GetSymbolInfo(name, cancellationToken);
            if ((info.Symbol ?? info.CandidateSymbols.FirstOrDefault()) is not { } symbol
                || symbol is INamespaceSymbol or IDiscardSymbol
                || IsDeclaredInSnippet(symbol))
            {
                continue;
            }
            var reference = await SymbolFormat.RefAsync(await OriginalAsync(Definitions.Of(symbol), cancellationToken), cancellationToken);
            if (keys.Add(reference.Symbol.Key))
            {
                used.Add(reference);
            }
        }
        return used.ToValueList();
    }

    private bool IsDeclaredInSnippet(ISymbol symbol) =>
        symbol.Locations.Any(l => l.SourceTree == model.SyntaxTree && snippet.Contains(l.SourceSpan));

    /// <summary>
    /// The same symbol in the solution without the snippet, so that its declaration is where it really is.
    /// Only symbols declared in the edited document need this: every other file is unchanged.
    /// </summary>
    private async Task<ISymbol> OriginalAsync(ISymbol symbol, CancellationToken cancellationToken)
    {
        if (symbol.Locations.FirstOrDefault(l => l.SourceTree == model.SyntaxTree) is not { } location)
        {
            return symbol;
        }
        if (symbol.GetDocumentationCommentId() is { } id
            && await original.Project.GetCompilationAsync(cancellationToken) is { } compilation
            && DocumentationCommentId.GetFirstSymbolForDeclarationId(id, compilation) is { } member)
        {
            return member;
        }
        // Locals, parameters, local functions: found at their declaration, which the snippet pushed back if after it.
        var start = location.SourceSpan.Start;
        var originalStart = start >= snippet.End ? start - snippet.Length : start;
        var found = await SymbolFinder.FindSymbolAtPositionAsync(original, originalStart, cancellationToken);
        return found is not null && found.Kind == symbol.Kind && found.Name == symbol.Name ? found : symbol;
    }
}
