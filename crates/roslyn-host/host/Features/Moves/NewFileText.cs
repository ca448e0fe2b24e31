using System.Text;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>The text of a file created for a moved type, laid out as by hand.</summary>
internal static class NewFileText
{
    public const string Indent = "    ";

    public static string IndentFor(string ns, bool fileScoped) => ns.Length == 0 || fileScoped ? "" : Indent;

    /// <summary>
    /// Usings (System first), a blank line, the namespace (file-scoped or block, none for the global one) and
    /// the type. <paramref name="typeText"/> is already indented for its place (<see cref="IndentFor"/>) and ends
    /// with a line break.
    /// </summary>
    public static string Compose(IEnumerable<UsingLine> usings, string ns, bool fileScoped, string typeText, string lineBreak)
    {
        var builder = new StringBuilder();
        var sorted = usings.ToList();
        sorted.Sort(UsingLine.Compare);
        foreach (var line in sorted)
        {
            builder.Append(line.Text).Append(lineBreak);
        }
        if (sorted.Count > 0)
        {
            builder.Append(lineBreak);
        }
        if (ns.Length == 0)
        {
            builder.Append(typeText);
        }
        else if (fileScoped)
        {
            builder.Append("namespace ").Append(ns).Append(';').Append(lineBreak).Append(lineBreak).Append(typeText);
        }
        else
        {
            builder.Append("namespace ").Append(ns).Append(lineBreak).Append('{').Append(lineBreak);
            builder.Append(typeText);
            builder.Append('}').Append(lineBreak);
        }
        return builder.ToString();
    }
}
