using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics;

/// <summary>A source text as whole lines: the line break it uses, where a declaration's attached comments start.</summary>
internal static class SourceLines
{
    /// <summary>The line break the file uses (its first one).</summary>
    public static string LineBreakOf(SourceText text)
    {
        foreach (var line in text.Lines)
        {
            if (line.EndIncludingLineBreak > line.End)
            {
                return text.ToString(TextSpan.FromBounds(line.End, line.EndIncludingLineBreak));
            }
        }
        return Environment.NewLine;
    }

    /// <summary>The first line of a declaration's attached comments, or of the declaration itself.</summary>
    public static int AttachedStartLine(SourceText text, SyntaxNode declaration)
    {
        var first = text.Lines.GetLineFromPosition(declaration.SpanStart).LineNumber;
        while (first > 0 && text.Lines[first - 1].Start >= declaration.FullSpan.Start && IsCommentLine(text.Lines[first - 1]))
        {
            first--;
        }
        return first;
    }

    private static bool IsCommentLine(TextLine line)
    {
        var content = line.ToString().TrimStart();
        return content.StartsWith("//", StringComparison.Ordinal)
            || content.StartsWith("/*", StringComparison.Ordinal)
            || content.StartsWith('*');
    }
}
