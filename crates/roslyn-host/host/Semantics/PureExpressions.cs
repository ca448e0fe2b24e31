using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Semantics;

/// <summary>
/// Expressions that can be dropped without losing anything they do: literals, names, member accesses (property
/// getters taken to have no side effects) and operators over them. An argument or an assigned value that calls,
/// creates or assigns something is kept, and so is what it belongs to.
/// </summary>
internal static class PureExpressions
{
    public static bool Is(ExpressionSyntax expression) => expression switch
    {
        LiteralExpressionSyntax or IdentifierNameSyntax or ThisExpressionSyntax or DefaultExpressionSyntax
            or TypeOfExpressionSyntax or PredefinedTypeSyntax => true,
        MemberAccessExpressionSyntax access => access.IsKind(SyntaxKind.SimpleMemberAccessExpression) && Is(access.Expression),
        ParenthesizedExpressionSyntax parenthesized => Is(parenthesized.Expression),
        CastExpressionSyntax cast => Is(cast.Expression),
        BinaryExpressionSyntax binary => Is(binary.Left) && Is(binary.Right),
        PrefixUnaryExpressionSyntax unary => !unary.IsKind(SyntaxKind.PreIncrementExpression) && !unary.IsKind(SyntaxKind.PreDecrementExpression) && Is(unary.Operand),
        InterpolatedStringExpressionSyntax interpolated => interpolated.Contents.OfType<InterpolationSyntax>().All(i => Is(i.Expression)),
        _ => false,
    };
}
