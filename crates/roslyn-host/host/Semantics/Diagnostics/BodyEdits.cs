using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace RoslynMcp.Host.Semantics.Diagnostics;

/// <summary>
/// The members whose bodies changed between two versions of a syntax tree, when nothing else did: every
/// declaration, constant, attribute, initializer and preprocessor directive is as it was, so binding anything
/// outside those bodies gives what it gave before. Null when anything else changed, or when a changed body can
/// reach beyond itself: a <c>field</c> keyword (it makes a property's backing field) or <c>this</c> in a struct
/// (assigning it assigns every field).
/// </summary>
internal sealed record BodyEdits(IReadOnlyList<(SyntaxNode Before, SyntaxNode After)> Members)
{
    public static BodyEdits? Between(SyntaxTree before, SyntaxTree after, CancellationToken cancellationToken)
    {
        if (before.FilePath != after.FilePath || !before.Options.Equals(after.Options))
        {
            return null;
        }
        var old = before.GetRoot(cancellationToken);
        var now = after.GetRoot(cancellationToken);
        // Directives are trivia, which equivalence ignores; #nullable or #define change what declarations mean.
        if (!Directives(old).SequenceEqual(Directives(now)) || !SyntaxFactory.AreEquivalent(old, now, topLevel: true))
        {
            return null;
        }
        var changed = new List<(SyntaxNode Before, SyntaxNode After)>();
        if (!Compare(old, now, changed))
        {
            return null;
        }
        var reaching = changed.Any(pair => pair.Before.DescendantTokens().Concat(pair.After.DescendantTokens()).Any(token =>
            token.ValueText == "field" || (token.IsKind(SyntaxKind.ThisKeyword) && InStruct(pair.After))));
        return reaching ? null : new BodyEdits(changed);
    }

    /// <summary>The tree's preprocessor directives as written: trivia, which syntax equivalence ignores.</summary>
    public static IEnumerable<string> Directives(SyntaxNode root)
    {
        for (var directive = root.GetFirstDirective(); directive is not null; directive = directive.GetNextDirective())
        {
            yield return directive.ToString();
        }
    }

    private static bool InStruct(SyntaxNode node) =>
        node.Ancestors().OfType<TypeDeclarationSyntax>().FirstOrDefault() is StructDeclarationSyntax
            or RecordDeclarationSyntax { ClassOrStructKeyword.RawKind: (int)SyntaxKind.StructKeyword };

    /// <summary>
    /// Walks both trees member by member, adding each member whose body differs to <paramref name="changed"/>;
    /// false when anything but a body differs.
    /// </summary>
    private static bool Compare(SyntaxNode before, SyntaxNode after, List<(SyntaxNode, SyntaxNode)> changed) => (before, after) switch
    {
        (CompilationUnitSyntax was, CompilationUnitSyntax @is) =>
            Same(was.WithMembers(default), @is.WithMembers(default)) && EachMember(was.Members, @is.Members, changed),
        (BaseNamespaceDeclarationSyntax was, BaseNamespaceDeclarationSyntax @is) =>
            Same(was.WithMembers(default), @is.WithMembers(default)) && EachMember(was.Members, @is.Members, changed),
        (TypeDeclarationSyntax was, TypeDeclarationSyntax @is) =>
            Same(was.WithMembers(default), @is.WithMembers(default)) && EachMember(was.Members, @is.Members, changed),
        // A constructor initializer decides which constructor runs: a change there can close a cycle of them.
        (ConstructorDeclarationSyntax was, ConstructorDeclarationSyntax @is) =>
            Same(was.Initializer, @is.Initializer) && Body(was, @is, changed),
        (BaseMethodDeclarationSyntax was, BaseMethodDeclarationSyntax @is) => Body(was, @is, changed),
        (BasePropertyDeclarationSyntax was, BasePropertyDeclarationSyntax @is) => Property(was, @is, changed),
        // Fields, events, enums, delegates and top-level statements: all of it is declaration.
        _ => Same(before, after),
    };

    private static bool EachMember(SyntaxList<MemberDeclarationSyntax> before, SyntaxList<MemberDeclarationSyntax> after, List<(SyntaxNode, SyntaxNode)> changed) =>
        before.Count == after.Count && before.Zip(after).All(pair => Compare(pair.First, pair.Second, changed));

    private static bool Property(BasePropertyDeclarationSyntax before, BasePropertyDeclarationSyntax after, List<(SyntaxNode, SyntaxNode)> changed)
    {
        if (before is PropertyDeclarationSyntax was && !Same(was.Initializer, ((PropertyDeclarationSyntax)after).Initializer))
        {
            return false;
        }
        if (!Same(ExpressionBody(before), ExpressionBody(after)))
        {
            changed.Add((before, after));
        }
        var accessors = before.AccessorList?.Accessors ?? default;
        var others = after.AccessorList?.Accessors ?? default;
        return accessors.Count == others.Count && accessors.Zip(others).All(pair => Body(pair.First, pair.Second, changed));
    }

    private static ArrowExpressionClauseSyntax? ExpressionBody(BasePropertyDeclarationSyntax property) => property switch
    {
        PropertyDeclarationSyntax p => p.ExpressionBody,
        IndexerDeclarationSyntax i => i.ExpressionBody,
        _ => null,
    };

    /// <summary>Its header was compared with the tree (top-level equivalence); only the body may differ.</summary>
    private static bool Body(SyntaxNode before, SyntaxNode after, List<(SyntaxNode, SyntaxNode)> changed)
    {
        if (!Same(before, after))
        {
            changed.Add((before, after));
        }
        return true;
    }

    private static bool Same(SyntaxNode? before, SyntaxNode? after) =>
        before is null ? after is null : after is not null && SyntaxFactory.AreEquivalent(before, after, topLevel: false);
}
