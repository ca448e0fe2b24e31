using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Rename;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// What Roslyn's engine does not do, done on its result in every member it changed: renamed parameters (Roslyn's
/// renamer: the declaration, the body, named arguments at calls, <c>&lt;param&gt;</c> and <c>&lt;paramref&gt;</c>
/// tags) and parameters given another type (the declaration's type; the compile check refuses calls whose
/// arguments no longer convert).
/// </summary>
internal static class ParameterEdits
{
    public static async Task<MergedChanges> ApplyAsync(
        Solution changed,
        IEnumerable<ISymbol> membersAfter,
        NewSignature signature,
        CancellationToken cancellationToken)
    {
        var edits = new MergedChanges(changed);
        foreach (var member in membersAfter)
        {
            var parameters = ParameterLists.Of(member);
            foreach (var (ordinal, newName) in signature.Renamed)
            {
                if (signature.NewIndexOf(ordinal) is { } index && index < parameters.Count)
                {
                    var options = new SymbolRenameOptions(RenameOverloads: false, RenameInStrings: false, RenameInComments: false, RenameFile: false);
                    await edits.AddAsync(await Renamer.RenameSymbolAsync(changed, parameters[index], options, newName, cancellationToken), cancellationToken);
                }
            }
            foreach (var (ordinal, type) in signature.Retyped)
            {
                if (signature.NewIndexOf(ordinal) is { } index && index < parameters.Count
                    && await parameters[index].DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntaxAsync(cancellationToken)! is ParameterSyntax { Type: { } declared } parameter)
                {
                    await edits.AddAsync(await RetypedAsync(changed, parameter.SyntaxTree.FilePath, declared.Span, type, cancellationToken), cancellationToken);
                }
            }
        }
        edits.CheckOverlaps();
        return edits;
    }

    /// <summary>The solution with the type's text replaced in every project that compiles the file.</summary>
    private static async Task<Solution> RetypedAsync(Solution solution, string path, TextSpan span, string type, CancellationToken cancellationToken)
    {
        var ids = solution.GetDocumentIdsWithFilePath(path);
        var text = (await solution.GetDocument(ids[0])!.GetTextAsync(cancellationToken)).WithChanges(new TextChange(span, type));
        foreach (var id in ids)
        {
            solution = solution.WithDocumentText(id, text);
        }
        return solution;
    }
}
