using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Handlers.Sources;

/// <summary>
/// Where a symbol is declared in C# that no compilation binds (a PDB's embedded source, decompiled text): found by
/// its namespace, containing types, name, arity and parameters, as written.
/// </summary>
public static class Declarations
{
    /// <summary>The declaration of <paramref name="symbol"/> in <paramref name="root"/>, or null.</summary>
    public static SyntaxNode? Find(SyntaxNode root, ISymbol symbol)
    {
        var type = symbol as INamedTypeSymbol ?? symbol.ContainingType;
        if (type is null)
        {
            return null;
        }
        var declaration = FindType(root, type);
        if (declaration is null || SymbolEqualityComparer.Default.Equals(symbol, type))
        {
            return declaration;
        }
        var member = symbol is IMethodSymbol { AssociatedSymbol: { } associated } ? associated : symbol;
        var candidates = declaration.ChildNodes().Where(n => Declares(n, member)).ToList();
        return candidates.FirstOrDefault(n => ParametersMatch(n, member)) ?? candidates.FirstOrDefault();
    }

    /// <summary>The span of the declared name in a declaration node.</summary>
    public static SyntaxToken Identifier(SyntaxNode node) => node switch
    {
        BaseTypeDeclarationSyntax type => type.Identifier,
        DelegateDeclarationSyntax @delegate => @delegate.Identifier,
        MethodDeclarationSyntax method => method.Identifier,
        ConstructorDeclarationSyntax ctor => ctor.Identifier,
        DestructorDeclarationSyntax dtor => dtor.Identifier,
        PropertyDeclarationSyntax property => property.Identifier,
        EventDeclarationSyntax @event => @event.Identifier,
        IndexerDeclarationSyntax indexer => indexer.ThisKeyword,
        OperatorDeclarationSyntax op => op.OperatorToken,
        ConversionOperatorDeclarationSyntax conversion => conversion.Type.GetFirstToken(),
        BaseFieldDeclarationSyntax field => field.Declaration.Variables[0].Identifier,
        VariableDeclaratorSyntax variable => variable.Identifier,
        EnumMemberDeclarationSyntax enumMember => enumMember.Identifier,
        _ => node.GetFirstToken(),
    };

    private static SyntaxNode? FindType(SyntaxNode root, INamedTypeSymbol type)
    {
        var containers = new Stack<INamedTypeSymbol>();
        for (var t = type; t is not null; t = t.ContainingType)
        {
            containers.Push(t);
        }
        var ns = containers.Peek().ContainingNamespace is { IsGlobalNamespace: false } n ? n.ToDisplayString() : "";
        IEnumerable<SyntaxNode> scope = root.DescendantNodes(d => d is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .Where(d => IsTypeDeclaration(d) && NamespaceOf(d) == ns);
        SyntaxNode? found = null;
        while (containers.Count > 0)
        {
            var wanted = containers.Pop();
            found = scope.FirstOrDefault(d => IsTypeDeclaration(d) && Identifier(d).ValueText == wanted.Name && Arity(d) == wanted.Arity);
            if (found is null)
            {
                return null;
            }
            scope = found.ChildNodes();
        }
        return found;
    }

    private static bool IsTypeDeclaration(SyntaxNode node) => node is BaseTypeDeclarationSyntax or DelegateDeclarationSyntax;

    private static int Arity(SyntaxNode node) => node switch
    {
        TypeDeclarationSyntax type => type.TypeParameterList?.Parameters.Count ?? 0,
        DelegateDeclarationSyntax @delegate => @delegate.TypeParameterList?.Parameters.Count ?? 0,
        _ => 0,
    };

    private static string NamespaceOf(SyntaxNode node) => string.Join('.', node.Ancestors()
        .OfType<BaseNamespaceDeclarationSyntax>()
        .Reverse()
        .Select(n => n.Name.ToString()));

    private static bool Declares(SyntaxNode node, ISymbol member) => (node, member) switch
    {
        (ConstructorDeclarationSyntax ctor, IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } method) =>
            ctor.Modifiers.Any(SyntaxKind.StaticKeyword) == method.IsStatic,
        (DestructorDeclarationSyntax, IMethodSymbol { MethodKind: MethodKind.Destructor }) => true,
        (MethodDeclarationSyntax method, IMethodSymbol symbol) => method.Identifier.ValueText == PlainName(symbol)
            && (method.TypeParameterList?.Parameters.Count ?? 0) == symbol.Arity,
        (OperatorDeclarationSyntax op, IMethodSymbol { MethodKind: MethodKind.UserDefinedOperator } symbol) =>
            SyntaxFacts.GetText(op.OperatorToken.Kind()) == OperatorText(symbol),
        (ConversionOperatorDeclarationSyntax, IMethodSymbol { MethodKind: MethodKind.Conversion }) => true,
        (IndexerDeclarationSyntax, IPropertySymbol { IsIndexer: true }) => true,
        (PropertyDeclarationSyntax property, IPropertySymbol symbol) => property.Identifier.ValueText == PlainName(symbol),
        (EventDeclarationSyntax @event, IEventSymbol symbol) => @event.Identifier.ValueText == PlainName(symbol),
        (BaseFieldDeclarationSyntax field, IFieldSymbol or IEventSymbol) =>
            field.Declaration.Variables.Any(v => v.Identifier.ValueText == member.Name),
        (EnumMemberDeclarationSyntax enumMember, IFieldSymbol symbol) => enumMember.Identifier.ValueText == symbol.Name,
        _ => false,
    };

    // An explicit implementation's metadata name carries its interface (`System.IDisposable.Dispose`).
    private static string PlainName(ISymbol symbol) => symbol.Name[(symbol.Name.LastIndexOf('.') + 1)..];

    private static string OperatorText(IMethodSymbol symbol) =>
        symbol.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat).Split('(')[0].Replace("operator", "").Trim();

    /// <summary>Parameter count and, where written, each parameter's type name match the symbol's.</summary>
    private static bool ParametersMatch(SyntaxNode node, ISymbol member)
    {
        var written = node switch
        {
            BaseMethodDeclarationSyntax method => method.ParameterList.Parameters,
            IndexerDeclarationSyntax indexer => indexer.ParameterList.Parameters,
            _ => default(SeparatedSyntaxList<ParameterSyntax>?),
        };
        var parameters = member switch
        {
            IMethodSymbol method => method.Parameters,
            IPropertySymbol property => property.Parameters,
            _ => default(System.Collections.Immutable.ImmutableArray<IParameterSymbol>?),
        };
        if (written is not { } syntax || parameters is not { } symbols)
        {
            return true;
        }
        return syntax.Count == symbols.Length && syntax.Zip(symbols).All(p => SameTypeName(p.First.Type, p.Second.Type));
    }

    // `List<int>`, `System.Collections.Generic.List<int>` and `int` as `Int32`: compared by the last simple name.
    private static bool SameTypeName(TypeSyntax? written, ITypeSymbol type)
    {
        if (written is null)
        {
            return true;
        }
        var text = written.ToString();
        var simple = type.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat);
        return text == simple
            || text.EndsWith("." + simple, StringComparison.Ordinal)
            || LastName(text) == LastName(simple)
            || LastName(text) == type.Name;
    }

    private static string LastName(string name)
    {
        var open = name.IndexOf('<');
        var bare = open < 0 ? name : name[..open];
        return bare[(bare.LastIndexOf('.') + 1)..].TrimEnd('?', '[', ']');
    }
}
