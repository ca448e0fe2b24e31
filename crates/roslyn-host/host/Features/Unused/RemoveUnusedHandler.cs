using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// Plans removing what is unused in one document, one project (every target framework) or the solution: what
/// every project compiling a file reports on the original is removed, kind by kind, in a fixed order, on the
/// solution as the earlier kinds left it (a local inside a removed method goes with the method and is not
/// reported). Generated files are neither examined nor edited; the plan must compile without new errors.
/// </summary>
public static class RemoveUnusedHandler
{
    public static async Task<RemoveUnusedPlan> HandleAsync(Solution solution, RemoveUnusedRequest request, CancellationToken cancellationToken)
    {
        var kinds = request.Kinds.Count == 0 ? Enum.GetValues<UnusedKind>().ToHashSet() : request.Kinds.ToHashSet();
        var phases = new PlanPhases();
        var paths = await CoveredFiles.PathsAsync(solution, request.File, request.Project, cancellationToken);
        var found = await FoundItems.InAsync(solution, paths, kinds, request.IncludePublic, cancellationToken);
        phases.End("Roslyn's analyzers");
        // The files an edit may touch beyond those examined: every non-generated file of the solution.
        var everyFile = request.File is null && request.Project is null ? paths : await CoveredFiles.PathsAsync(solution, null, null, cancellationToken);
        var editable = everyFile.ToHashSet(StringComparer.Ordinal);

        var state = new EvolvingSolution(solution);
        var removed = new List<UnusedItem>();
        removed.AddRange(await FixerRound.RunAsync(state, Of(found, UnusedRules.UnusedMember), cancellationToken));
        removed.AddRange(await UnreadMembers.RemoveAsync(state, Of(found, UnusedRules.UnreadMember), editable, cancellationToken));
        removed.AddRange(await UnreferencedMembers.RemoveAsync(state, Of(found, UnusedItem.Unreferenced), cancellationToken));
        removed.AddRange(await UnusedParameters.RemoveAsync(state, Of(found, UnusedRules.UnusedParameter), editable, cancellationToken));
        removed.AddRange(await FixerRound.RunAsync(state, Of(found, UnusedRules.UnusedVariable, UnusedRules.UnreadVariable), cancellationToken));
        removed.AddRange(await FixerRound.RunAsync(state, Of(found, UnusedRules.UnusedValue), cancellationToken));
        removed.AddRange(await UsingsRound.RunAsync(state, [.. found.Where(i => i.Kind == UnusedKind.Usings)], cancellationToken));
        phases.End("removed");

        var title = $"Remove {removed.Count} unused item{(removed.Count == 1 ? "" : "s")}";
        var edits = await SolutionEdits.BetweenAsync(solution, state.Current, title, cancellationToken);
        phases.End("edits");
        var added = await AddedErrors.BetweenAsync(solution, edits.After, cancellationToken);
        phases.End("compile check");
        phases.Log($"removal of unused code in {paths.Count} file(s), {removed.Count} item(s)");
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError("removal of unused code", added, "Remove fewer kinds, or only one file, or fix the code the error points at first");
        }
        var plan = new EditPlan(title, edits.Edits.ToValueList(), (uint)paths.Count, (uint)edits.Changes, edits.Warnings.ToValueList());
        var sorted = removed
            .OrderBy(i => i.Path, StringComparer.Ordinal)
            .ThenBy(i => i.Start.Line)
            .ThenBy(i => i.Start.Character)
            .Select(i => i.ToProtocol());
        return new RemoveUnusedPlan(plan, sorted.ToValueList());
    }

    private static List<UnusedItem> Of(List<UnusedItem> found, params string[] rules) => [.. found.Where(i => rules.Contains(i.Rule))];
}
