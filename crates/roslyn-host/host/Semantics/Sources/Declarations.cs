using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics.Sources;

/// <summary>Where one declaration of a metadata document is: its declared name, and the whole declaration.</summary>
public readonly record struct DeclarationSpan(TextSpan Name, TextSpan Whole);

/// <summary>
/// The declarations of C# that no project compiles (a PDB's embedded source, decompiled text), by documentation
/// comment id. The text is bound in a throwaway compilation with the references of a project that references its
/// assembly, so each declaration is known by the symbol the compiler sees it declare: overloads differing only
/// in type arguments (<c>Sum(IEnumerable&lt;int&gt;)</c>, <c>Sum(IEnumerable&lt;decimal&gt;)</c>) or by being
/// explicit implementations are told apart as the compiler tells them apart.
/// </summary>
public static class Declarations
{
    /// <summary>Every type and member declared in <paramref name="tree"/>, by its documentation comment id.</summary>
    public static IReadOnlyDictionary<string, DeclarationSpan> Index(
        SyntaxTree tree, IEnumerable<MetadataReference> references, CancellationToken cancellationToken)
    {
        var compilation = CSharpCompilation.Create(
            "roslyn-mcp-metadata-document",
            [tree],
            references,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, allowUnsafe: true));
        var model = compilation.GetSemanticModel(tree);
        var index = new Dictionary<string, DeclarationSpan>(StringComparer.Ordinal);
        var declarations = tree.GetRoot(cancellationToken)
            .DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or BaseTypeDeclarationSyntax
                or BaseFieldDeclarationSyntax or VariableDeclarationSyntax)
            .Where(n => n is MemberDeclarationSyntax and not BaseNamespaceDeclarationSyntax and not BaseFieldDeclarationSyntax
                or VariableDeclaratorSyntax);
        foreach (var node in declarations)
        {
            if (model.GetDeclaredSymbol(node, cancellationToken)?.GetDocumentationCommentId() is { Length: > 0 } id)
            {
                // Text the decompiler could not make compile may declare an id twice: the first declaration keeps it.
                index.TryAdd(id, new DeclarationSpan(Identifier(node).Span, Whole(node).Span));
            }
        }
        return index;
    }

    /// <summary>
    /// The id a symbol's declaration has in an index: a use's declared symbol (<c>List&lt;T&gt;</c> for
    /// <c>List&lt;string&gt;</c>, the static method of a reduced extension call), an accessor's property or event.
    /// </summary>
    public static string? IdOf(ISymbol symbol)
    {
        var declared = Definitions.Of(symbol);
        if (declared is IMethodSymbol { AssociatedSymbol: { } associated })
        {
            declared = associated.OriginalDefinition;
        }
        return declared.GetDocumentationCommentId();
    }

    /// <summary>A field's or an event field's declaration is its whole statement, not the one variable.</summary>
    private static SyntaxNode Whole(SyntaxNode node) =>
        node is VariableDeclaratorSyntax { Parent.Parent: BaseFieldDeclarationSyntax field } ? field : node;

    /// <summary>The declared name of a declaration node.</summary>
    private static SyntaxToken Identifier(SyntaxNode node) => node switch
    {
        BaseTypeDeclarationSyntax type => type.Identifier,
        DelegateDeclarationSyntax @delegate => @delegate.Identifier,
        MethodDeclarationSyntax method => method.Identifier,
        ConstructorDeclarationSyntax ctor => ctor.Identifier,
        DestructorDeclarationSyntax dtor => dtor.Identifier,
        PropertyDeclarationSyntax property => property.Identifier,
        EventDeclarationSyntax @event => @event.Identifier,
        IndexerDeclarationSyntax indexer => indexer.ThisKeyword,
        OperatorDeclarationSyntax op => op.OperatorToken,
        ConversionOperatorDeclarationSyntax conversion => conversion.Type.GetFirstToken(),
        VariableDeclaratorSyntax variable => variable.Identifier,
        EnumMemberDeclarationSyntax enumMember => enumMember.Identifier,
        _ => node.GetFirstToken(),
    };
}
