using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>The members a type declares, by the identifier a diagnostic points at, and the syntax removing one removes.</summary>
internal static class MemberDeclarations
{
    /// <summary>The declarations of methods, properties, events and field variables in a document, with their identifiers.</summary>
    public static IEnumerable<(SyntaxNode Declaration, SyntaxToken Identifier)> In(SyntaxNode root) =>
        root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax)
            .SelectMany<SyntaxNode, (SyntaxNode, SyntaxToken)>(node => node switch
            {
                MethodDeclarationSyntax method => [(method, method.Identifier)],
                PropertyDeclarationSyntax property => [(property, property.Identifier)],
                EventDeclarationSyntax @event => [(@event, @event.Identifier)],
                BaseFieldDeclarationSyntax field => field.Declaration.Variables.Select(v => ((SyntaxNode)v, v.Identifier)),
                _ => [],
            });

    /// <summary>
    /// What goes when the member whose identifier starts at <paramref name="position"/> is removed: its
    /// declaration, or the whole field declaration when it declares only this variable.
    /// </summary>
    public static SyntaxNode? ToRemove(SyntaxNode root, int position) => root.FindToken(position).Parent switch
    {
        VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1, Parent: BaseFieldDeclarationSyntax field } } => field,
        VariableDeclaratorSyntax variable => variable,
        MemberDeclarationSyntax member => member,
        _ => null,
    };
}
