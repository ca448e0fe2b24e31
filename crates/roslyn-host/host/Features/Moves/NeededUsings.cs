using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// Decides which using directives a document needs by trial removal: a directive is needed when removing it
/// adds compiler errors to that document. (The compiler's unnecessary-using diagnostic is not reported when
/// documentation comments are not parsed, the default, so it cannot be relied on.)
/// </summary>
internal static class NeededUsings
{
    /// <summary>The candidates a document needs, given the errors it has with a set of them.</summary>
    public static async Task<List<UsingLine>> MinimizeAsync(
        IReadOnlyList<UsingLine> candidates,
        Func<IReadOnlyList<UsingLine>, Task<IReadOnlyList<Diagnostic>>> errorsWith,
        CancellationToken cancellationToken)
    {
        if (candidates.Count == 0)
        {
            return [];
        }
        var withAll = await errorsWith(candidates);
        var kept = new List<UsingLine>();
        foreach (var candidate in candidates)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (ErrorDiff.Grew(withAll, await errorsWith([.. candidates.Where(c => c != candidate)])))
            {
                kept.Add(candidate);
            }
        }
        // Two directives that each stand in for the other: keep them all rather than lose both.
        return kept.Count == candidates.Count || !ErrorDiff.Grew(withAll, await errorsWith(kept)) ? kept : [.. candidates];
    }

    /// <summary>
    /// In every edited document, removes the usings that were needed before the move and are not after it;
    /// directives that were already unnecessary are left alone.
    /// </summary>
    public static async Task RemoveObsoleteAsync(EditSet edits, CancellationToken cancellationToken)
    {
        var original = edits.Original;
        var after = await edits.BuildAsync(cancellationToken);
        foreach (var id in edits.Modified)
        {
            var document = original.GetDocument(id)!;
            var text = await document.GetTextAsync(cancellationToken);
            var root = await document.GetSyntaxRootAsync(cancellationToken);
            var changes = edits.ChangesOf(id);
            var directives = root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
                .OfType<UsingDirectiveSyntax>()
                .Where(u => u.GlobalKeyword.IsKind(SyntaxKind.None) && !UsingDirectives.Touched(changes, UsingDirectives.LinesOf(text, u)))
                .ToList();
            if (directives.Count == 0)
            {
                continue;
            }

            var errorsAfter = await ErrorDiff.OfDocumentAsync(after, id, cancellationToken);
            IReadOnlyList<Diagnostic>? errorsBefore = null;
            var removals = new List<TextChange>();
            foreach (var directive in directives)
            {
                var removal = UsingDirectives.Removal(text, directive);
                var trialAfter = await edits.TrialAsync(after, id, [removal], cancellationToken);
                if (ErrorDiff.Grew(errorsAfter, await ErrorDiff.OfDocumentAsync(trialAfter, id, cancellationToken)))
                {
                    continue;
                }
                errorsBefore ??= await ErrorDiff.OfDocumentAsync(original, id, cancellationToken);
                var trialBefore = original.WithDocumentText(id, text.WithChanges(removal));
                if (ErrorDiff.Grew(errorsBefore, await ErrorDiff.OfDocumentAsync(trialBefore, id, cancellationToken)))
                {
                    removals.Add(removal);
                }
            }
            if (removals.Count == 0)
            {
                continue;
            }
            var together = await edits.TrialAsync(after, id, removals, cancellationToken);
            if (!ErrorDiff.Grew(errorsAfter, await ErrorDiff.OfDocumentAsync(together, id, cancellationToken)))
            {
                edits.RemoveUsings(id, removals, "no longer needed");
            }
        }
    }
}
