using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Operations;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>One explicit argument of a call: the parameter it goes to and its expression.</summary>
internal sealed record CallArgument(int Ordinal, ExpressionSyntax Expression, SemanticModel Model);

/// <summary>
/// A call of the member (or a use of its name), with its explicit arguments in the order they are written, and
/// the delegate type a method group there converts to (none for a call or another use).
/// </summary>
internal sealed record CallSite(Location Location, IReadOnlyList<CallArgument> Arguments, ITypeSymbol? Delegate = null);

/// <summary>
/// Where the members are referenced, each source place once however many target frameworks see it, and which
/// parameter each argument of each call goes to (as the compiler binds it: named, positional, <c>params</c>).
/// </summary>
internal static class CallSites
{
    public static async Task<List<CallSite>> OfAsync(Solution solution, IEnumerable<ISymbol> members, CancellationToken cancellationToken)
    {
        var places = new Dictionary<(string, int), CallSite>();
        foreach (var location in await ReferencesAsync(solution, members, cancellationToken))
        {
            var key = (location.SourceTree!.FilePath, location.SourceSpan.Start);
            if (places.ContainsKey(key))
            {
                continue;
            }
            // A place in code no document holds (a generator's) counts, with no arguments to judge.
            if (solution.GetDocument(location.SourceTree) is not { } document)
            {
                places[key] = new CallSite(location, []);
                continue;
            }
            var name = (await document.GetSyntaxRootAsync(cancellationToken))!.FindToken(location.SourceSpan.Start);
            var model = (await document.GetSemanticModelAsync(cancellationToken))!;
            places[key] = new CallSite(location, ArgumentsAt(name, model, cancellationToken), DelegateAt(name, model, cancellationToken));
        }
        return [.. places.Values];
    }

    /// <summary>The source places that refer to the member or the members cascaded with it, per path.</summary>
    public static async Task<Dictionary<string, int>> CountAsync(Solution solution, IEnumerable<ISymbol> members, CancellationToken cancellationToken) =>
        PerPath(await ReferencesAsync(solution, members, cancellationToken));

    /// <summary>How many distinct places each path holds.</summary>
    public static Dictionary<string, int> PerPath(IEnumerable<Location> locations) =>
        locations.Select(l => (Path: l.SourceTree!.FilePath, l.SourceSpan.Start)).Distinct()
            .GroupBy(p => p.Path, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);

    /// <summary>
    /// The source places that refer to the members. SymbolFinder's search of one member takes in the members it
    /// cascades to (its overridden and overriding members, implementations, the same member in each target
    /// framework), each with all its places: a member a search already answered is not searched again, which
    /// keeps a hierarchy of hundreds of overrides to a few searches instead of one over the whole hierarchy each.
    /// </summary>
    private static async Task<List<Location>> ReferencesAsync(Solution solution, IEnumerable<ISymbol> members, CancellationToken cancellationToken)
    {
        var answered = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
        var locations = new List<Location>();
        foreach (var member in members.Where(m => !answered.Contains(m)))
        {
            var referenced = await SymbolFinder.FindReferencesAsync(member, solution, cancellationToken);
            answered.Add(member);
            foreach (var found in referenced)
            {
                answered.Add(found.Definition);
                locations.AddRange(found.Locations.Where(l => !l.IsImplicit && l.Location.IsInSource).Select(l => l.Location));
            }
        }
        return locations;
    }

    /// <summary>The delegate type the method group at <paramref name="name"/> converts to; null for a call or another use.</summary>
    private static ITypeSymbol? DelegateAt(SyntaxToken name, SemanticModel model, CancellationToken cancellationToken)
    {
        var node = name.Parent;
        // `OnEvent`, `this.OnEvent`, `shipping.Cost`: the whole member access is the method group.
        while (node?.Parent is MemberAccessExpressionSyntax access && access.Name == node)
        {
            node = access;
        }
        return node is not null && model.GetOperation(node, cancellationToken)?.Parent is IDelegateCreationOperation { Type: { } type } ? type : null;
    }

    /// <summary>The arguments of the call whose callee holds <paramref name="name"/>; none for a method group.</summary>
    private static List<CallArgument> ArgumentsAt(SyntaxToken name, SemanticModel model, CancellationToken cancellationToken)
    {
        for (var node = name.Parent; node is not null and not StatementSyntax and not MemberDeclarationSyntax; node = node.Parent)
        {
            BaseArgumentListSyntax? list = node switch
            {
                InvocationExpressionSyntax invocation => invocation.ArgumentList,
                BaseObjectCreationExpressionSyntax creation => creation.ArgumentList,
                ConstructorInitializerSyntax initializer => initializer.ArgumentList,
                ElementAccessExpressionSyntax access => access.ArgumentList,
                PrimaryConstructorBaseTypeSyntax baseType => baseType.ArgumentList,
                _ => null,
            };
            if (list is null)
            {
                continue;
            }
            if (list.Span.Contains(name.SpanStart))
            {
                return [];
            }
            return [.. list.Arguments
                .Select(a => (Argument: a, Operation: model.GetOperation(a, cancellationToken) as IArgumentOperation))
                .Where(a => a.Operation?.Parameter is not null)
                .Select(a => new CallArgument(a.Operation!.Parameter!.Ordinal, a.Argument.Expression, model))];
        }
        return [];
    }
}
