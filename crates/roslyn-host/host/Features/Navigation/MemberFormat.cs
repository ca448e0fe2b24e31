using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Accessibility = Microsoft.CodeAnalysis.Accessibility;
using WireAccessibility = RoslynMcp.Host.Protocol.Accessibility;

namespace RoslynMcp.Host.Features.Navigation;

/// <summary>How a member is described in member and overload lists.</summary>
public static class MemberFormat
{
    /// <summary>
    /// <c>decimal Calculate(decimal price)</c>, <c>string Name { get; set; }</c>, <c>class Line</c>: the member alone,
    /// types by their simple names.
    /// </summary>
    private static readonly SymbolDisplayFormat Signature = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameOnly,
        genericsOptions: SymbolDisplayFormat.MinimallyQualifiedFormat.GenericsOptions,
        memberOptions: SymbolDisplayFormat.MinimallyQualifiedFormat.MemberOptions & ~SymbolDisplayMemberOptions.IncludeContainingType,
        delegateStyle: SymbolDisplayDelegateStyle.NameAndSignature,
        propertyStyle: SymbolDisplayPropertyStyle.ShowReadWriteDescriptor,
        kindOptions: SymbolDisplayFormat.MinimallyQualifiedFormat.KindOptions | SymbolDisplayKindOptions.IncludeTypeKeyword,
        parameterOptions: SymbolDisplayFormat.MinimallyQualifiedFormat.ParameterOptions | SymbolDisplayParameterOptions.IncludeExtensionThis,
        localOptions: SymbolDisplayFormat.MinimallyQualifiedFormat.LocalOptions,
        miscellaneousOptions: SymbolDisplayFormat.MinimallyQualifiedFormat.MiscellaneousOptions);

    /// <summary>Types inside signatures: <c>decimal</c>, <c>IRepository&lt;Customer&gt;</c>, <c>string?</c>.</summary>
    private static readonly SymbolDisplayFormat TypeName = SymbolDisplayFormat.MinimallyQualifiedFormat;

    public static async Task<Member> DescribeAsync(ISymbol symbol, CancellationToken cancellationToken)
    {
        // A reduced extension method (`"x".Shout()`) is declared as the static method it came from.
        var declared = Definitions.Of(symbol);
        var reduced = symbol is IMethodSymbol { ReducedFrom: not null };
        var parameterDocs = DocComments.Parameters(declared);
        var parameters = ParametersOf(symbol).Select(p => new Parameter(
            p.Name,
            p.Type.ToDisplayString(TypeName),
            parameterDocs.GetValueOrDefault(p.Name)));
        return new Member(
            await SymbolFormat.RefAsync(reduced ? declared : symbol, cancellationToken),
            symbol.ToDisplayString(Signature),
            symbol.ContainingType?.ToDisplayString(SymbolFormat.Display) ?? "",
            AccessibilityOf(symbol.DeclaredAccessibility),
            DocComments.Summary(declared),
            parameters.ToValueList(),
            ReturnTypeOf(symbol)?.ToDisplayString(TypeName),
            // A reduced extension method is an extension called as an instance method.
            symbol is IMethodSymbol { IsExtensionMethod: true },
            symbol.IsStatic,
            symbol is IMethodSymbol method && (method.IsAsync || IsTaskLike(method.ReturnType)));
    }

    // Every member has a declared accessibility; NotApplicable (never seen on one) reads as the most restrictive.
    private static WireAccessibility AccessibilityOf(Accessibility accessibility) => accessibility switch
    {
        Accessibility.Public => WireAccessibility.Public,
        Accessibility.Protected => WireAccessibility.Protected,
        Accessibility.Internal => WireAccessibility.Internal,
        Accessibility.ProtectedOrInternal => WireAccessibility.ProtectedInternal,
        Accessibility.ProtectedAndInternal => WireAccessibility.PrivateProtected,
        _ => WireAccessibility.Private,
    };

    private static IEnumerable<IParameterSymbol> ParametersOf(ISymbol symbol) => symbol switch
    {
        IMethodSymbol method => method.Parameters,
        IPropertySymbol property => property.Parameters,
        _ => [],
    };

    private static ITypeSymbol? ReturnTypeOf(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { ReturnsVoid: true } => null,
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } => null,
        IMethodSymbol method => method.ReturnType,
        IPropertySymbol property => property.Type,
        IFieldSymbol field => field.Type,
        IEventSymbol @event => @event.Type,
        _ => null,
    };

    /// <summary><c>Task</c>, <c>ValueTask</c> and their generic forms: awaitable the way async members are.</summary>
    private static bool IsTaskLike(ITypeSymbol type) =>
        type is INamedTypeSymbol { Name: "Task" or "ValueTask" } named &&
        named.ContainingNamespace.ToDisplayString() == "System.Threading.Tasks";
}
