using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// The solution as the removal rounds change it, each file kept the same in every project that compiles it, and
/// the text changes of every round, to find a place of the original text in the current one.
/// </summary>
internal sealed class EvolvingSolution(Solution original)
{
    private readonly Dictionary<string, List<IReadOnlyList<TextChange>>> rounds = new(StringComparer.Ordinal);

    public Solution Original { get; } = original;

    public Solution Current { get; private set; } = original;

    /// <summary>The document of a path the rounds change (the first project by name), in the current solution.</summary>
    public Document? DocumentAt(string path) => PositionResolver.DocumentAt(Current, path);

    /// <summary>Every document of a path in the current solution, the first project by name first.</summary>
    public List<Document> DocumentsAt(string path) => PositionResolver.DocumentsAt(Current, path);

    /// <summary>
    /// Where an original span stands now; null once a round changed text inside it (it went with something
    /// removed around it, or was rewritten).
    /// </summary>
    public TextSpan? Map(string path, TextSpan span)
    {
        if (!rounds.TryGetValue(path, out var list))
        {
            return span;
        }
        foreach (var changes in list)
        {
            var shift = 0;
            foreach (var change in changes)
            {
                if (change.Span.End <= span.Start && !(change.Span.IsEmpty && change.Span.Start == span.Start))
                {
                    shift += change.NewText!.Length - change.Span.Length;
                }
                else if (change.Span.Start < span.End || (change.Span.IsEmpty && change.Span.Start == span.Start))
                {
                    return null;
                }
            }
            span = new TextSpan(span.Start + shift, span.Length);
        }
        return span;
    }

    /// <summary>
    /// Takes the changes a round made (to one document per path, or to several) into every project compiling each
    /// changed file, and records them for <see cref="Map"/>.
    /// </summary>
    public async Task CommitAsync(Solution changed, CancellationToken cancellationToken)
    {
        var edits = await SolutionEdits.BetweenAsync(Current, changed, "", cancellationToken);
        foreach (var edit in edits.Edits)
        {
            var before = await DocumentAt(edit.Path)!.GetTextAsync(cancellationToken);
            var after = await PositionResolver.DocumentAt(edits.After, edit.Path)!.GetTextAsync(cancellationToken);
            var changes = after.GetTextChanges(before).OrderBy(c => c.Span.Start).ToList();
            (rounds.TryGetValue(edit.Path, out var list) ? list : rounds[edit.Path] = []).Add(changes);
        }
        Current = edits.After;
    }
}
