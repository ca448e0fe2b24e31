using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// How deeply a snippet's syntax nests, measured without recursion. Binding recurses once or more per level, and
/// a stack overflow ends the process whatever catches it, so a snippet deeper than <see cref="SnippetLimit"/> is
/// refused before it is bound.
/// </summary>
public static class SyntaxDepth
{
    /// <summary>Nesting levels a snippet may have: far beyond hand-written code, far below what a stack holds.</summary>
    public const int SnippetLimit = 1_000;

    /// <summary>The most syntax nodes inside <paramref name="span"/> on one path from <paramref name="root"/> down.</summary>
    public static int Within(SyntaxNode root, TextSpan span)
    {
        var deepest = 0;
        var pending = new Stack<(SyntaxNode Node, int Depth)>();
        pending.Push((root, 0));
        while (pending.TryPop(out var next))
        {
            var depth = next.Depth + (span.Contains(next.Node.Span) ? 1 : 0);
            deepest = Math.Max(deepest, depth);
            foreach (var child in next.Node.ChildNodes())
            {
                if (child.FullSpan.IntersectsWith(span))
                {
                    pending.Push((child, depth));
                }
            }
        }
        return deepest;
    }

    /// <summary>Refuses a snippet nested deeper than <see cref="SnippetLimit"/> with INVALID_PARAMETER.</summary>
    public static void EnsureSnippetWithinLimit(SyntaxNode root, TextSpan snippet)
    {
        var depth = Within(root, snippet);
        if (depth > SnippetLimit)
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                $"The code nests {depth} syntax levels deep; at most {SnippetLimit} levels are analyzed",
                new JsonObject { ["parameter"] = "code", ["depth"] = depth, ["limit"] = SnippetLimit },
                "Split the code into smaller statements or methods");
        }
    }
}
