using System.Collections.Immutable;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Plans;
using RoslynMcp.Host.Workspace;
using ProtocolFixAllScope = RoslynMcp.Host.Protocol.FixAllScope;
using RoslynFixAllScope = Microsoft.CodeAnalysis.CodeFixes.FixAllScope;

namespace RoslynMcp.Host.Features.Actions;

/// <summary>
/// Plans one listed code action (or its fix-all) on the snapshot it was listed on: the action is found again
/// among those offered at its span, run, and its changed solution turned into file edits, checked to compile
/// without new errors. Nothing is applied here; the broker writes the files.
/// </summary>
public static class CodeActionPlanHandler
{
    public static async Task<EditPlan> HandleAsync(SolutionSnapshot snapshot, CodeActionRequest request, CancellationToken cancellationToken)
    {
        if (request.WorkspaceVersion != snapshot.Version)
        {
            throw HostErrorException.Create(
                ErrorCode.CodeActionStale,
                $"The solution changed since the code action was listed (version {request.WorkspaceVersion}, now {snapshot.Version})",
                new JsonObject { ["listedVersion"] = request.WorkspaceVersion, ["currentVersion"] = snapshot.Version },
                "Call get_code_actions at the place again and apply an id from that answer");
        }
        var solution = snapshot.Solution;
        var (document, span) = await CodeActionsHandler.SpanAsync(solution, request.Span, cancellationToken);
        var offered = (await OfferedActions.AtAsync(document, span, cancellationToken, (request.Kind, request.Provider)))
            .FirstOrDefault(a => a.Is(request.Kind, request.Provider, request.Path, request.DiagnosticId))
            ?? throw HostErrorException.Create(
                ErrorCode.CodeActionNotFound,
                $"Roslyn no longer offers '{string.Join(" > ", request.Path)}' there",
                new JsonObject { ["provider"] = request.Provider },
                "Call get_code_actions at the place again and use an id it lists");

        var operations = await OperationsAsync(offered, document, span, request, cancellationToken);
        var title = string.Join(" > ", request.Path);
        var changed = operations.OfType<ApplyChangesOperation>().Select(o => o.ChangedSolution).ToList();
        if (changed.Count == 0)
        {
            return new EditPlan(title, [], 0, 0, ["The action changes no file"]);
        }
        var edits = await SolutionEdits.BetweenAsync(solution, changed[^1], title, cancellationToken);
        var added = await AddedErrors.BetweenAsync(solution, edits.After, cancellationToken);
        if (added.Count > 0)
        {
            throw PlanErrors.CompilationError($"code action '{title}'", added, "Choose another action, or fix the code the error points at first");
        }
        var warnings = edits.Warnings;
        if (operations.Any(o => o is not ApplyChangesOperation and not DocumentNavigationOperation))
        {
            warnings.Add("Steps of the action that need an editor (such as starting an inline rename) are left out");
        }
        return new EditPlan(title, edits.Edits.ToValueList(), (uint)edits.Edits.Count, (uint)edits.Changes, warnings.ToValueList());
    }

    private static async Task<ImmutableArray<CodeActionOperation>> OperationsAsync(
        OfferedAction offered,
        Document document,
        TextSpan span,
        CodeActionRequest request,
        CancellationToken cancellationToken)
    {
        if (request.FixAll is { } scope)
        {
            var fixAll = offered.Fixer?.GetFixAllProvider();
            if (fixAll is null || offered.Diagnostic is null || !OfferedActions.FixAllScopes(offered).Select(CodeActionsHandler.ToProtocol).Contains(scope))
            {
                throw HostErrorException.Create(
                    ErrorCode.InvalidParameter,
                    $"'{string.Join(" > ", request.Path)}' has no fix-all in the {scope.ToString().ToLowerInvariant()}",
                    new JsonObject { ["field"] = "fixAll" },
                    "Apply it without fixAll");
            }
            var context = new FixAllContext(
                document,
                offered.Fixer!,
                ToRoslyn(scope),
                offered.Action.EquivalenceKey,
                [offered.Diagnostic.Id],
                new FixAllDiagnostics(new HashSet<string>([offered.Diagnostic.Id], StringComparer.Ordinal)),
                cancellationToken);
            var action = await fixAll.GetFixAsync(context);
            return action is null ? [] : await action.GetOperationsAsync(cancellationToken);
        }
        if (ExtractInterface.Is(offered.Action))
        {
            var options = request.Options is ActionOptions.ExtractInterface { Value: var given }
                ? given
                : await ExtractInterface.DefaultsAsync(document, span, cancellationToken);
            return await ExtractInterface.OperationsAsync(offered.Action, document, span, options, cancellationToken);
        }
        return await offered.Action.GetOperationsAsync(cancellationToken);
    }

    private static RoslynFixAllScope ToRoslyn(ProtocolFixAllScope scope) => scope switch
    {
        ProtocolFixAllScope.Document => RoslynFixAllScope.Document,
        ProtocolFixAllScope.Project => RoslynFixAllScope.Project,
        _ => RoslynFixAllScope.Solution,
    };
}
