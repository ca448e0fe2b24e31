using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Features.Sources;

/// <summary>A type's declaration with its members' bodies gone: methods end with <c>;</c>, properties list their accessors.</summary>
internal sealed class SignaturesOnly : CSharpSyntaxRewriter
{
    private static readonly SyntaxToken Semicolon = SyntaxFactory.Token(SyntaxKind.SemicolonToken);

    public override SyntaxNode? VisitMethodDeclaration(MethodDeclarationSyntax node) => Bodiless(node);

    public override SyntaxNode? VisitConstructorDeclaration(ConstructorDeclarationSyntax node) => Bodiless(node.WithInitializer(null));

    public override SyntaxNode? VisitDestructorDeclaration(DestructorDeclarationSyntax node) => Bodiless(node);

    public override SyntaxNode? VisitOperatorDeclaration(OperatorDeclarationSyntax node) => Bodiless(node);

    public override SyntaxNode? VisitConversionOperatorDeclaration(ConversionOperatorDeclarationSyntax node) => Bodiless(node);

    public override SyntaxNode? VisitPropertyDeclaration(PropertyDeclarationSyntax node) =>
        node.WithIdentifier(node.Identifier.WithTrailingTrivia())
            .WithExpressionBody(null)
            .WithInitializer(null)
            .WithSemicolonToken(default)
            .WithAccessorList(AccessorsOf(node.AccessorList))
            .WithTrailingTrivia(node.GetTrailingTrivia());

    public override SyntaxNode? VisitIndexerDeclaration(IndexerDeclarationSyntax node) =>
        node.WithParameterList(node.ParameterList.WithTrailingTrivia())
            .WithExpressionBody(null)
            .WithSemicolonToken(default)
            .WithAccessorList(AccessorsOf(node.AccessorList))
            .WithTrailingTrivia(node.GetTrailingTrivia());

    public override SyntaxNode? VisitEventDeclaration(EventDeclarationSyntax node) =>
        node.WithIdentifier(node.Identifier.WithTrailingTrivia())
            .WithAccessorList(AccessorsOf(node.AccessorList))
            .WithTrailingTrivia(node.GetTrailingTrivia());

    /// <summary>The member up to its signature, then <c>;</c> and what followed the body.</summary>
    private static BaseMethodDeclarationSyntax Bodiless(BaseMethodDeclarationSyntax node)
    {
        if (node.Body is null && node.ExpressionBody is null)
        {
            return node;
        }
        var signature = node.WithBody(null).WithExpressionBody(null).WithSemicolonToken(default);
        var last = signature.GetLastToken();
        return signature.ReplaceToken(last, last.WithTrailingTrivia()).WithSemicolonToken(Semicolon.WithTrailingTrivia(node.GetTrailingTrivia()));
    }

    /// <summary>The accessors without bodies (<c>{ get; set; }</c>); an expression-bodied member has a getter.</summary>
    private static AccessorListSyntax AccessorsOf(AccessorListSyntax? accessors)
    {
        var kept = accessors?.Accessors.Select(a => SyntaxFactory.AccessorDeclaration(a.Kind()).WithModifiers(a.Modifiers).WithSemicolonToken(Semicolon))
            ?? [SyntaxFactory.AccessorDeclaration(SyntaxKind.GetAccessorDeclaration).WithSemicolonToken(Semicolon)];
        return SyntaxFactory.AccessorList(SyntaxFactory.List(kept)).NormalizeWhitespace().WithLeadingTrivia(SyntaxFactory.Space);
    }
}
