using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Span = RoslynMcp.Host.Protocol.Span;

namespace RoslynMcp.Host.Features.FindReplace;

/// <summary>The matches found in one file, and its text with each replaced.</summary>
internal sealed class FileReplacement(SearchedFile file, IReadOnlyList<TextChange> replacements)
{
    public SearchedFile File => file;

    public SourceText NewText { get; } = file.Text.WithChanges(replacements);

    /// <summary>The replacements that change the text.</summary>
    public int Changes { get; } = replacements.Count(r => file.Text.ToString(r.Span) != r.NewText);

    /// <summary>Each match where it stands in the original text, with its first line before and after.</summary>
    public IEnumerable<TextMatch> Matches()
    {
        var lines = file.Text.Lines;
        foreach (var replacement in replacements)
        {
            var at = lines.GetLinePositionSpan(replacement.Span);
            var line = lines.GetLineFromPosition(replacement.Span.Start);
            yield return new TextMatch(
                new Span(file.Path, (uint)at.Start.Line + 1, (uint)at.Start.Character + 1, (uint)at.End.Line + 1, (uint)at.End.Character + 1),
                Shown(file.Text.ToString(replacement.Span)),
                Shown(replacement.NewText!),
                Shown(line.ToString()),
                Shown(LinesAfter(line.Start, line.End)));
        }
    }

    /// <summary>Characters of a match's text, replacement or lines listed: a replacement can be any length.</summary>
    private const int MaxShown = 1000;

    /// <summary>At most <see cref="MaxShown"/> characters, and what was cut.</summary>
    public static string Shown(string text, int max = MaxShown) =>
        text.Length <= max ? text : $"{text[..max]}… ({text.Length - max} more characters)";

    /// <summary>
    /// The new text's whole lines holding what became of the original line: more than one when a replacement
    /// brought a line break, or a match reaching into the line started on an earlier one.
    /// </summary>
    private string LinesAfter(int start, int end)
    {
        var lines = NewText.Lines;
        var from = lines.GetLineFromPosition(Map(start, atEnd: false)).Start;
        var to = lines.GetLineFromPosition(Map(end, atEnd: true)).End;
        return NewText.ToString(TextSpan.FromBounds(from, Math.Max(from, to)));
    }

    /// <summary>
    /// An original position in the new text; one inside a replaced span maps to the start of its replacement, or
    /// with <paramref name="atEnd"/> to its end.
    /// </summary>
    private int Map(int position, bool atEnd)
    {
        var shift = 0;
        foreach (var replacement in replacements)
        {
            var span = replacement.Span;
            if (span.End <= position)
            {
                shift += replacement.NewText!.Length - span.Length;
            }
            else if (span.Start < position)
            {
                return span.Start + shift + (atEnd ? replacement.NewText!.Length : 0);
            }
            else
            {
                break;
            }
        }
        return position + shift;
    }
}
