using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>Removes the unnecessary using directives found in the original, where they stand now, as organize usings does.</summary>
internal static class UsingsRound
{
    public static async Task<List<UnusedItem>> RunAsync(EvolvingSolution state, IReadOnlyList<UnusedItem> items, CancellationToken cancellationToken)
    {
        var changed = state.Current;
        var removed = new List<UnusedItem>();
        foreach (var byPath in items.GroupBy(i => i.Path))
        {
            var kept = byPath.Select(i => (Item: i, Span: state.Map(i.Path, i.Span))).Where(i => i.Span is not null).ToList();
            if (kept.Count == 0 || state.DocumentAt(byPath.Key) is not { } document)
            {
                continue;
            }
            var text = UnusedUsings.Remove(await document.GetTextAsync(cancellationToken), [.. kept.Select(i => i.Span!.Value)]);
            changed = changed.WithDocumentText(document.Id, text);
            removed.AddRange(kept.Select(i => i.Item));
        }
        await state.CommitAsync(changed, cancellationToken);
        return removed;
    }
}
