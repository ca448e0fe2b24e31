using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// Parameters of private methods never read (IDE0060), which Roslyn removes only through its change-signature
/// dialog: the parameter goes with its argument at every call. A method used other than by calling it (a
/// delegate, <c>nameof</c>), or called with an argument that does something, keeps the parameter.
/// </summary>
internal static class UnusedParameters
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
                || await LinkedReferences.OfAsync(state, item.Path, span, s => s.ContainingSymbol, editable, cancellationToken) is not { } calls)
            {
                continue;
            }
            var declarationEditor = await editor.GetDocumentEditorAsync(state.DocumentAt(item.Path)!.Id, cancellationToken);
            if (declarationEditor.OriginalRoot.FindToken(span.Start).Parent is not ParameterSyntax { Parent: ParameterListSyntax list } parameter)
            {
                continue;
            }
            var ordinal = list.Parameters.IndexOf(parameter);
            var arguments = new List<(DocumentEditor Editor, ArgumentSyntax? Argument)>();
            foreach (var (path, at) in calls)
            {
                var documentEditor = await editor.GetDocumentEditorAsync(state.DocumentAt(path)!.Id, cancellationToken);
                if (!ArgumentAt(documentEditor.OriginalRoot, at.Start, ordinal, parameter.Identifier.ValueText, out var argument))
                {
                    break;
                }
                arguments.Add((documentEditor, argument));
            }
            if (arguments.Count < calls.Count)
            {
                continue;
            }
            foreach (var (documentEditor, argument) in arguments.Where(a => a.Argument is not null))
            {
                documentEditor.RemoveNode(argument!);
            }
            declarationEditor.RemoveNode(parameter);
            removed.Add(item);
        }
        await state.CommitAsync(editor.GetChangedSolution(), cancellationToken);
        return removed;
    }

    /// <summary>
    /// The argument a call of the method named at <paramref name="position"/> passes for the parameter (null when
    /// it passes none: an optional parameter left out); false when the reference is no call or the argument does
    /// something.
    /// </summary>
    private static bool ArgumentAt(SyntaxNode root, int position, int ordinal, string name, out ArgumentSyntax? argument)
    {
        argument = null;
        if (root.FindToken(position).Parent is not SimpleNameSyntax called)
        {
            return false;
        }
        var callee = called.Parent is MemberAccessExpressionSyntax access && access.Name == called ? (ExpressionSyntax)access : called;
        if (callee.Parent is not InvocationExpressionSyntax invocation || invocation.Expression != callee)
        {
            return false;
        }
        var passed = invocation.ArgumentList.Arguments;
        argument = passed.FirstOrDefault(a => a.NameColon?.Name.Identifier.ValueText == name)
            ?? (ordinal < passed.Count && passed[ordinal].NameColon is null ? passed[ordinal] : null);
        return argument is null || (argument.RefKindKeyword.IsKind(Microsoft.CodeAnalysis.CSharp.SyntaxKind.None) && PureExpressions.Is(argument.Expression));
    }
}
