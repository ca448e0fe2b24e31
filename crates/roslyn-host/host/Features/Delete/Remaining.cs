using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Features.Delete;

/// <summary>
/// The references that would outlive a deletion: every place any target framework finds for the symbol, outside
/// what is deleted. Any is a refusal (STILL_REFERENCED) with the first places; find_references pages through all.
/// </summary>
internal static class Remaining
{
    private const int Listed = 50;

    public static async Task CheckAsync(
        Solution solution,
        IReadOnlyList<ISymbol> views,
        Func<string, TextSpan, bool> deleted,
        string what,
        CancellationToken cancellationToken)
    {
        var places = new SortedDictionary<(string Path, int Start), Location>();
        foreach (var view in views)
        {
            foreach (var location in (await SymbolFinder.FindReferencesAsync(view, solution, cancellationToken)).SelectMany(r => r.Locations))
            {
                var at = location.Location;
                if (!at.IsInSource || location.IsImplicit || deleted(at.SourceTree!.FilePath, at.SourceSpan))
                {
                    continue;
                }
                places.TryAdd((at.SourceTree.FilePath, at.SourceSpan.Start), at);
            }
        }
        if (places.Count == 0)
        {
            return;
        }
        var listed = places.Values.Take(Listed).Select(l => l.GetLineSpan()).ToList();
        throw HostErrorException.Create(
            ErrorCode.StillReferenced,
            $"{what} is still referenced in {places.Count} place{(places.Count == 1 ? "" : "s")}; the first at {listed[0].Path}:{listed[0].StartLinePosition.Line + 1}:{listed[0].StartLinePosition.Character + 1}",
            new JsonObject
            {
                ["totalReferences"] = places.Count,
                ["references"] = new JsonArray([.. listed.Select(l => new JsonObject
                {
                    ["file"] = l.Path,
                    ["line"] = l.StartLinePosition.Line + 1,
                    ["column"] = l.StartLinePosition.Character + 1,
                })]),
            },
            "Remove or redirect those uses first; find_references at the same position pages through every one");
    }
}
