using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Protocol;
using ProtocolSpan = RoslynMcp.Host.Protocol.Span;

namespace RoslynMcp.Host.Handlers;

public static class ReferencesHandler
{
    public static async Task<ReferenceList> HandleAsync(Solution solution, ReferencesRequest request, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, request.Position, cancellationToken);
        var symbol = DefinitionHandler.Definition(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
        // Default options cascade as the IDE does: a type's constructors, a method's overrides and implementations.
        var found = await SymbolFinder.FindReferencesAsync(symbol, solution, cancellationToken);

        var declarations = new List<Location>();
        if (request.IncludeDeclaration)
        {
            declarations.AddRange(symbol.Locations.Where(l => l.IsInSource));
            declarations.AddRange(found
                .Select(r => r.Definition)
                .Where(d => !d.IsImplicitlyDeclared && d is not IMethodSymbol { AssociatedSymbol: not null })
                .SelectMany(d => d.Locations.Where(l => l.IsInSource)));
        }

        // A span found several times (a type and its constructor at `new T()`, a file of a multi-targeted project)
        // is reported once (see Replaces).
        var references = new Dictionary<ProtocolSpan, Reference>();
        foreach (var location in declarations)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var span = SymbolFormat.ToSpan(location);
            if (solution.GetDocument(location.SourceTree) is { } document && Replaces(references, span, document.Project.Name, true))
            {
                var text = await location.SourceTree!.GetTextAsync(cancellationToken);
                references[span] = new Reference(span, SymbolFormat.LineText(text, location.SourceSpan.Start), ReferenceKind.Declaration, document.Project.Name);
            }
        }
        // Texts and trees already in memory come back without looking at the token: check it per use, or a
        // cancelled search of a large solution would still walk every reference.
        foreach (var referenced in found)
        {
            foreach (var use in referenced.Locations.Where(l => !l.IsImplicit && l.Location.IsInSource))
            {
                cancellationToken.ThrowIfCancellationRequested();
                var span = SymbolFormat.ToSpan(use.Location);
                if (!Replaces(references, span, use.Document.Project.Name, false))
                {
                    continue;
                }
                var text = await use.Document.GetTextAsync(cancellationToken);
                var kind = await KindOfAsync(use, referenced.Definition, cancellationToken);
                references[span] = new Reference(span, SymbolFormat.LineText(text, use.Location.SourceSpan.Start), kind, use.Document.Project.Name);
            }
        }
        return new ReferenceList(SymbolFormat.Summarize(symbol), references.Values.InSourceOrder(r => r.Span).ToValueList());
    }

    /// <summary>
    /// Whether a span found (again) in <paramref name="project"/> replaces what is kept for it: a declaration
    /// wins over a use, then the project first in ordinal order (<c>Lib(net10.0)</c> before <c>Lib(net9.0)</c> for
    /// a multi-targeted project), so that the answer does not depend on the order the search finds them in.
    /// </summary>
    private static bool Replaces(Dictionary<ProtocolSpan, Reference> references, ProtocolSpan span, string project, bool declaration)
    {
        if (!references.TryGetValue(span, out var kept))
        {
            return true;
        }
        var keptDeclaration = kept.Kind == ReferenceKind.Declaration;
        return keptDeclaration == declaration ? string.CompareOrdinal(project, kept.Project) < 0 : declaration;
    }

    private static async Task<ReferenceKind> KindOfAsync(ReferenceLocation use, ISymbol definition, CancellationToken cancellationToken)
    {
        var root = await use.Location.SourceTree!.GetRootAsync(cancellationToken);
        var node = root.FindNode(use.Location.SourceSpan, findInsideTrivia: true, getInnermostNodeForTie: true);
        if (node.AncestorsAndSelf().Any(n => n is CrefSyntax))
        {
            return ReferenceKind.Other;
        }
        if (IsInsideNameOf(node))
        {
            return ReferenceKind.NameOf;
        }
        var name = WholeName(node);
        if (name is ImplicitObjectCreationExpressionSyntax
            || name.Parent is ObjectCreationExpressionSyntax creation && creation.Type == name)
        {
            return ReferenceKind.ObjectCreation;
        }
        if (name is ConstructorInitializerSyntax || IsInvoked(name))
        {
            return ReferenceKind.Invocation;
        }
        if (IsWrittenTo(name))
        {
            return ReferenceKind.Write;
        }
        return definition is ITypeSymbol ? ReferenceKind.TypeReference : ReferenceKind.Read;
    }

    /// <summary>The name including its qualifiers: <c>A.B</c> for <c>B</c>, <c>List&lt;T&gt;</c> for <c>List</c>.</summary>
    private static SyntaxNode WholeName(SyntaxNode node)
    {
        while (node.Parent is QualifiedNameSyntax qualified && qualified.Right == node
            || node.Parent is AliasQualifiedNameSyntax alias && alias.Name == node)
        {
            node = node.Parent;
        }
        return node;
    }

    private static bool IsInvoked(SyntaxNode name)
    {
        var callee = name.Parent switch
        {
            MemberAccessExpressionSyntax access when access.Name == name => access,
            MemberBindingExpressionSyntax binding when binding.Name == name => binding,
            _ => name,
        };
        return callee.Parent is InvocationExpressionSyntax invocation && invocation.Expression == callee;
    }

    /// <summary>
    /// Whether the name is assigned, incremented, passed by ref/out or deconstructed into. (Roslyn computes the
    /// same as <c>SymbolUsageInfo</c>, but does not expose it on <see cref="ReferenceLocation"/>.)
    /// </summary>
    private static bool IsWrittenTo(SyntaxNode name)
    {
        var target = name.Parent is MemberAccessExpressionSyntax access && access.Name == name ? access : name;
        while (target.Parent is ParenthesizedExpressionSyntax
               || target.Parent is ArgumentSyntax { Parent: TupleExpressionSyntax })
        {
            target = target.Parent is ArgumentSyntax { Parent: TupleExpressionSyntax tuple } ? tuple : target.Parent;
        }
        return target.Parent switch
        {
            AssignmentExpressionSyntax assignment => assignment.Left == target,
            PrefixUnaryExpressionSyntax prefix => prefix.IsKind(SyntaxKind.PreIncrementExpression) || prefix.IsKind(SyntaxKind.PreDecrementExpression),
            PostfixUnaryExpressionSyntax postfix => postfix.IsKind(SyntaxKind.PostIncrementExpression) || postfix.IsKind(SyntaxKind.PostDecrementExpression),
            ArgumentSyntax argument => argument.RefKindKeyword.IsKind(SyntaxKind.RefKeyword) || argument.RefKindKeyword.IsKind(SyntaxKind.OutKeyword),
            _ => false,
        };
    }

    private static bool IsInsideNameOf(SyntaxNode node) =>
        node.Ancestors().OfType<InvocationExpressionSyntax>().Any(invocation =>
            invocation.Expression is IdentifierNameSyntax { Identifier.ValueText: "nameof" });
}
