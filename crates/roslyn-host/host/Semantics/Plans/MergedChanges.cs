using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// Text changes per file path, against the file's original text, gathered from changed solutions (a rename per
/// target framework, or one code action whose fix-all changed the file in each project that compiles it):
/// identical changes count once, different changes to one place are refused.
/// </summary>
internal sealed class MergedChanges(Solution original)
{
    private readonly SortedDictionary<string, HashSet<TextChange>> byPath = new(StringComparer.Ordinal);

    // The new texts whose changes were taken, per path: a framework's document that ends as one of them adds
    // nothing, though its changes, cut from another edit history, may be cut differently.
    private readonly Dictionary<string, List<SourceText>> taken = new(StringComparer.Ordinal);

    public IEnumerable<string> Paths => byPath.Keys;

    public int Count => byPath.Values.Sum(c => c.Count);

    public IReadOnlyList<TextChange> Of(string path) =>
        byPath.TryGetValue(path, out var changes) ? [.. changes.OrderBy(c => c.Span.Start).ThenBy(c => c.Span.Length)] : [];

    /// <summary>
    /// The original solution with the text changes <paramref name="changed"/> made, merged, in every project that
    /// compiles each changed file; refused as <see cref="CheckOverlaps"/> says.
    /// </summary>
    public static async Task<Solution> IntoEveryFrameworkAsync(Solution original, Solution changed, CancellationToken cancellationToken)
    {
        var merged = new MergedChanges(original);
        await merged.AddAsync(changed, cancellationToken);
        merged.CheckOverlaps();
        return await merged.ApplyAsync(cancellationToken);
    }

    /// <summary>Adds the changes <paramref name="renamed"/> made to every document of the original solution.</summary>
    public async Task AddAsync(Solution renamed, CancellationToken cancellationToken)
    {
        foreach (var project in renamed.GetChanges(original).GetProjectChanges())
        {
            foreach (var id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                var before = original.GetDocument(id)!;
                var after = renamed.GetDocument(id)!;
                var newText = await after.GetTextAsync(cancellationToken);
                if (!taken.TryGetValue(before.FilePath!, out var texts))
                {
                    taken[before.FilePath!] = texts = [];
                }
                if (texts.Any(t => t.ContentEquals(newText)))
                {
                    continue;
                }
                texts.Add(newText);
                var oldText = await before.GetTextAsync(cancellationToken);
                var oldTree = await before.GetSyntaxTreeAsync(cancellationToken);
                var newTree = await after.GetSyntaxTreeAsync(cancellationToken);
                var changes = newTree!.GetChanges(oldTree!);
                if (!byPath.TryGetValue(before.FilePath!, out var set))
                {
                    byPath[before.FilePath!] = set = [];
                }
                foreach (var change in changes)
                {
                    set.UnionWith(WordDiff.Split(change.Span.Start, oldText.ToString(change.Span), change.NewText ?? ""));
                }
            }
        }
    }

    /// <summary>Refuses different changes to one place (they would make the file differ by target framework).</summary>
    public void CheckOverlaps()
    {
        foreach (var (path, set) in byPath)
        {
            var sorted = Of(path);
            for (var i = 1; i < sorted.Count; i++)
            {
                var (a, b) = (sorted[i - 1], sorted[i]);
                if (a.Span.End > b.Span.Start || (a.Span.Start == b.Span.Start && a.Span.IsEmpty && b.Span.IsEmpty))
                {
                    throw new InvalidOperationException(
                        $"The target frameworks change {path} differently at {a.Span} ('{a.NewText}') and {b.Span} ('{b.NewText}')");
                }
            }
        }
    }

    /// <summary>Whether a change lies within <paramref name="span"/> of the file (an insertion at its end included).</summary>
    public bool Covers(string path, TextSpan span) => byPath.TryGetValue(path, out var set) && set.Any(c => span.Contains(c.Span));

    public async Task<SourceText> NewTextAsync(string path, CancellationToken cancellationToken)
    {
        var text = await OriginalText(path).GetTextAsync(cancellationToken);
        return text.WithChanges(Of(path));
    }

    public Document OriginalText(string path) => original.GetDocument(original.GetDocumentIdsWithFilePath(path)[0])!;

    /// <summary>The original solution with every document of each changed path (all its projects) changed.</summary>
    public async Task<Solution> ApplyAsync(CancellationToken cancellationToken)
    {
        var solution = original;
        foreach (var path in Paths)
        {
            var text = await NewTextAsync(path, cancellationToken);
            foreach (var id in original.GetDocumentIdsWithFilePath(path))
            {
                solution = solution.WithDocumentText(id, text);
            }
        }
        return solution;
    }

    /// <summary>Maps an original position of the file past the changes before it.</summary>
    public int Map(string path, int position)
    {
        var shift = 0;
        foreach (var change in Of(path))
        {
            if (change.Span.End <= position && !(change.Span.IsEmpty && change.Span.Start == position))
            {
                shift += change.NewText!.Length - change.Span.Length;
            }
        }
        return position + shift;
    }
}
