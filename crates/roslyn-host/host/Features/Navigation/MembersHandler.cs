using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Navigation;

public static class MembersHandler
{
    public static async Task<MemberList> HandleAsync(Solution solution, MembersRequest request, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, request.Position, cancellationToken);
        var symbol = await PositionResolver.RequireSymbolAsync(at, cancellationToken);
        var receiver = ReceiverOf(symbol) ?? throw NoReceiver(symbol, request.Position);

        // Lookup from the position applies C#'s accessibility rules and finds the extension methods the usings
        // there bring in.
        var symbols = at.Model
            .LookupSymbols(at.Offset, receiver, includeReducedExtensionMethods: request.IncludeExtensionMethods)
            .Where(s => IsListed(s, request))
            .ToHashSet(SymbolEqualityComparer.Default);
        // Lookup keeps a virtual member beside its overrides; the most derived one is what a call binds to.
        symbols.ExceptWith(symbols.SelectMany(Overridden).ToList());
        var members = new List<Member>();
        foreach (var member in symbols)
        {
            members.Add(await MemberFormat.DescribeAsync(member, cancellationToken));
        }
        return new MemberList(
            SymbolFormat.Summarize(receiver),
            members
                .OrderBy(m => m.Signature, StringComparer.Ordinal)
                .ThenBy(m => m.DeclaringType, StringComparer.Ordinal)
                .ThenBy(m => m.Symbol.Symbol.Key, StringComparer.Ordinal)
                .ToValueList());
    }

    /// <summary>The type named at the position, or the type of the variable, member or call there.</summary>
    private static ITypeSymbol? ReceiverOf(ISymbol symbol) =>
        TypeAtPositionHandler.TypeOf(symbol) is { SpecialType: not SpecialType.System_Void, TypeKind: not TypeKind.Error } type
            ? type
            : null;

    /// <summary>Every member this one overrides, up the chain.</summary>
    private static IEnumerable<ISymbol> Overridden(ISymbol member)
    {
        for (var overridden = Derivations.Overridden(member); overridden is not null; overridden = Derivations.Overridden(overridden))
        {
            yield return overridden;
        }
    }

    private static bool IsListed(ISymbol symbol, MembersRequest request)
    {
        if (symbol.IsImplicitlyDeclared)
        {
            return false;
        }
        if (symbol is IMethodSymbol { IsExtensionMethod: true })
        {
            return request.IncludeExtensionMethods;
        }
        if (symbol.IsStatic && !request.IncludeStatic)
        {
            return false;
        }
        return symbol is not IMethodSymbol
        {
            MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor or MethodKind.Destructor
                or MethodKind.UserDefinedOperator or MethodKind.BuiltinOperator or MethodKind.Conversion
                or MethodKind.PropertyGet or MethodKind.PropertySet
                or MethodKind.EventAdd or MethodKind.EventRemove or MethodKind.EventRaise
        };
    }

    private static HostErrorException NoReceiver(ISymbol symbol, Position position) => HostErrorException.Create(
        ErrorCode.SymbolNotFound,
        $"'{symbol.Name}' ({SymbolFormat.KindOf(symbol)}) at {position.File}:{position.Line}:{position.Column} has no type whose members could be listed",
        new JsonObject
        {
            ["file"] = position.File,
            ["line"] = position.Line,
            ["column"] = position.Column,
            ["kind"] = SymbolFormat.KindOf(symbol),
        },
        "Place the column on a variable, parameter, field, property, method call or type name");
}
