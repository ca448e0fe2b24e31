using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics;

/// <summary>A using directive as one line of text; <see cref="Namespace"/> is set for a plain <c>using N;</c>.</summary>
internal sealed record UsingLine(string Text, string? Namespace)
{
    public static UsingLine For(string ns) => new($"using {ns};", ns);

    public static UsingLine Of(UsingDirectiveSyntax directive) => new(
        directive.WithoutTrivia().NormalizeWhitespace().ToFullString(),
        IsPlain(directive) ? Names.Of(directive.NamespaceOrType) : null);

    public static bool IsPlain(UsingDirectiveSyntax directive) =>
        directive.Alias is null && directive.StaticKeyword.IsKind(SyntaxKind.None);

    /// <summary>System namespaces first, then by name; aliases and <c>using static</c> after them.</summary>
    public (int Group, string Name) SortKey => Namespace switch
    {
        null => (2, Text),
        "System" => (0, Namespace),
        _ when Namespace.StartsWith("System.", StringComparison.Ordinal) => (0, Namespace),
        _ => (1, Namespace),
    };

    public static int Compare(UsingLine a, UsingLine b)
    {
        var group = a.SortKey.Group.CompareTo(b.SortKey.Group);
        if (group != 0)
        {
            return group;
        }
        var name = StringComparer.OrdinalIgnoreCase.Compare(a.SortKey.Name, b.SortKey.Name);
        return name != 0 ? name : StringComparer.Ordinal.Compare(a.SortKey.Name, b.SortKey.Name);
    }
}

/// <summary>Reading, adding and removing using directives as whole-line text changes.</summary>
internal static class UsingDirectives
{
    /// <summary>The usings in effect at a declaration: the file's and those of the namespaces around it (not global ones).</summary>
    public static List<UsingLine> InScope(SyntaxNode node)
    {
        var root = (CompilationUnitSyntax)node.SyntaxTree.GetRoot();
        var scoped = node.AncestorsAndSelf().OfType<BaseNamespaceDeclarationSyntax>().Reverse().SelectMany(ns => ns.Usings);
        return [.. root.Usings.Concat(scoped).Where(u => u.GlobalKeyword.IsKind(SyntaxKind.None)).Select(UsingLine.Of).Distinct()];
    }

    /// <summary>True when a plain <c>using ns;</c> is in effect at the node.</summary>
    public static bool Imports(SyntaxNode node, string ns) => InScope(node).Any(u => u.Namespace == ns);

    /// <summary>
    /// Inserts the lines into the file's using block: a plain using before the first existing one that sorts
    /// after it (System first), others after the block; a file without usings gets a block and a blank line.
    /// </summary>
    public static List<TextChange> Insertions(SourceText text, CompilationUnitSyntax root, IEnumerable<UsingLine> lines, string lineBreak)
    {
        var existing = root.Usings;
        var plain = existing.Where(UsingLine.IsPlain).ToList();
        var at = new SortedDictionary<int, StringBuilder>();
        var wanted = lines.Where(l => !existing.Any(e => UsingLine.Of(e).Text == l.Text)).ToList();
        wanted.Sort(UsingLine.Compare);
        foreach (var line in wanted)
        {
            int position;
            var next = line.Namespace is null ? null : plain.FirstOrDefault(p => UsingLine.Compare(UsingLine.Of(p), line) > 0);
            if (next is not null)
            {
                position = LineStart(text, next);
            }
            else if (line.Namespace is not null && plain.Count > 0)
            {
                position = LineEnd(text, plain[^1]);
            }
            else if (existing.Count > 0)
            {
                position = LineEnd(text, existing[^1]);
            }
            else
            {
                position = TopOfFile(text, root);
            }
            if (!at.TryGetValue(position, out var builder))
            {
                at[position] = builder = new StringBuilder();
            }
            builder.Append(line.Text).Append(lineBreak);
        }
        if (existing.Count == 0 && at.Count > 0)
        {
            at.Values.Last().Append(lineBreak);
        }
        return [.. at.Select(p => new TextChange(new TextSpan(p.Key, 0), p.Value.ToString()))];
    }

    /// <summary>Removes a directive's lines.</summary>
    public static TextChange Removal(SourceText text, UsingDirectiveSyntax directive) =>
        new(LinesOf(text, directive), "");

    public static TextSpan LinesOf(SourceText text, SyntaxNode node) =>
        TextSpan.FromBounds(LineStart(text, node), LineEnd(text, node));

    /// <summary>True when one of the changes edits inside the directive's lines (touching their ends is fine).</summary>
    public static bool Touched(IEnumerable<TextChange> changes, TextSpan lines) => changes.Any(change =>
        change.Span.Length == 0
            ? change.Span.Start > lines.Start && change.Span.Start < lines.End
            : change.Span.Start < lines.End && change.Span.End > lines.Start);

    /// <summary>Without usings left, the blank lines that separated them from the code go too.</summary>
    public static string TrimLeadingBlankLines(string text)
    {
        var root = CSharpSyntaxTree.ParseText(text).GetCompilationUnitRoot();
        if (root.Usings.Count > 0 || root.Externs.Count > 0)
        {
            return text;
        }
        var start = 0;
        while (start < text.Length)
        {
            var end = text.IndexOf('\n', start);
            if (end < 0 || text.AsSpan(start, end - start).Trim().Length > 0)
            {
                break;
            }
            start = end + 1;
        }
        return text[start..];
    }

    private static int LineStart(SourceText text, SyntaxNode node) => text.Lines.GetLineFromPosition(node.SpanStart).Start;

    private static int LineEnd(SourceText text, SyntaxNode node) => text.Lines.GetLineFromPosition(node.Span.End).EndIncludingLineBreak;

    private static int TopOfFile(SourceText text, CompilationUnitSyntax root)
    {
        SyntaxNode? first = root.Externs.FirstOrDefault() ?? (SyntaxNode?)root.AttributeLists.FirstOrDefault() ?? root.Members.FirstOrDefault();
        return first is null ? text.Length : text.Lines[SourceLines.AttachedStartLine(text, first)].Start;
    }
}
