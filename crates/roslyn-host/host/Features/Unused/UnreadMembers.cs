using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// Private members written and never read (IDE0052), which Roslyn has no code fix for: the declaration goes with
/// every statement that writes it. A write whose value calls something keeps the call as a statement; a member
/// written any other way (an <c>out</c> argument, an assignment inside an expression) is kept whole.
/// </summary>
internal static class UnreadMembers
{
    public static async Task<List<UnusedItem>> RemoveAsync(
        EvolvingSolution state,
        IReadOnlyList<UnusedItem> items,
        IReadOnlySet<string> editable,
        CancellationToken cancellationToken)
    {
        var editor = new SolutionEditor(state.Current);
        var removed = new List<UnusedItem>();
        foreach (var item in items)
        {
            if (state.Map(item.Path, item.Span) is not { } span
                || await LinkedReferences.OfAsync(state, item.Path, span, s => s, editable, cancellationToken) is not { } references)
            {
                continue;
            }
            var writes = new List<(DocumentEditor Editor, StatementSyntax Statement, ExpressionSyntax? Kept)>();
            foreach (var (path, at) in references)
            {
                var documentEditor = await editor.GetDocumentEditorAsync(state.DocumentAt(path)!.Id, cancellationToken);
                if (WriteAt(documentEditor.OriginalRoot, at.Start) is not { } write)
                {
                    break;
                }
                writes.Add((documentEditor, write.Statement, write.Kept));
            }
            var declarationEditor = await editor.GetDocumentEditorAsync(state.DocumentAt(item.Path)!.Id, cancellationToken);
            if (writes.Count < references.Count || MemberDeclarations.ToRemove(declarationEditor.OriginalRoot, span.Start) is not { } declaration)
            {
                continue;
            }
            foreach (var (documentEditor, statement, kept) in writes)
            {
                if (kept is null)
                {
                    NodeRemoval.Remove(documentEditor, statement);
                }
                else
                {
                    documentEditor.ReplaceNode(statement, SyntaxFactory.ExpressionStatement(kept.WithoutTrivia()).WithTriviaFrom(statement));
                }
            }
            NodeRemoval.Remove(declarationEditor, declaration);
            removed.Add(item);
        }
        await state.CommitAsync(editor.GetChangedSolution(), cancellationToken);
        return removed;
    }

    /// <summary>
    /// The statement of a block that only writes the member named at <paramref name="position"/> (<c>x = ...;</c>,
    /// <c>this.x += ...;</c>, <c>x++;</c>), and the part of the value to keep as a statement; null when the
    /// reference is anything else.
    /// </summary>
    private static (StatementSyntax Statement, ExpressionSyntax? Kept)? WriteAt(SyntaxNode root, int position)
    {
        if (root.FindToken(position).Parent is not IdentifierNameSyntax name)
        {
            return null;
        }
        ExpressionSyntax target = name.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } access && access.Name == name ? access : name;
        ExpressionSyntax? value;
        switch (target.Parent)
        {
            case AssignmentExpressionSyntax assignment when assignment.Left == target:
                value = assignment.Right;
                break;
            case PostfixUnaryExpressionSyntax or PrefixUnaryExpressionSyntax:
                value = null;
                break;
            default:
                return null;
        }
        if (target.Parent.Parent is not ExpressionStatementSyntax { Parent: BlockSyntax } statement)
        {
            return null;
        }
        return value is null || PureExpressions.Is(value)
            ? (statement, null)
            : value is InvocationExpressionSyntax or ObjectCreationExpressionSyntax or AwaitExpressionSyntax ? (statement, value) : null;
    }
}
