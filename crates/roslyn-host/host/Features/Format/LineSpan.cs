using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.Format;

/// <summary>A 1-based inclusive range of lines as the text span it covers, line breaks left out.</summary>
internal static class LineSpan
{
    public static TextSpan Of(SourceText text, LineRange lines, string file)
    {
        var lineCount = text.Lines.Count;
        if (lines.StartLine < 1 || lines.StartLine > lines.EndLine || lines.EndLine > lineCount)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidLineNumber,
                $"Lines {lines.StartLine}-{lines.EndLine} are not a range of {file}, which has {lineCount} lines",
                new JsonObject { ["startLine"] = lines.StartLine, ["endLine"] = lines.EndLine, ["lineCount"] = lineCount },
                "Lines are 1-based and inclusive, the start at most the end");
        }
        return TextSpan.FromBounds(text.Lines[(int)lines.StartLine - 1].Start, text.Lines[(int)lines.EndLine - 1].End);
    }
}
