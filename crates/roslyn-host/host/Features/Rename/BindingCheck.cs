using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// After the rename, exactly the places that referred to the symbol still do: one more or one less means code
/// that would silently bind to something else (a capture or a shadowing).
/// </summary>
internal static class BindingCheck
{
    public static void Run(ISymbol symbol, string newName, IReadOnlyList<Place> before, IReadOnlyList<Place> after, MergedChanges changes)
    {
        var expected = before.Select(p => (p.Path, Start: changes.Map(p.Path, p.Span.Start))).ToHashSet();
        var actual = after.Select(p => (p.Path, p.Span.Start)).ToHashSet();
        if (expected.SetEquals(actual))
        {
            return;
        }
        var lost = before.Where(p => !actual.Contains((p.Path, changes.Map(p.Path, p.Span.Start))))
            .Select(p => Conflict.At(p.Location, newName, "WouldBindElsewhere"));
        var captured = after.Where(p => !expected.Contains((p.Path, p.Span.Start)))
            .Select(p => Conflict.At(p.Location, newName, "WouldBindToRenamed"));
        var conflicts = lost.Concat(captured).ToList();
        throw RenameErrors.Collision(
            symbol,
            newName,
            $"Renaming {symbol.Name} to {newName} would change what code binds to: {before.Count} places refer to it now, " +
            $"{after.Count} would after ({string.Join("; ", conflicts.Take(3))})",
            conflicts);
    }
}
