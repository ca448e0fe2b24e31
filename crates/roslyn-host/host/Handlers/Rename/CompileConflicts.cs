using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Handlers.Plans;

namespace RoslynMcp.Host.Handlers.Rename;

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

    public static async Task CheckAsync(Solution before, Solution after, ISymbol symbol, string newName, CancellationToken cancellationToken)
    {
        var added = await AddedErrors.BetweenAsync(before, after, cancellationToken);
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
}
