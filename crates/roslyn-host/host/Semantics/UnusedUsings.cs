using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics;

/// <summary>What the projects compiling a file agree may go, and what one of them still needs.</summary>
internal sealed record UsingVote(IReadOnlyList<TextSpan> Removals, IReadOnlyList<string> Kept);

/// <summary>
/// Using directives the compiler reports unnecessary (CS8019) or duplicated (CS0105) in every project that
/// compiles the file and sees the directive (one inside an inactive <c>#if</c> branch is disabled text there and
/// does not vote). Global usings are never removed.
/// </summary>
internal static class UnusedUsings
{
    private static readonly HashSet<string> UnnecessaryIds = ["CS8019", "CS0105"];

    public static async Task<UsingVote> VoteAsync(IReadOnlyList<Document> documents, CancellationToken cancellationToken)
    {
        var active = new Dictionary<TextSpan, (string Text, List<string> Needed, int Votes)>();
        foreach (var document in documents)
        {
            var root = await document.GetSyntaxRootAsync(cancellationToken);
            var model = await document.GetSemanticModelAsync(cancellationToken);
            if (root is null || model is null)
            {
                continue;
            }
            var unnecessary = model.GetDiagnostics(cancellationToken: cancellationToken)
                .Where(d => UnnecessaryIds.Contains(d.Id))
                .Select(d => d.Location.SourceSpan)
                .ToList();
            foreach (var directive in root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax).OfType<UsingDirectiveSyntax>())
            {
                if (!directive.GlobalKeyword.IsKind(SyntaxKind.None))
                {
                    continue;
                }
                var span = directive.Span;
                var entry = active.TryGetValue(span, out var found) ? found : (Text: UsingLine.Of(directive).Text, Needed: new List<string>(), Votes: 0);
                entry.Votes++;
                if (!unnecessary.Any(u => u.IntersectsWith(span)))
                {
                    entry.Needed.Add(document.Project.Name);
                }
                active[span] = entry;
            }
        }
        var removals = active.Where(a => a.Value.Needed.Count == 0).Select(a => a.Key).Order().ToList();
        var file = Path.GetFileName(documents[0].FilePath);
        var kept = active.Values
            .Where(a => a.Needed.Count > 0 && a.Needed.Count < a.Votes)
            .Select(a => $"Kept {a.Text.TrimEnd(';')} in {file}: needed by {string.Join(", ", a.Needed)}")
            .ToList();
        return new UsingVote(removals, kept);
    }

    /// <summary>
    /// Removes the directives' lines, leaving <c>#if</c> lines and comments on their own lines; without usings
    /// left, the blank lines that separated them from the code go too.
    /// </summary>
    public static SourceText Remove(SourceText text, IReadOnlyList<TextSpan> directives)
    {
        var changes = directives
            .Select(span => new TextChange(
                TextSpan.FromBounds(text.Lines.GetLineFromPosition(span.Start).Start, text.Lines.GetLineFromPosition(span.End).EndIncludingLineBreak),
                ""))
            .Distinct();
        var changed = text.WithChanges(changes).ToString();
        return SourceText.From(UsingDirectives.TrimLeadingBlankLines(changed), text.Encoding, text.ChecksumAlgorithm);
    }
}
