using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// After the change, every file has as many references to the changed members, and to each other overload of the
/// name, as before: a call that now binds to another overload (or one that moved to the changed member) changes a
/// count. Refused with BINDING_CHANGED naming the overload and the file.
/// </summary>
internal sealed class CallBindings
{
    private readonly Dictionary<string, Dictionary<string, int>> counts;

    private CallBindings(Dictionary<string, Dictionary<string, int>> counts) => this.counts = counts;

    /// <summary>Counts before the change: the members' places are the call sites already found.</summary>
    public static Task<CallBindings> BeforeAsync(Solution solution, IReadOnlyList<CallSite> calls, ISymbol member, CancellationToken cancellationToken) =>
        WithOverloadsAsync(solution, CallSites.PerPath(calls.Select(c => c.Location)), member, cancellationToken);

    private static async Task<CallBindings> WithOverloadsAsync(Solution solution, Dictionary<string, int> members, ISymbol member, CancellationToken cancellationToken)
    {
        var counts = new Dictionary<string, Dictionary<string, int>>(StringComparer.Ordinal) { [""] = members };
        foreach (var overload in Overloads(member))
        {
            counts[overload.ToDisplayString(SymbolFormat.Display)] = await CallSites.CountAsync(solution, [overload], cancellationToken);
        }
        return new CallBindings(counts);
    }

    public async Task CheckAsync(Solution after, IReadOnlyList<ISymbol> membersAfter, ISymbol memberAfter, string display, CancellationToken cancellationToken)
    {
        var now = await WithOverloadsAsync(after, await CallSites.CountAsync(after, membersAfter, cancellationToken), memberAfter, cancellationToken);
        foreach (var (overload, before) in counts)
        {
            var counted = now.counts.GetValueOrDefault(overload) ?? [];
            foreach (var path in before.Keys.Union(counted.Keys).Order(StringComparer.Ordinal))
            {
                var (was, @is) = (before.GetValueOrDefault(path), counted.GetValueOrDefault(path));
                if (was == @is)
                {
                    continue;
                }
                var name = overload.Length == 0 ? display : overload;
                throw HostErrorException.Create(
                    ErrorCode.BindingChanged,
                    $"The change would make calls in {path} bind differently: {was} refer to {name} now, {@is} would after",
                    new JsonObject { ["file"] = path, ["member"] = name, ["before"] = was, ["after"] = @is },
                    "Change the signature so that it stays distinct from the other overloads, or cast the arguments first");
            }
        }
    }

    /// <summary>The other members of the name in the member's type (constructors: the other constructors).</summary>
    private static IEnumerable<ISymbol> Overloads(ISymbol member) => member.ContainingType is { } type
        ? type.GetMembers(member.Name).Where(m => m.Kind == member.Kind && !SymbolEqualityComparer.Default.Equals(m.OriginalDefinition, member.OriginalDefinition) && !m.IsImplicitlyDeclared)
        : [];
}
