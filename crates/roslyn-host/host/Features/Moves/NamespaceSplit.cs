using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// A namespace move that keeps the type in its file: the declaration leaves the block namespace it shares
/// and lands in a new block <c>namespace Target { }</c> right after it, laid out like the original.
/// </summary>
internal static class NamespaceSplit
{
    /// <summary>The top-level block namespace the type sits in (possibly through nested ones), if any.</summary>
    public static NamespaceDeclarationSyntax? BlockAround(MovedType type) =>
        type.Declaration.Ancestors().OfType<BaseNamespaceDeclarationSyntax>().LastOrDefault() as NamespaceDeclarationSyntax;

    public static void Apply(EditSet edits, MovedType type, NamespaceDeclarationSyntax block, string target)
    {
        var moved = Extraction.RemoveFromSource(edits, type);
        edits.Change(type.Document.Id, [NewBlock(type, block, moved, target)], $"Declare {type.Name} in a new namespace block {target}");
    }

    /// <summary>
    /// The insertion after the block's last line, one blank line apart: the block's indentation and brace
    /// placement, the type indented as the block's members.
    /// </summary>
    private static TextChange NewBlock(MovedType type, NamespaceDeclarationSyntax block, TextSpan moved, string target)
    {
        var text = type.Text;
        var lineBreak = SourceLines.LineBreakOf(text);
        var outer = IndentOf(text, block.SpanStart);
        var inner = IndentOf(text, block.Members[0].SpanStart);
        var typeText = DeclarationText.Reindent(text, type.Root, type.Declaration, moved, inner, lineBreak);
        var braceOnNameLine = text.Lines.GetLineFromPosition(block.OpenBraceToken.SpanStart).LineNumber
            == text.Lines.GetLineFromPosition(block.Name.Span.End).LineNumber;
        var opening = braceOnNameLine ? " {" : lineBreak + outer + "{";
        var declaration = $"{outer}namespace {target}{opening}{lineBreak}{typeText}{outer}}}";

        var last = text.Lines.GetLineFromPosition(block.Span.End);
        // A file without a final line break keeps none.
        return last.EndIncludingLineBreak > last.End
            ? new TextChange(new TextSpan(last.EndIncludingLineBreak, 0), lineBreak + declaration + lineBreak)
            : new TextChange(new TextSpan(last.End, 0), lineBreak + lineBreak + declaration);
    }

    private static string IndentOf(SourceText text, int position) =>
        DeclarationText.LeadingWhitespace(text.Lines.GetLineFromPosition(position).ToString());
}
