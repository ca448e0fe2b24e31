using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Features.Navigation;

public static class ReferencesHandler
{
    public static async Task<ReferenceList> HandleAsync(Solution solution, ReferencesRequest request, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, request.Position, cancellationToken);
        var symbol = Definitions.Of(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
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

        // A place is found once per project compiling its file (once per target framework) and, at `new T()`, as
        // a type and its constructor. Only a cheap key is taken per find; the text, line and kind are worked out
        // once per place, for the location that wins it (see Wins).
        var places = new Dictionary<(string Path, TextSpan Span), Place>();
        foreach (var location in declarations)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (solution.GetDocument(location.SourceTree) is { } document)
            {
                Note(places, new Found(location, document.Project.Name, null));
            }
        }
        // Texts and trees already in memory come back without looking at the token: check it per use, or a
        // cancelled search of a large solution would still walk every reference.
        foreach (var referenced in found)
        {
            foreach (var use in referenced.Locations.Where(l => !l.IsImplicit && l.Location.IsInSource))
            {
                cancellationToken.ThrowIfCancellationRequested();
                Note(places, new Found(use.Location, use.Document.Project.Name, referenced.Definition));
            }
        }

        var references = new List<Reference>(places.Count);
        foreach (var place in places.Values)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var winner = place.Winner;
            var tree = winner.Location.SourceTree!;
            var text = await tree.GetTextAsync(cancellationToken);
            var kind = winner.Definition is null
                ? ReferenceKind.Declaration
                : await KindOfAsync(tree, winner.Location.SourceSpan, winner.Definition, cancellationToken);
            references.Add(new Reference(
                SymbolFormat.ToSpan(winner.Location),
                SymbolFormat.LineText(text, winner.Location.SourceSpan.Start),
                kind,
                winner.Project,
                TargetFrameworks.InNames(place.Projects)));
        }
        return new ReferenceList(SymbolFormat.Summarize(symbol), references.InSourceOrder(r => r.Span).ToValueList());
    }

    /// <summary>One find of a place: a declaration when <see cref="Definition"/> is null, else a use of it.</summary>
    private sealed record Found(Location Location, string Project, ISymbol? Definition);

    private sealed class Place(Found first)
    {
        public Found Winner { get; set; } = first;

        public HashSet<string> Projects { get; } = new(StringComparer.Ordinal) { first.Project };
    }

    private static void Note(Dictionary<(string Path, TextSpan Span), Place> places, Found found)
    {
        var key = (found.Location.SourceTree!.FilePath, found.Location.SourceSpan);
        if (!places.TryGetValue(key, out var place))
        {
            places[key] = new Place(found);
            return;
        }
        place.Projects.Add(found.Project);
        if (Wins(found, place.Winner))
        {
            place.Winner = found;
        }
    }

    /// <summary>
    /// Whether a find of a place wins over the one kept: a declaration wins over a use, then the project first in
    /// ordinal order (<c>Lib(net10.0)</c> before <c>Lib(net9.0)</c> for a multi-targeted project), so that the
    /// answer does not depend on the order the search finds them in.
    /// </summary>
    private static bool Wins(Found found, Found kept)
    {
        var declaration = found.Definition is null;
        var keptDeclaration = kept.Definition is null;
        return keptDeclaration == declaration ? string.CompareOrdinal(found.Project, kept.Project) < 0 : declaration;
    }

    private static async Task<ReferenceKind> KindOfAsync(SyntaxTree tree, TextSpan span, ISymbol definition, CancellationToken cancellationToken)
    {
        var root = await tree.GetRootAsync(cancellationToken);
        var node = root.FindNode(span, findInsideTrivia: true, getInnermostNodeForTie: true);
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
