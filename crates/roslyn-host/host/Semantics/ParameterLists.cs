using Microsoft.CodeAnalysis;

namespace RoslynMcp.Host.Semantics;

internal static class ParameterLists
{
    /// <summary>The parameters of a member with a parameter list (a delegate's are its Invoke method's).</summary>
    public static IReadOnlyList<IParameterSymbol> Of(ISymbol member) => member switch
    {
        IMethodSymbol method => method.Parameters,
        IPropertySymbol property => property.Parameters,
        INamedTypeSymbol { DelegateInvokeMethod: { } invoke } => invoke.Parameters,
        _ => [],
    };
}
