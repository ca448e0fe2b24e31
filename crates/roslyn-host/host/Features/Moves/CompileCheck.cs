using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// Compiles the moved solution in memory and refuses the move when a project that changed, or depends on one
/// that did, has errors it did not have before.
/// </summary>
internal static class CompileCheck
{
    // CS0122 inaccessible; CS0050–CS0061 inconsistent accessibility.
    private static readonly HashSet<string> AccessibilityErrors =
        ["CS0122", .. Enumerable.Range(50, 12).Select(n => $"CS{n:D4}")];

    public static async Task RunAsync(Solution before, Solution after, MovedType type, CancellationToken cancellationToken)
    {
        var sorted = await AddedErrors.BetweenAsync(before, after, cancellationToken);
        if (sorted.Count == 0)
        {
            return;
        }
        var accessibility = sorted.Where(e => AccessibilityErrors.Contains(e.Id)).ToList();
        throw accessibility.Count > 0
            ? MoveErrors.BreaksAccessibility(type.Name, accessibility)
            : MoveErrors.CompilationError(sorted);
    }
}
