using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.Navigation;

/// <summary>What a member's declarations call: methods, constructors, properties and indexers.</summary>
internal static class OutgoingCalls
{
    public static async Task<Dictionary<ISymbol, List<Location>>> FindAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        var calls = new Dictionary<ISymbol, List<Location>>(SymbolEqualityComparer.Default);
        // Every declaration (a partial method has two), walked whole: accessors, expression bodies, constructor
        // initializers and lambdas or local functions inside included.
        foreach (var reference in symbol.DeclaringSyntaxReferences)
        {
            var declaration = await reference.GetSyntaxAsync(cancellationToken);
            if (solution.GetDocument(declaration.SyntaxTree) is not { } document
                || await document.GetSemanticModelAsync(cancellationToken) is not { } model)
            {
                continue;
            }
            foreach (var node in Bodies(declaration).SelectMany(b => b.DescendantNodesAndSelf()))
            {
                if (Call(model, node, cancellationToken) is var (callee, site) && !CallSites.IsMention(node))
                {
                    CallSites.Add(calls, Definitions.Of(callee), site);
                }
            }
        }
        return calls;
    }

    /// <summary>
    /// The code run by a declaration. A primary constructor is declared by its type: only its parameters'
    /// defaults and its base constructor call are its own.
    /// </summary>
    private static IEnumerable<SyntaxNode> Bodies(SyntaxNode declaration) => declaration switch
    {
        TypeDeclarationSyntax type => new SyntaxNode?[] { type.ParameterList }
            .Concat(type.BaseList?.Types.OfType<PrimaryConstructorBaseTypeSyntax>() ?? [])
            .OfType<SyntaxNode>(),
        _ => [declaration],
    };

    /// <summary>The member a node calls and the site naming it, or null when the node calls nothing.</summary>
    private static (ISymbol Callee, Location Site)? Call(SemanticModel model, SyntaxNode node, CancellationToken cancellationToken)
    {
        (SyntaxNode Target, Location Site)? call = node switch
        {
            InvocationExpressionSyntax invocation => (invocation, CallSites.NameToken(invocation.Expression).GetLocation()),
            ObjectCreationExpressionSyntax creation => (creation, CallSites.NameToken(creation.Type).GetLocation()),
            ImplicitObjectCreationExpressionSyntax creation => (creation, creation.NewKeyword.GetLocation()),
            ConstructorInitializerSyntax initializer => (initializer, initializer.ThisOrBaseKeyword.GetLocation()),
            PrimaryConstructorBaseTypeSyntax baseType => (baseType, CallSites.NameToken(baseType.Type).GetLocation()),
            // An indexer has no name: its site is the bracketed arguments.
            ElementAccessExpressionSyntax access => (access, access.ArgumentList.GetLocation()),
            ElementBindingExpressionSyntax binding => (binding, binding.ArgumentList.GetLocation()),
            IdentifierNameSyntax name => (name, name.GetLocation()),
            _ => null,
        };
        if (call is not var (target, site))
        {
            return null;
        }
        var callee = model.GetSymbolInfo(target, cancellationToken).Symbol;
        var isCall = target switch
        {
            ElementAccessExpressionSyntax or ElementBindingExpressionSyntax or IdentifierNameSyntax => callee is IPropertySymbol,
            _ => callee is IMethodSymbol,
        };
        return isCall ? (callee!, site) : null;
    }
}
