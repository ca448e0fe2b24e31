using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using TextSpan = Microsoft.CodeAnalysis.Text.TextSpan;

namespace RoslynMcp.Host.Features.Navigation;

public static class DocumentSymbolsHandler
{
    public static async Task<DocumentSymbolList> HandleAsync(Solution solution, DocumentRequest request, CancellationToken cancellationToken)
    {
        var document = PositionResolver.FindDocument(solution, request.File);
        var model = await document.GetSemanticModelAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");
        var root = await model.SyntaxTree.GetRootAsync(cancellationToken);

        var symbols = new List<DocumentSymbol>();
        var names = new Dictionary<SyntaxNode, string>();
        // Preorder: document order, and every container named before what it contains.
        foreach (var node in root.DescendantNodes())
        {
            if (Declared(node) is not { } declared || model.GetDeclaredSymbol(node, cancellationToken) is not { } symbol)
            {
                continue;
            }
            var name = declared.Name ?? symbol.Name;
            names[node] = name;
            symbols.Add(new DocumentSymbol(
                name,
                SymbolFormat.KindOf(symbol),
                SymbolFormat.ToSpan(model.SyntaxTree, declared.Range),
                SymbolFormat.ToSpan(model.SyntaxTree, declared.Selection),
                node.Ancestors().Select(a => names.GetValueOrDefault(a)).FirstOrDefault(n => n is not null),
                symbol.ToDisplayString(SymbolFormat.Display)));
        }
        return new DocumentSymbolList(symbols.ToValueList());
    }

    /// <param name="Range">The whole declaration (a field's for each of its variables).</param>
    /// <param name="Selection">What names it: the identifier, an operator's token, a namespace's name.</param>
    /// <param name="Name">As written, or null for Roslyn's name (<c>op_Addition</c>, <c>op_Implicit</c>, <c>this[]</c>).</param>
    private readonly record struct Declaration(TextSpan Range, TextSpan Selection, string? Name);

    /// <summary>What a listed declaration node declares; null for nodes not listed (locals, parameters, accessors, ...).</summary>
    private static Declaration? Declared(SyntaxNode node) => node switch
    {
        BaseNamespaceDeclarationSyntax ns => new(ns.Span, ns.Name.Span, ns.Name.ToString()),
        BaseTypeDeclarationSyntax type => Named(type, type.Identifier),
        DelegateDeclarationSyntax @delegate => Named(@delegate, @delegate.Identifier),
        MethodDeclarationSyntax method => Named(method, method.Identifier),
        ConstructorDeclarationSyntax constructor => Named(constructor, constructor.Identifier),
        // Roslyn's name, `Finalize`, would hide what it is.
        DestructorDeclarationSyntax destructor => new(destructor.Span, destructor.Identifier.Span, "~" + destructor.Identifier.ValueText),
        OperatorDeclarationSyntax @operator => new(@operator.Span, @operator.OperatorToken.Span, null),
        ConversionOperatorDeclarationSyntax conversion => new(conversion.Span, conversion.Type.Span, null),
        PropertyDeclarationSyntax property => Named(property, property.Identifier),
        IndexerDeclarationSyntax indexer => new(indexer.Span, indexer.ThisKeyword.Span, null),
        EventDeclarationSyntax @event => Named(@event, @event.Identifier),
        EnumMemberDeclarationSyntax member => Named(member, member.Identifier),
        LocalFunctionStatementSyntax local => Named(local, local.Identifier),
        // `int a, b;` and `event Action A, B;` declare one symbol per variable.
        VariableDeclaratorSyntax { Parent.Parent: BaseFieldDeclarationSyntax field } variable =>
            new(field.Span, variable.Identifier.Span, variable.Identifier.ValueText),
        _ => null,
    };

    private static Declaration Named(SyntaxNode node, SyntaxToken identifier) => new(node.Span, identifier.Span, identifier.ValueText);

}
