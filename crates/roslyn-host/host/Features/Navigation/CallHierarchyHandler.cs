using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Navigation;

public static class CallHierarchyHandler
{
    public static async Task<CallHierarchy> HandleAsync(Solution solution, CallHierarchyRequest request, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, request.Position, cancellationToken);
        var symbol = Callable(Definitions.Of(await PositionResolver.RequireSymbolAsync(at, cancellationToken)), at);
        var incoming = request.Incoming ? await GroupAsync(await IncomingAsync(symbol, solution, cancellationToken), cancellationToken) : [];
        var outgoing = request.Outgoing ? await GroupAsync(await OutgoingCalls.FindAsync(symbol, solution, cancellationToken), cancellationToken) : [];
        return new CallHierarchy(await SymbolFormat.RefAsync(symbol, cancellationToken), incoming, outgoing);
    }

    /// <summary>The member whose calls are asked for: an accessor stands for its property or event.</summary>
    private static ISymbol Callable(ISymbol symbol, ResolvedPosition at)
    {
        switch (symbol)
        {
            case IMethodSymbol { AssociatedSymbol: (IPropertySymbol or IEventSymbol) and var associated }:
                return associated;
            case IMethodSymbol { MethodKind: not MethodKind.AnonymousFunction } or IPropertySymbol or IEventSymbol:
                return symbol;
        }
        var p = at.Position;
        var kind = SymbolFormat.KindOf(symbol);
        throw HostErrorException.Create(
            ErrorCode.SymbolNotFound,
            $"{p.File}:{p.Line}:{p.Column} is the {kind} {symbol.ToDisplayString(SymbolFormat.Display)}: a call hierarchy needs a method or property " +
            "(or a constructor, local function or event)",
            new JsonObject { ["file"] = p.File, ["line"] = p.Line, ["column"] = p.Column, ["kind"] = kind },
            "Place the position on the name of a method, constructor, property or event, at its declaration or at a call");
    }

    /// <summary>Direct calls only: a call bound to an override, an implementation or an interface member is that member's.</summary>
    private static async Task<Dictionary<ISymbol, List<Location>>> IncomingAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        var calls = new Dictionary<ISymbol, List<Location>>(SymbolEqualityComparer.Default);
        foreach (var caller in await SymbolFinder.FindCallersAsync(symbol, solution, cancellationToken))
        {
            if (!caller.IsDirect)
            {
                continue;
            }
            foreach (var location in caller.Locations)
            {
                var root = await location.SourceTree!.GetRootAsync(cancellationToken);
                if (!CallSites.IsMention(root.FindNode(location.SourceSpan, findInsideTrivia: true, getInnermostNodeForTie: true)))
                {
                    CallSites.Add(calls, caller.CallingSymbol, location);
                }
            }
        }
        return calls;
    }

    /// <summary>One group per symbol, its sites deduplicated and in source order; groups ordered by their first site.</summary>
    private static async Task<ValueList<CallGroup>> GroupAsync(Dictionary<ISymbol, List<Location>> calls, CancellationToken cancellationToken)
    {
        var groups = new List<CallGroup>();
        foreach (var (symbol, locations) in calls)
        {
            var sites = new List<SourceLocation>();
            foreach (var location in locations)
            {
                sites.Add(await SymbolFormat.ToSourceLocationAsync(location, cancellationToken));
            }
            var ordered = sites.DistinctBy(s => s.Span).InSourceOrder(s => s.Span).ToValueList();
            groups.Add(new CallGroup(await SymbolFormat.RefAsync(symbol, cancellationToken), ordered));
        }
        return groups
            .InSourceOrder(g => g.Sites[0].Span)
            .ThenBy(g => g.Symbol.Symbol.Display, StringComparer.Ordinal)
            .ToValueList();
    }
}
