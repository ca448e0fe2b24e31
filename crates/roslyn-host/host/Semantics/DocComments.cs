using System.Text.RegularExpressions;
using System.Xml;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics;

/// <summary>The text of a symbol's XML documentation: its summary and its parameters'.</summary>
public static partial class DocComments
{
    /// <summary>The whitespace-collapsed text of the summary, if any.</summary>
    public static string? Summary(ISymbol symbol)
    {
        var summary = Parse(symbol)?.Descendants("summary").FirstOrDefault();
        return summary is null || Text(summary) is not { Length: > 0 } text ? null : text;
    }

    /// <summary>The whitespace-collapsed text of each <c>&lt;param&gt;</c>, by name.</summary>
    public static Dictionary<string, string> Parameters(ISymbol symbol)
    {
        var docs = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var param in Parse(symbol)?.Descendants("param") ?? [])
        {
            if ((string?)param.Attribute("name") is { } name && Text(param) is { Length: > 0 } text)
            {
                docs.TryAdd(name, text);
            }
        }
        return docs;
    }

    /// <summary>Malformed documentation reads as none.</summary>
    private static XDocument? Parse(ISymbol symbol)
    {
        var xml = symbol.GetDocumentationCommentXml(expandIncludes: true);
        if (string.IsNullOrWhiteSpace(xml))
        {
            return null;
        }
        try
        {
            return XDocument.Parse(xml);
        }
        catch (XmlException)
        {
            return null;
        }
    }

    /// <summary>
    /// An element's text; <c>&lt;see cref="T:System.String"/&gt;</c> reads as its last name part when it has no text
    /// of its own.
    /// </summary>
    private static string Text(XElement element) => Whitespace().Replace(
        string.Concat(element.DescendantNodes().Select(node => node switch
        {
            XText t => t.Value,
            XElement { IsEmpty: true } e => ((string?)e.Attribute("cref") ?? (string?)e.Attribute("langword") ?? (string?)e.Attribute("name") ?? "")
                .Split(':', '.').Last(),
            _ => "",
        })),
        " ").Trim();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}
