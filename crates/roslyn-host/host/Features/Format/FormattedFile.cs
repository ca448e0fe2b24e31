using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Format;

/// <summary>A file's text formatted with each document's own options (its <c>.editorconfig</c> included).</summary>
internal static class FormattedFile
{
    /// <summary>The formatted text, and the number of places (gaps between two tokens) it changed.</summary>
    public readonly record struct Formatted(SourceText Text, int Places);

    /// <summary>
    /// Formats the file as each way the projects compiling it see it in turn (<see cref="PreprocessorViews"/>),
    /// so that code under an <c>#if</c> only one target framework defines (disabled text for the others) is
    /// formatted too, and a file without one is formatted once. With <paramref name="span"/>, only that part of
    /// the original text; it is carried past what each pass changed in it.
    /// </summary>
    public static async Task<Formatted> FormatAsync(IReadOnlyList<Document> documents, TextSpan? span, CancellationToken cancellationToken)
    {
        var text = await documents[0].GetTextAsync(cancellationToken);
        (Document Original, Document Formatted)? lastChange = null;
        foreach (var document in await PreprocessorViews.DistinctAsync(documents, cancellationToken))
        {
            // A document whose text is still the file's keeps its parsed tree: only a pass that changed it reparses.
            var current = (await document.GetTextAsync(cancellationToken)).ContentEquals(text) ? document : document.WithText(text);
            var formatted = span is { } part
                ? await Formatter.FormatAsync(current, part, options: null, cancellationToken)
                : await Formatter.FormatAsync(current, options: null, cancellationToken);
            var formattedText = await formatted.GetTextAsync(cancellationToken);
            if (span is { } covered)
            {
                span = new TextSpan(covered.Start, Math.Max(0, covered.Length + formattedText.Length - text.Length));
            }
            if (!formattedText.ContentEquals(text))
            {
                lastChange = (document, formatted);
            }
            text = formattedText;
        }
        // The last pass that changed something sees every change: the earlier ones are in its text too.
        return new Formatted(text, lastChange is ({ } original, { } done) ? await PlacesAsync(original, done, text, cancellationToken) : 0);
    }

    private static async Task<int> PlacesAsync(Document original, Document formatted, SourceText text, CancellationToken cancellationToken) =>
        ChangedGaps(
            await original.GetSyntaxRootAsync(cancellationToken), await original.GetTextAsync(cancellationToken),
            await formatted.GetSyntaxRootAsync(cancellationToken), text)
        ?? TreeChanges(await original.GetSyntaxTreeAsync(cancellationToken), text);

    /// <summary>
    /// The places a format changed: runs of gaps between tokens whose text (whitespace, comments, directives)
    /// differs, one token apart. Null when the tokens differ in kind or length (a format never changes them).
    /// </summary>
    private static int? ChangedGaps(SyntaxNode? before, SourceText beforeText, SyntaxNode? after, SourceText afterText)
    {
        if (before is null || after is null)
        {
            return null;
        }
        using var was = before.DescendantTokens().GetEnumerator();
        using var @is = after.DescendantTokens().GetEnumerator();
        var (wasEnd, isEnd, changed, previousChanged) = (0, 0, 0, false);
        while (was.MoveNext())
        {
            if (!@is.MoveNext() || was.Current.RawKind != @is.Current.RawKind || was.Current.Span.Length != @is.Current.Span.Length)
            {
                return null;
            }
            var (wasGap, isGap) = (TextSpan.FromBounds(wasEnd, was.Current.SpanStart), TextSpan.FromBounds(isEnd, @is.Current.SpanStart));
            var gapChanged = !SameText(beforeText, wasGap, afterText, isGap);
            if (gapChanged && !previousChanged)
            {
                changed++;
            }
            previousChanged = gapChanged;
            (wasEnd, isEnd) = (was.Current.Span.End, @is.Current.Span.End);
        }
        return @is.MoveNext() ? null : changed;
    }

    private static bool SameText(SourceText a, TextSpan inA, SourceText b, TextSpan inB)
    {
        if (inA.Length != inB.Length)
        {
            return false;
        }
        for (var i = 0; i < inA.Length; i++)
        {
            if (a[inA.Start + i] != b[inB.Start + i])
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>The places a tree diff finds: slower, for a text whose tokens changed.</summary>
    private static int TreeChanges(SyntaxTree? tree, SourceText text) => tree is null ? 1 : tree.WithChangedText(text).GetChanges(tree).Count;
}
