using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Sources;
using ProtocolSpan = RoslynMcp.Host.Protocol.Span;

namespace RoslynMcp.Host.Semantics;

/// <summary>How symbols, types and locations are written into answers (<c>Display</c>: SymbolFormat.Display.cs).</summary>
public static partial class SymbolFormat
{
    /// <summary><c>System.Collections.Generic.List&lt;System.String&gt;</c>: metadata names for special types.</summary>
    public static readonly SymbolDisplayFormat FullName = SymbolDisplayFormat.FullyQualifiedFormat
        .WithGlobalNamespaceStyle(SymbolDisplayGlobalNamespaceStyle.Omitted)
        .RemoveMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.UseSpecialTypes);

    public static SymbolSummary Summarize(ISymbol symbol)
    {
        // Locals and parameters live in a member, not directly in a type or namespace.
        var isMemberScoped = symbol.ContainingSymbol is not (INamedTypeSymbol or INamespaceSymbol) && symbol is not INamespaceSymbol;
        var name = symbol switch
        {
            IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } ctor => ctor.ContainingType.Name,
            // Arrays, pointers and tuples have no name of their own.
            _ when symbol.Name.Length == 0 => symbol.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat),
            _ => symbol.Name,
        };
        return new SymbolSummary(
            name,
            KindOf(symbol),
            symbol.ToDisplayString(Display),
            isMemberScoped ? null : symbol.ContainingType?.ToDisplayString(FullName),
            isMemberScoped ? null : NamespaceOf(symbol),
            AssemblyOf(symbol),
            IsMetadata(symbol),
            KeyOf(symbol));
    }

    /// <summary>
    /// The symbol's canonical identity: its documentation comment id (or its original definition's), else, for
    /// locals, parameters, type parameters and the like, its kind and display with where it is declared (or its
    /// assembly).
    /// </summary>
    public static string KeyOf(ISymbol symbol)
    {
        if ((DocumentationId(symbol) ?? DocumentationId(symbol.OriginalDefinition)) is { } id)
        {
            return id;
        }
        var prefix = $"{KindOf(symbol)}|{symbol.ToDisplayString(Display)}|";
        if (FirstSourceLocation(symbol) is not { } location)
        {
            return prefix + AssemblyOf(symbol);
        }
        var span = ToSpan(location);
        return prefix + $"{span.File}:{span.StartLine}:{span.StartColumn}";
    }

    // Type parameters and error types get `!:T`, which names nothing unambiguously.
    private static string? DocumentationId(ISymbol symbol) =>
        symbol.GetDocumentationCommentId() is { Length: > 0 } id && !id.StartsWith("!:", StringComparison.Ordinal) ? id : null;

    /// <summary>The symbol's summary with its first source declaration; no location for metadata symbols.</summary>
    public static async Task<SymbolRef> RefAsync(ISymbol symbol, CancellationToken ct)
    {
        var location = FirstSourceLocation(symbol);
        return new SymbolRef(Summarize(symbol), location is null ? null : await ToSourceLocationAsync(location, ct));
    }

    /// <summary>The first declaration in source, by path and then position.</summary>
    private static Location? FirstSourceLocation(ISymbol symbol) => symbol.Locations
        .Where(l => l.IsInSource)
        .OrderBy(l => l.SourceTree!.FilePath, StringComparer.Ordinal)
        .ThenBy(l => l.SourceSpan.Start)
        .FirstOrDefault();

    public static bool IsMetadata(ISymbol symbol) => !symbol.Locations.Any(l => l.IsInSource);

    public static string AssemblyOf(ISymbol symbol) => symbol switch
    {
        IArrayTypeSymbol array => AssemblyOf(array.ElementType),
        IPointerTypeSymbol pointer => AssemblyOf(pointer.PointedAtType),
        _ => symbol.ContainingAssembly?.Name ?? "",
    };

    /// <summary>The containing namespace, or null for the global one.</summary>
    public static string? NamespaceOf(ISymbol symbol) =>
        symbol.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString(FullName) : null;

    /// <summary>Roslyn's kind, refined for C# (records, constructors, ...).</summary>
    public static string KindOf(ISymbol symbol) => symbol switch
    {
        ITypeSymbol type => TypeKindOf(type),
        IMethodSymbol method => method.MethodKind switch
        {
            MethodKind.Constructor or MethodKind.StaticConstructor => "Constructor",
            MethodKind.Destructor => "Destructor",
            MethodKind.UserDefinedOperator or MethodKind.BuiltinOperator or MethodKind.Conversion => "Operator",
            MethodKind.LocalFunction => "LocalFunction",
            MethodKind.PropertyGet or MethodKind.PropertySet or MethodKind.EventAdd or MethodKind.EventRemove => "Accessor",
            _ => "Method",
        },
        _ => symbol.Kind.ToString(),
    };

    public static string TypeKindOf(ITypeSymbol type) => type.TypeKind switch
    {
        TypeKind.Class when type.IsRecord => "Record",
        TypeKind.Struct when type.IsRecord => "RecordStruct",
        var kind => kind.ToString(),
    };

    /// <summary>A source location as a 1-based span with an exclusive end.</summary>
    public static ProtocolSpan ToSpan(Location location)
    {
        var lines = location.GetLineSpan();
        return new ProtocolSpan(
            GeneratedDocuments.PathOf(location.SourceTree, lines.Path),
            (uint)lines.StartLinePosition.Line + 1,
            (uint)lines.StartLinePosition.Character + 1,
            (uint)lines.EndLinePosition.Line + 1,
            (uint)lines.EndLinePosition.Character + 1);
    }

    /// <summary>A span of a tree (a document's, or a metadata document's under its virtual path).</summary>
    public static ProtocolSpan ToSpan(SyntaxTree tree, TextSpan span) => ToSpan(Location.Create(tree, span));

    /// <summary>The trimmed text of the line a location starts on.</summary>
    public static string LineText(SourceText text, int position) =>
        text.Lines.GetLineFromPosition(position).ToString().Trim();

    public static async Task<SourceLocation> ToSourceLocationAsync(Location location, CancellationToken cancellationToken)
    {
        var text = await location.SourceTree!.GetTextAsync(cancellationToken);
        return new SourceLocation(ToSpan(location), LineText(text, location.SourceSpan.Start));
    }

    /// <summary>
    /// Every source declaration of the symbol, a partial member's both parts included, sorted by path and
    /// position; empty for metadata symbols.
    /// </summary>
    public static async Task<ValueList<SourceLocation>> DeclarationsAsync(ISymbol symbol, CancellationToken cancellationToken)
    {
        var locations = new List<SourceLocation>();
        foreach (var location in WithPartialPart(symbol).SelectMany(s => s.Locations).Where(l => l.IsInSource))
        {
            locations.Add(await ToSourceLocationAsync(location, cancellationToken));
        }
        return locations.InSourceOrder(l => l.Span).ToValueList();
    }

    /// <summary>
    /// The symbol and, for a partial method, property or event, its other part: Roslyn makes the declaring part
    /// (what calls bind to) and the implementing part (often a source generator's) two symbols.
    /// </summary>
    public static IEnumerable<ISymbol> WithPartialPart(ISymbol symbol) =>
        PartialImplementation(symbol) is { } implementation ? [PartialDefinition(symbol), implementation] : [symbol];

    /// <summary>The implementing part of a partial method, property or event, asked at either part; null for other symbols.</summary>
    public static ISymbol? PartialImplementation(ISymbol symbol) => PartialDefinition(symbol) switch
    {
        IMethodSymbol method => method.PartialImplementationPart,
        IPropertySymbol property => property.PartialImplementationPart,
        IEventSymbol @event => @event.PartialImplementationPart,
        _ => null,
    };

    /// <summary>The declaring part of a partial member given its implementing part; any other symbol itself.</summary>
    private static ISymbol PartialDefinition(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { PartialDefinitionPart: { } definition } => definition,
        IPropertySymbol { PartialDefinitionPart: { } definition } => definition,
        IEventSymbol { PartialDefinitionPart: { } definition } => definition,
        _ => symbol,
    };

    public static IOrderedEnumerable<T> InSourceOrder<T>(this IEnumerable<T> items, Func<T, ProtocolSpan> span) =>
        items.OrderBy(i => span(i).File, StringComparer.Ordinal)
            .ThenBy(i => span(i).StartLine)
            .ThenBy(i => span(i).StartColumn)
            .ThenBy(i => span(i).EndLine)
            .ThenBy(i => span(i).EndColumn);
}
