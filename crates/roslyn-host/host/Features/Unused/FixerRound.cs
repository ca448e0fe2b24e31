using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// Removes items with Roslyn's own code fix for their rule, run as a fix-all over just their diagnostics: the
/// rule's diagnostics are found again in the current solution, and only those standing where an item of the
/// original stands are fixed. An item whose diagnostic is still there afterwards was not removed.
/// </summary>
internal static class FixerRound
{
    public static async Task<List<UnusedItem>> RunAsync(EvolvingSolution state, IReadOnlyList<UnusedItem> items, CancellationToken cancellationToken)
    {
        var matched = await MatchAsync(state, items, cancellationToken);
        foreach (var group in matched.GroupBy(m => RoslynFeatures.FixersOf(state.Current.GetDocument(m.Document)!.Project, m.Diagnostic.Id).FirstOrDefault()))
        {
            if (group.Key is not { } fixer || fixer.GetFixAllProvider() is not { } fixAll)
            {
                continue;
            }
            var first = group.First();
            var document = state.Current.GetDocument(first.Document)!;
            if (await RemovingActionAsync(fixer, document, first.Diagnostic, cancellationToken) is not { } action)
            {
                continue;
            }
            var chosen = group.GroupBy(m => m.Document).ToDictionary(g => g.Key, g => g.Select(m => m.Diagnostic).ToList());
            var context = new FixAllContext(
                document,
                fixer,
                FixAllScope.Solution,
                action.EquivalenceKey,
                group.Select(m => m.Diagnostic.Id).Distinct(),
                new ChosenDiagnostics(chosen),
                cancellationToken);
            var fix = await fixAll.GetFixAsync(context);
            var operations = fix is null ? [] : await fix.GetOperationsAsync(cancellationToken);
            if (operations.OfType<ApplyChangesOperation>().LastOrDefault() is { } apply)
            {
                await state.CommitAsync(apply.ChangedSolution, cancellationToken);
            }
        }
        var left = (await MatchAsync(state, items, cancellationToken)).Select(m => m.Item).ToHashSet();
        return [.. matched.Select(m => m.Item).Where(i => !left.Contains(i))];
    }

    /// <summary>The items' diagnostics in the current solution: of the item's rule, at the item's place now.</summary>
    private static async Task<List<(UnusedItem Item, DocumentId Document, Diagnostic Diagnostic)>> MatchAsync(
        EvolvingSolution state,
        IReadOnlyList<UnusedItem> items,
        CancellationToken cancellationToken)
    {
        var rules = items.Select(i => i.Rule).ToHashSet(StringComparer.Ordinal);
        var matched = new List<(UnusedItem, DocumentId, Diagnostic)>();
        foreach (var byPath in items.GroupBy(i => i.Path))
        {
            if (state.DocumentAt(byPath.Key) is not { } document)
            {
                continue;
            }
            var model = (await document.GetSemanticModelAsync(cancellationToken))!;
            var compiled = rules.Overlaps(UnusedRules.Compiled)
                ? model.GetDiagnostics(cancellationToken: cancellationToken).Where(d => rules.Contains(d.Id))
                : [];
            var analyzed = rules.Overlaps(UnusedRules.Analyzed)
                ? await AnalyzerDiagnostics.OfDocumentAsync(document, null, rules, cancellationToken)
                : [];
            var diagnostics = compiled.Concat(analyzed).ToList();
            foreach (var item in byPath)
            {
                var span = state.Map(item.Path, item.Span);
                if (span is not null && diagnostics.FirstOrDefault(d => d.Id == item.Rule && d.Location.SourceSpan == span) is { } diagnostic)
                {
                    matched.Add((item, document.Id, diagnostic));
                }
            }
        }
        return matched;
    }

    /// <summary>
    /// The fix that removes: for an unused value (IDE0059) Roslyn may also offer to assign it to the discard
    /// <c>_</c>, which keeps the code; the removing fix is the one whose title says so.
    /// </summary>
    private static async Task<CodeAction?> RemovingActionAsync(CodeFixProvider fixer, Document document, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        var actions = new List<CodeAction>();
        var context = new CodeFixContext(document, diagnostic, (action, _) => actions.Add(action), cancellationToken);
        await RoslynFeatures.Guarded(fixer, () => fixer.RegisterCodeFixesAsync(context));
        return actions.FirstOrDefault(a => a.Title.StartsWith("Remove", StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>Only the chosen diagnostics, so that the fix-all touches nothing else.</summary>
    private sealed class ChosenDiagnostics(Dictionary<DocumentId, List<Diagnostic>> chosen) : FixAllContext.DiagnosticProvider
    {
        public override Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) =>
            Task.FromResult<IEnumerable<Diagnostic>>(chosen.TryGetValue(document.Id, out var diagnostics) ? diagnostics : []);

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult<IEnumerable<Diagnostic>>([]);

        public override Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult<IEnumerable<Diagnostic>>([.. chosen.Where(c => c.Key.ProjectId == project.Id).SelectMany(c => c.Value)]);
    }
}
