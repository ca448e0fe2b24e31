using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using ProtocolSpan = RoslynMcp.Host.Protocol.Span;

namespace RoslynMcp.Host.Features.Navigation;

public static class SymbolSearchHandler
{
    public static async Task<SymbolMatches> HandleAsync(Solution solution, SymbolSearchRequest request, CancellationToken cancellationToken)
    {
        // A file linked into several projects declares its symbols once per project: keep one per location.
        var matches = new Dictionary<ProtocolSpan, SymbolRef>();
        foreach (var project in solution.Projects)
        {
            var found = await SymbolFinder.FindSourceDeclarationsWithPatternAsync(
                project, request.Query, SymbolFilter.TypeAndMember, cancellationToken);
            foreach (var symbol in found.Where(s => !s.IsImplicitlyDeclared))
            {
                // One entry per declaration: each part of a partial type where it is.
                foreach (var location in symbol.Locations.Where(l => l.IsInSource))
                {
                    var declaration = await SymbolFormat.ToSourceLocationAsync(location, cancellationToken);
                    matches.TryAdd(declaration.Span, new SymbolRef(SymbolFormat.Summarize(symbol), declaration));
                }
            }
        }
        return new SymbolMatches(matches.Values.InSourceOrder(m => m.Location!.Span).ToValueList());
    }
}
