using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// The members of a document whose code spells one of a set of names. A change that only renames such names can
/// add errors only there: a name is looked up only where it is written, and a declaration's clash is reported at a
/// declaration that spells it. A name spelled in a type's header (its base list, attributes or parameters) takes
/// the whole type.
/// </summary>
internal static class SpelledMembers
{
    /// <summary>
    /// The members' spans, merged; null when a name is spelled outside every type (a using, a top-level
    /// statement, an assembly attribute): then the whole document is in question.
    /// </summary>
    public static List<TextSpan>? Of(SyntaxNode root, IReadOnlySet<string> names)
    {
        var spans = new List<TextSpan>();
        foreach (var token in root.DescendantTokens())
        {
            if (!token.IsKind(SyntaxKind.IdentifierToken) || !names.Contains(token.ValueText))
            {
                continue;
            }
            var member = token.Parent?.AncestorsAndSelf().OfType<MemberDeclarationSyntax>().FirstOrDefault();
            if (member is null or BaseNamespaceDeclarationSyntax or GlobalStatementSyntax)
            {
                return null;
            }
            spans.Add(member.FullSpan);
        }
        return Merged(spans);
    }

    private static List<TextSpan> Merged(List<TextSpan> spans)
    {
        var merged = new List<TextSpan>();
        foreach (var span in spans.OrderBy(s => s.Start))
        {
            if (merged.Count > 0 && merged[^1].End >= span.Start)
            {
                merged[^1] = TextSpan.FromBounds(merged[^1].Start, Math.Max(merged[^1].End, span.End));
            }
            else
            {
                merged.Add(span);
            }
        }
        return merged;
    }
}
