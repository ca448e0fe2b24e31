using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Signature;

/// <summary>
/// C# evaluates arguments in the order they are written. A reorder writes them in the new parameter order, so two
/// arguments that trade places run in the other order; removing a parameter drops its argument. Refused
/// (EVALUATION_ORDER_CHANGED) where that changes what the call does: an argument with side effects (a call, an
/// assignment, an increment, a creation) trading places with one that is not a constant, a local or a parameter,
/// or dropped. Named arguments are judged as if written in the new order too: refusing is safe, the other is not.
/// </summary>
internal static class ArgumentOrder
{
    public static void Check(IReadOnlyList<CallSite> calls, NewSignature signature, string member)
    {
        var found = new List<(CallSite Call, string Why)>();
        foreach (var call in calls)
        {
            if (Problem(call.Arguments, signature) is { } why)
            {
                found.Add((call, why));
            }
        }
        if (found.Count == 0)
        {
            return;
        }
        var first = found[0];
        var at = first.Call.Location.GetLineSpan();
        throw HostErrorException.Create(
            ErrorCode.EvaluationOrderChanged,
            $"Changing {member} would change what {found.Count} call{(found.Count == 1 ? "" : "s")} do; the first, at {at.Path}:{at.StartLinePosition.Line + 1}: {first.Why}",
            new JsonObject
            {
                ["calls"] = new JsonArray([.. found.Take(50).Select(f => Place(f.Call.Location, f.Why))]),
            },
            "Move the arguments with side effects into locals before the calls first, or keep the parameters in their order");
    }

    private static string? Problem(IReadOnlyList<CallArgument> arguments, NewSignature signature)
    {
        foreach (var argument in arguments)
        {
            if (signature.NewIndexOf(argument.Ordinal) is null && !PureExpressions.Is(argument.Expression))
            {
                return $"the argument {argument.Expression} of a removed parameter would no longer run";
            }
        }
        for (var i = 0; i < arguments.Count; i++)
        {
            for (var j = i + 1; j < arguments.Count; j++)
            {
                var (a, b) = (arguments[i], arguments[j]);
                if (signature.NewIndexOf(a.Ordinal) is { } newA && signature.NewIndexOf(b.Ordinal) is { } newB && newA > newB
                    && (Disturbs(a, b) || Disturbs(b, a)))
                {
                    return $"{b.Expression} would run before {a.Expression}";
                }
            }
        }
        return null;
    }

    /// <summary>Whether running <paramref name="acting"/> first or second can change <paramref name="other"/>'s value or effect.</summary>
    private static bool Disturbs(CallArgument acting, CallArgument other) =>
        Acts(acting) && (!Stable(other) || Writes(acting.Expression));

    /// <summary>Assigns something (a local included): then even a local beside it may change.</summary>
    private static bool Writes(ExpressionSyntax expression) => expression.DescendantNodesAndSelf().Any(n =>
        n is AssignmentExpressionSyntax
        || n.IsKind(SyntaxKind.PreIncrementExpression) || n.IsKind(SyntaxKind.PreDecrementExpression)
        || n.IsKind(SyntaxKind.PostIncrementExpression) || n.IsKind(SyntaxKind.PostDecrementExpression)
        || n is ArgumentSyntax { RefKindKeyword.RawKind: not 0 });

    /// <summary>Has side effects of its own.</summary>
    private static bool Acts(CallArgument argument) =>
        !PureExpressions.Is(argument.Expression) && argument.Expression is not (LambdaExpressionSyntax or AnonymousMethodExpressionSyntax);

    /// <summary>Has a value no other argument can change: a constant, a local or parameter passed by value, <c>this</c>, a lambda.</summary>
    private static bool Stable(CallArgument argument) =>
        argument.Expression is ThisExpressionSyntax or LambdaExpressionSyntax or AnonymousMethodExpressionSyntax
        || argument.Model.GetConstantValue(argument.Expression).HasValue
        || argument.Model.GetSymbolInfo(argument.Expression).Symbol is ILocalSymbol { RefKind: RefKind.None } or IParameterSymbol { RefKind: RefKind.None };

    private static JsonObject Place(Location location, string why)
    {
        var at = location.GetLineSpan();
        return new JsonObject
        {
            ["file"] = at.Path,
            ["line"] = at.StartLinePosition.Line + 1,
            ["column"] = at.StartLinePosition.Character + 1,
            ["reason"] = why,
        };
    }
}
