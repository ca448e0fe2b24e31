using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Sources;
using Position = RoslynMcp.Host.Protocol.Position;
using ProtocolTypeInfo = RoslynMcp.Host.Protocol.TypeInfo;

namespace RoslynMcp.Host.Features.Navigation;

public static class TypeAtPositionHandler
{
    public static async Task<ProtocolTypeInfo> HandleAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        var symbol = await PositionResolver.FindSymbolAsync(at, cancellationToken);
        var type = symbol is null ? await ExpressionTypeAsync(at, cancellationToken) : TypeOf(symbol);
        if (type is null)
        {
            if (symbol is null)
            {
                throw await PositionResolver.SymbolNotFoundAsync(at, cancellationToken);
            }
            throw HostErrorException.Create(
                ErrorCode.SymbolNotFound,
                $"'{symbol.Name}' ({SymbolFormat.KindOf(symbol)}) at {position.File}:{position.Line}:{position.Column} has no type",
                suggestions: "Place the column on a variable, member, expression or type name");
        }

        return new ProtocolTypeInfo(
            SymbolFormat.Summarize(symbol ?? type),
            type.ToMinimalDisplayString(at.Model, at.Offset),
            type.ToDisplayString(SymbolFormat.FullName),
            SymbolFormat.TypeKindOf(type),
            SymbolFormat.AssemblyOf(type),
            SymbolFormat.NamespaceOf(type) ?? "",
            DocComments.Summary(type),
            type is INamedTypeSymbol { IsGenericType: true },
            type is INamedTypeSymbol named ? named.TypeArguments.Select(FullName).ToValueList() : [],
            type.TypeKind == TypeKind.Interface || type.BaseType is null ? null : FullName(type.BaseType),
            type.AllInterfaces.Select(FullName).Distinct().Order(StringComparer.Ordinal).ToValueList(),
            await SymbolFormat.DeclarationsAsync(type, cancellationToken),
            await MetadataDocuments.Shared.PlaceOfAsync(solution, type, cancellationToken));
    }

    /// <summary>The type a symbol has, is, or returns.</summary>
    public static ITypeSymbol? TypeOf(ISymbol symbol) => symbol switch
    {
        // With nullable enabled `var` always infers `T?`: the annotation says nothing about the variable.
        ITypeSymbol type => WithoutAnnotation(type),
        ILocalSymbol local when IsDeclaredWithVar(local) => WithoutAnnotation(local.Type),
        ILocalSymbol local => local.Type,
        IParameterSymbol parameter => parameter.Type,
        IFieldSymbol field => field.Type,
        IPropertySymbol property => property.Type,
        IEventSymbol @event => @event.Type,
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } ctor => ctor.ContainingType,
        IMethodSymbol method => method.ReturnType,
        IAliasSymbol alias => alias.Target as ITypeSymbol,
        IDiscardSymbol discard => discard.Type,
        _ => null,
    };

    private static ITypeSymbol WithoutAnnotation(ITypeSymbol type) =>
        type.IsReferenceType ? type.WithNullableAnnotation(NullableAnnotation.NotAnnotated) : type;

    private static bool IsDeclaredWithVar(ILocalSymbol local) =>
        local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() switch
        {
            VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax declaration } => declaration.Type.IsVar,
            ForEachStatementSyntax forEach => forEach.Type.IsVar,
            SingleVariableDesignationSyntax designation => designation.Ancestors().Any(a =>
                a is DeclarationExpressionSyntax { Type.IsVar: true } or VarPatternSyntax),
            _ => false,
        };

    /// <summary>Without a symbol (a literal, an operator), the type of the innermost expression there.</summary>
    private static async Task<ITypeSymbol?> ExpressionTypeAsync(ResolvedPosition at, CancellationToken cancellationToken)
    {
        var root = await at.Model.SyntaxTree.GetRootAsync(cancellationToken);
        var token = root.FindToken(at.Offset);
        if (!token.Span.Contains(at.Offset) && token.Span.End != at.Offset)
        {
            return null;
        }
        var expression = token.Parent?.AncestorsAndSelf().OfType<ExpressionSyntax>().FirstOrDefault();
        return expression is null ? null : at.Model.GetTypeInfo(expression, cancellationToken).Type;
    }

    private static string FullName(ITypeSymbol type) => type.ToDisplayString(SymbolFormat.FullName);
}
