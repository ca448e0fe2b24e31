using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Delete;

/// <summary>
/// The syntax that goes with a symbol: a type's declarations (every part), a member's, a field's or event's
/// variable (the whole declaration when it declares only that one), an enum member, a local function, a local's
/// statement (or its variable).
/// </summary>
internal static class DeletedDeclarations
{
    public static async Task<List<SyntaxNode>> OfAsync(ISymbol symbol, CancellationToken cancellationToken)
    {
        var nodes = new List<SyntaxNode>();
        foreach (var reference in symbol.DeclaringSyntaxReferences)
        {
            if (ToRemove(await reference.GetSyntaxAsync(cancellationToken)) is { } node)
            {
                nodes.Add(node);
            }
        }
        return nodes;
    }

    private static SyntaxNode? ToRemove(SyntaxNode declared) => declared switch
    {
        VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1, Parent: BaseFieldDeclarationSyntax or LocalDeclarationStatementSyntax } declaration } =>
            declaration.Parent,
        VariableDeclaratorSyntax variable => variable,
        MemberDeclarationSyntax or LocalFunctionStatementSyntax => declared,
        _ => null,
    };

    /// <summary>
    /// The text deleting the node removes (one of several variables: it and a comma); else its leading trivia (a doc comment, the blank line before it) and its
    /// own text, but not what the leading trivia holds up to its last directive: code that another target
    /// framework compiles under <c>#if</c> is trivia (disabled text) to this one, and goes with nobody's node.
    /// </summary>
    public static TextSpan Span(SyntaxNode node)
    {
        if (node is VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables: var variables } })
        {
            // One of several variables: it goes with the comma that joins it to a neighbour.
            var index = variables.IndexOf((VariableDeclaratorSyntax)node);
            return index < variables.Count - 1
                ? TextSpan.FromBounds(node.SpanStart, variables[index + 1].SpanStart)
                : TextSpan.FromBounds(variables.GetSeparator(index - 1).SpanStart, node.Span.End);
        }
        return TextSpan.FromBounds(NodeRemoval.LastDirective(node) is { } last ? last.FullSpan.End : node.FullSpan.Start, node.FullSpan.End);
    }

    /// <summary>Whether a file's text declares nothing once the deletion is made: no type, member or statement.</summary>
    public static bool Emptied(SyntaxNode root) =>
        !root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .Any(n => n is MemberDeclarationSyntax and not BaseNamespaceDeclarationSyntax);
}
