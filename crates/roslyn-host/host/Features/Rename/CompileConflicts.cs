using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// Compiles the renamed solution: errors saying a name is declared twice, ambiguous or hidden are name
/// collisions at their places; any other new error refuses the rename as a compilation error.
/// </summary>
internal static class CompileConflicts
{
    // Duplicate definitions (CS0100–CS0102, CS0111, CS0128), a name hiding one of an enclosing scope (CS0136, CS0412),
    // ambiguous calls, members and references (CS0121, CS0229, CS0104).
    private static readonly HashSet<string> CollisionIds =
        ["CS0100", "CS0101", "CS0102", "CS0111", "CS0128", "CS0136", "CS0412", "CS0121", "CS0229", "CS0104"];

    public static async Task CheckAsync(
        Solution before,
        Solution after,
        ISymbol symbol,
        IReadOnlyList<ISymbol> renamed,
        string newName,
        CancellationToken cancellationToken)
    {
        var names = ScopeNames(symbol, renamed, newName);
        // The renamer changes names (and comments and strings when asked), nothing else that compiles.
        var added = await AddedErrors.WhereSpelledAsync(before, after, names, cancellationToken, renamesOnly: true);
        if (added.Count == 0)
        {
            return;
        }
        var collisions = added.Where(e => CollisionIds.Contains(e.Id)).ToList();
        if (collisions.Count > 0)
        {
            var conflicts = collisions.Select(e => Conflict.At(e.Location, newName, e.Id)).Distinct().ToList();
            throw RenameErrors.Collision(
                symbol,
                newName,
                $"Renaming {symbol.Name} to {newName} would collide with another declaration: {PlanErrors.Describe(collisions[0])}",
                conflicts);
        }
        throw PlanErrors.CompilationError("rename", added, "Choose another name, or fix the code the error points at first");
    }

    /// <summary>
    /// A rename can add errors only where code spells the old or the new name (what bound to the symbol and was
    /// missed, or what binds to it now), in the documents it changed, and, for a member other types implement or
    /// override, where those types are named: the names whose documents are checked alone, in every project the
    /// change reaches.
    /// </summary>
    private static HashSet<string> ScopeNames(ISymbol symbol, IReadOnlyList<ISymbol> renamed, string newName)
    {
        var bare = newName.TrimStart('@');
        var names = new HashSet<string>(StringComparer.Ordinal) { symbol.Name, bare };
        foreach (var name in names.ToList().Where(n => n.EndsWith("Attribute", StringComparison.Ordinal) && n.Length > "Attribute".Length))
        {
            names.Add(name[..^"Attribute".Length]);
        }
        foreach (var member in renamed.Where(s => s.IsVirtual || s.IsAbstract || s.IsOverride || s.ContainingType?.TypeKind == TypeKind.Interface))
        {
            names.Add(member.ContainingType.Name);
        }
        return names;
    }
}
