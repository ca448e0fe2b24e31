using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CodeRefactorings;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;
using ActionKind = RoslynMcp.Host.Protocol.CodeActionKind;
using RoslynCodeAction = Microsoft.CodeAnalysis.CodeActions.CodeAction;

namespace RoslynMcp.Host.Features.Actions;

/// <summary>One leaf of the menu Roslyn offers at a span: its identity, the action, and for a fix what it fixes.</summary>
internal sealed record OfferedAction(
    ActionKind Kind,
    string Provider,
    IReadOnlyList<string> Path,
    RoslynCodeAction Action,
    Diagnostic? Diagnostic,
    CodeFixProvider? Fixer)
{
    /// <summary>What tells it from every other action at the span, as the broker keeps it.</summary>
    public bool Is(ActionKind kind, string provider, IReadOnlyList<string> path, string diagnosticId) =>
        Kind == kind && Provider == provider && Path.SequenceEqual(path) && (Diagnostic?.Id ?? "") == diagnosticId;
}

/// <summary>
/// The code fixes for the diagnostics (compiler and analyzers) that touch a span, then the refactorings offered on
/// it, nested menus flattened: what the IDE's light bulb shows there. Actions that need a dialog Roslyn cannot
/// drive headless are left out; extract interface takes its options as arguments instead.
/// </summary>
internal static class OfferedActions
{
    /// <summary>
    /// The actions at <paramref name="span"/>; with <paramref name="only"/> (a listed action's kind and provider),
    /// only that provider is asked, so finding one listed action again does not run every other provider.
    /// </summary>
    public static async Task<List<OfferedAction>> AtAsync(
        Document document,
        TextSpan span,
        CancellationToken cancellationToken,
        (ActionKind Kind, string Provider)? only = null)
    {
        bool Wanted(ActionKind kind, object provider) => only is not { } one || (one.Kind == kind && one.Provider == Name(provider));
        var offered = new List<OfferedAction>();
        var diagnostics = only is { Kind: ActionKind.Refactoring } ? [] : await DiagnosticsTouchingAsync(document, span, cancellationToken);
        foreach (var diagnostic in diagnostics)
        {
            foreach (var fixer in RoslynFeatures.FixersOf(document.Project, diagnostic.Id).Where(f => Wanted(ActionKind.Fix, f)))
            {
                var registered = new List<RoslynCodeAction>();
                var context = new CodeFixContext(document, diagnostic, (action, _) => registered.Add(action), cancellationToken);
                await RoslynFeatures.Guarded(fixer, () => fixer.RegisterCodeFixesAsync(context));
                foreach (var action in registered)
                {
                    Flatten(offered, action, [], leaf => new OfferedAction(ActionKind.Fix, Name(fixer), leaf.Path, leaf.Action, diagnostic, fixer));
                }
            }
        }
        foreach (var provider in RoslynFeatures.Refactorings.Where(p => Wanted(ActionKind.Refactoring, p)))
        {
            var registered = new List<RoslynCodeAction>();
            var context = new CodeRefactoringContext(document, span, registered.Add, cancellationToken);
            await RoslynFeatures.Guarded(provider, () => provider.ComputeRefactoringsAsync(context));
            foreach (var action in registered)
            {
                Flatten(offered, action, [], leaf => new OfferedAction(ActionKind.Refactoring, Name(provider), leaf.Path, leaf.Action, null, null));
            }
        }
        // The same fix registered for two diagnostics of one id at the span is one entry.
        return [.. offered.DistinctBy(a => (a.Kind, a.Provider, string.Join('\u001f', a.Path), a.Diagnostic?.Id))];
    }

    /// <summary>Whether the action can run without a person: no dialog, or extract interface's, which takes arguments.</summary>
    public static bool RunsHeadless(RoslynCodeAction action) => action is not CodeActionWithOptions || ExtractInterface.Is(action);

    /// <summary>Fix-all of a fix in the scopes this service offers (document, project, solution).</summary>
    public static IEnumerable<FixAllScope> FixAllScopes(OfferedAction action)
    {
        if (action.Fixer?.GetFixAllProvider() is not { } fixAll || action.Action.EquivalenceKey is null)
        {
            return [];
        }
        return fixAll.GetSupportedFixAllScopes().Where(s => s is FixAllScope.Document or FixAllScope.Project or FixAllScope.Solution).Distinct().Order();
    }

    private static string Name(object provider) => provider.GetType().Name;

    private static void Flatten(List<OfferedAction> offered, RoslynCodeAction action, ImmutableArray<string> path, Func<(ImmutableArray<string> Path, RoslynCodeAction Action), OfferedAction> make)
    {
        var here = path.Add(action.Title);
        if (action.NestedActions.IsEmpty)
        {
            if (RunsHeadless(action))
            {
                offered.Add(make((here, action)));
            }
            return;
        }
        foreach (var nested in action.NestedActions)
        {
            Flatten(offered, nested, here, make);
        }
    }

    /// <summary>Compiler diagnostics and those of analyzers with a fix, on the span or touching its ends.</summary>
    private static async Task<List<Diagnostic>> DiagnosticsTouchingAsync(Document document, TextSpan span, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");
        var text = await document.GetTextAsync(cancellationToken);
        // Analyzers are asked about the whole lines of the span, then kept only where they touch it.
        var lines = TextSpan.FromBounds(text.Lines.GetLineFromPosition(span.Start).Start, text.Lines.GetLineFromPosition(span.End).End);
        var analyzed = await AnalyzerDiagnostics.OfDocumentAsync(document, lines, RoslynFeatures.FixableIds(document.Project), cancellationToken);
        return [.. model.GetDiagnostics(lines, cancellationToken).Concat(analyzed)
            .Where(d => d.Location.IsInSource && d.Location.SourceSpan.IntersectsWith(span) && !d.IsSuppressed)
            .OrderBy(d => d.Location.SourceSpan.Start)
            .ThenBy(d => d.Id, StringComparer.Ordinal)];
    }
}
