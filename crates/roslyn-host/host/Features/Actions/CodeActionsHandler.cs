using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;
using ProtocolCodeAction = RoslynMcp.Host.Protocol.CodeAction;
using ProtocolFixAllScope = RoslynMcp.Host.Protocol.FixAllScope;
using RoslynFixAllScope = Microsoft.CodeAnalysis.CodeFixes.FixAllScope;

namespace RoslynMcp.Host.Features.Actions;

/// <summary>Lists the code actions Roslyn offers on a span (<see cref="OfferedActions"/>), in its order.</summary>
public static class CodeActionsHandler
{
    public static async Task<CodeActionList> HandleAsync(Solution solution, CodeActionsRequest request, CancellationToken cancellationToken)
    {
        var (document, span) = await SpanAsync(solution, request.Span, cancellationToken);
        var actions = new List<ProtocolCodeAction>();
        foreach (var offered in await OfferedActions.AtAsync(document, span, cancellationToken))
        {
            var options = ExtractInterface.Is(offered.Action)
                ? new ActionOptions.ExtractInterface(await ExtractInterface.DefaultsAsync(document, span, cancellationToken))
                : (ActionOptions)new ActionOptions.None();
            actions.Add(new ProtocolCodeAction(
                offered.Kind,
                offered.Provider,
                offered.Path.ToValueList(),
                offered.Action.EquivalenceKey ?? "",
                offered.Diagnostic is { } d
                    ? new FixedDiagnostic(d.Id, d.GetMessage(System.Globalization.CultureInfo.InvariantCulture), DiagnosticFormat.SeverityOf(d.Severity), SymbolFormat.ToSpan(d.Location))
                    : null,
                OfferedActions.FixAllScopes(offered).Select(ToProtocol).ToValueList(),
                options));
        }
        return new CodeActionList(actions.ToValueList());
    }

    /// <summary>The document and text span of a 1-based span with an exclusive end, both ends validated.</summary>
    internal static async Task<(Document Document, TextSpan Span)> SpanAsync(Solution solution, Span span, CancellationToken cancellationToken)
    {
        var start = await PositionResolver.ResolveAsync(solution, new Position(span.File, span.StartLine, span.StartColumn), cancellationToken);
        var end = await PositionResolver.ResolveAsync(solution, new Position(span.File, span.EndLine, span.EndColumn), cancellationToken);
        return (start.Document, TextSpan.FromBounds(start.Offset, Math.Max(start.Offset, end.Offset)));
    }

    internal static ProtocolFixAllScope ToProtocol(RoslynFixAllScope scope) => scope switch
    {
        RoslynFixAllScope.Document => ProtocolFixAllScope.Document,
        RoslynFixAllScope.Project => ProtocolFixAllScope.Project,
        _ => ProtocolFixAllScope.Solution,
    };
}
