using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// Conflicts visible before renaming: a member or type of the new name beside the symbol that is not a legal
/// overload, a local, parameter, range variable or type parameter of the new name in scope where the symbol is
/// declared or used, and, for a local-like symbol, uses of another symbol of the new name it would shadow.
/// </summary>
internal static class DeclaredConflicts
{
    public static async Task<List<Conflict>> FindAsync(
        Solution solution,
        ISymbol symbol,
        IReadOnlyCollection<ISymbol> renamed,
        IEnumerable<Location> places,
        string newName,
        CancellationToken cancellationToken)
    {
        var name = newName.TrimStart('@');
        var conflicts = new List<Conflict>();
        conflicts.AddRange(InContainer(symbol, renamed, name));
        foreach (var place in places)
        {
            if (solution.GetDocument(place.SourceTree) is not { } document
                || await document.GetSemanticModelAsync(cancellationToken) is not { } model)
            {
                continue;
            }
            foreach (var found in model.LookupSymbols(place.SourceSpan.Start, name: name))
            {
                if (IsLocalLike(found) && !renamed.Contains(found, SymbolEqualityComparer.Default))
                {
                    conflicts.AddRange(found.Locations.Where(l => l.IsInSource).Select(l => Conflict.At(l, name, SymbolFormat.KindOf(found))));
                }
            }
        }
        if (IsLocalLike(symbol))
        {
            conflicts.AddRange(await ShadowedAsync(solution, symbol, name, cancellationToken));
        }
        return [.. conflicts.Distinct()];
    }

    private static bool IsLocalLike(ISymbol symbol) =>
        symbol is ILocalSymbol or IParameterSymbol or IRangeVariableSymbol or ITypeParameterSymbol;

    /// <summary>Members and types the symbol's type or namespace already declares under the new name.</summary>
    private static IEnumerable<Conflict> InContainer(ISymbol symbol, IReadOnlyCollection<ISymbol> renamed, string name)
    {
        if (IsLocalLike(symbol) || symbol is ILabelSymbol)
        {
            return [];
        }
        INamespaceOrTypeSymbol? container = symbol.ContainingType ?? (INamespaceOrTypeSymbol?)symbol.ContainingNamespace;
        if (container is null)
        {
            return [];
        }
        return container.GetMembers(name)
            .Where(existing => !renamed.Contains(existing, SymbolEqualityComparer.Default) && !existing.IsImplicitlyDeclared)
            .Where(existing => !LegalSideBySide(symbol, existing))
            .SelectMany(existing => existing.Locations.Where(l => l.IsInSource).Select(l => Conflict.At(l, name, SymbolFormat.KindOf(existing))));
    }

    /// <summary>Overloads with other parameters, generic types of another arity, and namespaces that merge.</summary>
    private static bool LegalSideBySide(ISymbol symbol, ISymbol existing) => (symbol, existing) switch
    {
        (IMethodSymbol a, IMethodSymbol b) => !SameParameters(a, b),
        (INamedTypeSymbol a, INamedTypeSymbol b) => a.Arity != b.Arity,
        (INamespaceSymbol, INamespaceSymbol) => true,
        _ => false,
    };

    private static bool SameParameters(IMethodSymbol a, IMethodSymbol b) =>
        a.Arity == b.Arity
        && a.Parameters.Length == b.Parameters.Length
        && a.Parameters.Zip(b.Parameters).All(p =>
            p.First.RefKind == p.Second.RefKind && SymbolEqualityComparer.Default.Equals(p.First.Type, p.Second.Type));

    /// <summary>
    /// Simple-name uses of another symbol of the new name inside the scope of a local-like symbol: after the
    /// rename they would bind to it instead.
    /// </summary>
    private static async Task<List<Conflict>> ShadowedAsync(Solution solution, ISymbol symbol, string name, CancellationToken cancellationToken)
    {
        var conflicts = new List<Conflict>();
        foreach (var reference in symbol.DeclaringSyntaxReferences)
        {
            var declaration = await reference.GetSyntaxAsync(cancellationToken);
            var scope = ScopeOf(declaration);
            if (scope is null || solution.GetDocument(reference.SyntaxTree) is not { } document
                || await document.GetSemanticModelAsync(cancellationToken) is not { } model)
            {
                continue;
            }
            foreach (var identifier in scope.DescendantNodes().OfType<IdentifierNameSyntax>().Where(i => i.Identifier.ValueText == name))
            {
                if (identifier.Parent is MemberAccessExpressionSyntax access && access.Name == identifier
                    || identifier.Parent is MemberBindingExpressionSyntax or NameColonSyntax)
                {
                    continue;
                }
                var bound = model.GetSymbolInfo(identifier, cancellationToken).Symbol;
                if (bound is not null && !IsLocalLike(bound))
                {
                    conflicts.Add(Conflict.At(identifier.GetLocation(), name, SymbolFormat.KindOf(bound)));
                }
            }
        }
        return conflicts;
    }

    /// <summary>Where a local-like symbol's name is in scope.</summary>
    private static SyntaxNode? ScopeOf(SyntaxNode declaration) => declaration switch
    {
        ParameterSyntax { Parent.Parent: { } owner } => owner,
        TypeParameterSyntax { Parent.Parent: { } owner } => owner,
        _ => declaration.Ancestors().FirstOrDefault(a => a is BlockSyntax or SwitchSectionSyntax or QueryExpressionSyntax
            or AnonymousFunctionExpressionSyntax or ArrowExpressionClauseSyntax or ForStatementSyntax or ForEachStatementSyntax
            or UsingStatementSyntax or CatchClauseSyntax),
    };
}
