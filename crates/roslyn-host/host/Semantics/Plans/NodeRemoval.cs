using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Editing;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// Removing a declaration or statement without the code before it that another target framework compiles: to
/// the framework a plan is computed in, code under another's <c>#if</c> is disabled text in the leading trivia of
/// the node that follows it, and removing that node with its trivia would delete the code for every framework.
/// </summary>
internal static class NodeRemoval
{
    /// <summary>Removes <paramref name="node"/> and its own leading trivia after the last directive there.</summary>
    public static void Remove(SyntaxEditor editor, SyntaxNode node)
    {
        if (LastDirective(node) is not { } last)
        {
            editor.RemoveNode(node);
            return;
        }
        var leading = node.GetLeadingTrivia();
        var kept = new SyntaxTriviaList(leading.Take(leading.IndexOf(last) + 1));
        editor.ReplaceNode(node, (current, _) => current.WithLeadingTrivia(kept));
        editor.RemoveNode(node, SyntaxRemoveOptions.KeepLeadingTrivia);
    }

    /// <summary>The last directive or disabled text of the node's leading trivia, if any.</summary>
    public static SyntaxTrivia? LastDirective(SyntaxNode node) =>
        node.GetLeadingTrivia().Where(t => t.IsDirective || t.IsKind(SyntaxKind.DisabledTextTrivia)).Select(t => (SyntaxTrivia?)t).LastOrDefault();
}
