using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Semantics.Namespaces;

/// <summary>
/// References that name a type with its namespace (<c>new Shop.Lib.Item { ... }</c>, <c>Shop.Lib.Item.Create()</c>,
/// <c>&lt;see cref="Shop.Lib.Item"/&gt;</c>), given the new namespace before Roslyn's change namespace service runs:
/// the service leaves some of them (an object creation) naming the old one, and shortens a cref it rewrites.
/// Afterwards the service finds nothing of them to change.
/// </summary>
internal static class QualifiedReferences
{
    public static async Task<Solution> RequalifyAsync(Solution solution, Document document, string oldNamespace, string newNamespace, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var model = await document.GetSemanticModelAsync(cancellationToken);
        var types = root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .OfType<BaseTypeDeclarationSyntax>()
            .Select(t => model!.GetDeclaredSymbol(t, cancellationToken))
            .OfType<INamedTypeSymbol>();
        var editor = new SolutionEditor(solution);
        var seen = new HashSet<(DocumentId, int)>();
        var replaced = 0;
        foreach (var type in types)
        {
            foreach (var location in (await SymbolFinder.FindReferencesAsync(type, solution, cancellationToken)).SelectMany(r => r.Locations))
            {
                if (location.Location.SourceTree is not { } tree || solution.GetDocument(tree) is not { } referencing)
                {
                    continue;
                }
                // Inside trivia too: a documentation comment's cref.
                var name = (await tree.GetRootAsync(cancellationToken)).FindToken(location.Location.SourceSpan.Start, findInsideTrivia: true).Parent;
                var qualifier = name?.Parent switch
                {
                    QualifiedNameSyntax qualified when qualified.Right == name => (SyntaxNode)qualified.Left,
                    MemberAccessExpressionSyntax access when access.Name == name => access.Expression,
                    NameMemberCrefSyntax { Parent: QualifiedCrefSyntax cref } member when cref.Member == member => cref.Container,
                    _ => null,
                };
                if (qualifier is null || !seen.Add((referencing.Id, qualifier.SpanStart)))
                {
                    continue;
                }
                var referencingModel = await referencing.GetSemanticModelAsync(cancellationToken);
                if (referencingModel!.GetSymbolInfo(qualifier, cancellationToken).Symbol is INamespaceSymbol { } named
                    && named.ToDisplayString() == oldNamespace)
                {
                    var prefix = qualifier.ToString().StartsWith("global::", StringComparison.Ordinal) ? "global::" : "";
                    var replacement = SyntaxFactory.ParseName(prefix + newNamespace).WithTriviaFrom(qualifier);
                    (await editor.GetDocumentEditorAsync(referencing.Id, cancellationToken)).ReplaceNode(qualifier, replacement);
                    replaced++;
                }
            }
        }
        return replaced > 0 ? await MergedChanges.IntoEveryFrameworkAsync(solution, editor.GetChangedSolution(), cancellationToken) : solution;
    }
}
