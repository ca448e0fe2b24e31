using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>The text of a declaration as whole lines: what moves with it, how it leaves, how it lands.</summary>
internal static class DeclarationText
{
    /// <summary>
    /// The whole lines a declaration occupies, with the comments directly above it (its doc comment); its
    /// attributes are part of it already. A comment separated by a blank line stays where it is.
    /// </summary>
    public static TextSpan MovedSpan(SourceText text, SyntaxNode declaration)
    {
        var first = SourceLines.AttachedStartLine(text, declaration);
        var last = text.Lines.GetLineFromPosition(declaration.Span.End).LineNumber;
        return TextSpan.FromBounds(text.Lines[first].Start, text.Lines[last].EndIncludingLineBreak);
    }

    /// <summary>
    /// Removes <paramref name="span"/> (whole lines) and the blank lines around it, leaving one blank line
    /// back only between two other declarations: no pile-up, no blank line after <c>{</c> or before <c>}</c>.
    /// </summary>
    public static TextChange Removal(SourceText text, TextSpan span, string lineBreak)
    {
        var first = text.Lines.GetLineFromPosition(span.Start).LineNumber;
        var last = text.Lines.GetLineFromPosition(span.End - 1).LineNumber;
        var before = first;
        while (before > 0 && IsBlank(text.Lines[before - 1]))
        {
            before--;
        }
        var after = last;
        while (after + 1 < text.Lines.Count && IsBlank(text.Lines[after + 1]) && text.Lines[after + 1].EndIncludingLineBreak > text.Lines[after + 1].Start)
        {
            after++;
        }
        var previous = before > 0 ? text.Lines[before - 1].ToString().Trim() : null;
        var next = after + 1 < text.Lines.Count ? text.Lines[after + 1].ToString().Trim() : null;
        var hadBlank = before < first || after > last;
        var keepOne = hadBlank
            && !string.IsNullOrEmpty(previous) && !string.IsNullOrEmpty(next)
            && !previous.EndsWith('{') && !next.StartsWith('}');
        var removed = TextSpan.FromBounds(text.Lines[before].Start, text.Lines[after].EndIncludingLineBreak);
        return new TextChange(removed, keepOne ? lineBreak : "");
    }

    /// <summary>
    /// The lines of <paramref name="span"/> re-indented from the declaration's indentation to
    /// <paramref name="indent"/>, with <paramref name="lineBreak"/> line breaks; lines inside multi-line
    /// string literals are kept as they are.
    /// </summary>
    public static string Reindent(SourceText text, SyntaxNode root, SyntaxNode declaration, TextSpan span, string indent, string lineBreak)
    {
        var declarationLine = text.Lines.GetLineFromPosition(declaration.SpanStart);
        var sourceIndent = LeadingWhitespace(declarationLine.ToString());
        var builder = new StringBuilder();
        var first = text.Lines.GetLineFromPosition(span.Start).LineNumber;
        var last = text.Lines.GetLineFromPosition(span.End - 1).LineNumber;
        for (var i = first; i <= last; i++)
        {
            var line = text.Lines[i];
            var content = line.ToString();
            var token = root.FindToken(line.Start);
            if (i > first && token.Span.Start < line.Start && token.Span.End > line.Start)
            {
                builder.Append(content);
            }
            else if (content.Trim().Length == 0)
            {
                // Blank lines stay empty.
            }
            else if (content.StartsWith(sourceIndent, StringComparison.Ordinal))
            {
                builder.Append(indent).Append(content.AsSpan(sourceIndent.Length));
            }
            else
            {
                builder.Append(indent).Append(content.TrimStart());
            }
            builder.Append(lineBreak);
        }
        return builder.ToString();
    }

    public static string LeadingWhitespace(string line) => line[..(line.Length - line.TrimStart().Length)];

    public static bool IsBlank(TextLine line) => line.ToString().Trim().Length == 0;
}
