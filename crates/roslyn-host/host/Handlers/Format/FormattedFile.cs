using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Handlers.Format;

/// <summary>A file's text formatted with each document's own options (its <c>.editorconfig</c> included).</summary>
internal static class FormattedFile
{
    /// <summary>
    /// Formats the file as each project compiling it sees it in turn, so that code under an <c>#if</c> only one
    /// target framework defines (disabled text for the others) is formatted too. With <paramref name="span"/>,
    /// only that part of the original text; it is carried past what each pass changed in it.
    /// </summary>
    public static async Task<SourceText> FormatAsync(IReadOnlyList<Document> documents, TextSpan? span, CancellationToken cancellationToken)
    {
        var text = await documents[0].GetTextAsync(cancellationToken);
        foreach (var document in documents)
        {
            var current = document.WithText(text);
            var formatted = span is { } part
                ? await Formatter.FormatAsync(current, part, options: null, cancellationToken)
                : await Formatter.FormatAsync(current, options: null, cancellationToken);
            var formattedText = await formatted.GetTextAsync(cancellationToken);
            if (span is { } covered)
            {
                span = new TextSpan(covered.Start, Math.Max(0, covered.Length + formattedText.Length - text.Length));
            }
            text = formattedText;
        }
        return text;
    }
}
