using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;
using Accessibility = Microsoft.CodeAnalysis.Accessibility;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// What is unused in the original solution: each file is asked of every project that compiles it (each target
/// framework), and only what all of them report is kept; code under <c>#if</c> may use what another framework
/// calls unused.
/// </summary>
internal static class FoundItems
{
    public static async Task<List<UnusedItem>> InAsync(
        Solution solution,
        IReadOnlyList<string> paths,
        IReadOnlySet<UnusedKind> kinds,
        bool includePublic,
        CancellationToken cancellationToken)
    {
        var analyzed = UnusedRules.Analyzed.Where(r => kinds.Contains(UnusedRules.KindOf(r))).ToHashSet(StringComparer.Ordinal);
        var items = new List<UnusedItem>();
        foreach (var path in FileProgress.Through(paths))
        {
            var documents = PositionResolver.DocumentsAt(solution, path);
            HashSet<(string Rule, TextSpan Span)>? agreed = null;
            foreach (var document in documents)
            {
                var reported = await ReportedAsync(document, analyzed, kinds, includePublic, cancellationToken);
                agreed = agreed is null ? reported : [.. agreed.Intersect(reported)];
            }
            var text = await documents[0].GetTextAsync(cancellationToken);
            items.AddRange((agreed ?? [])
                .GroupBy(r => r.Span)
                .Select(g => g.MinBy(r => UnusedRules.RankOf(r.Rule)))
                .Select(r => new UnusedItem(UnusedRules.KindOf(r.Rule), r.Rule, path, r.Span, text.ToString(r.Span), text.Lines.GetLinePosition(r.Span.Start))));
            if (kinds.Contains(UnusedKind.Usings))
            {
                items.AddRange(await UsingsAsync(documents, path, cancellationToken));
            }
        }
        return items;
    }

    /// <summary>What one project reports in the document, found removable.</summary>
    private static async Task<HashSet<(string Rule, TextSpan Span)>> ReportedAsync(
        Document document,
        IReadOnlySet<string> analyzed,
        IReadOnlySet<UnusedKind> kinds,
        bool includePublic,
        CancellationToken cancellationToken)
    {
        var model = (await document.GetSemanticModelAsync(cancellationToken))!;
        var diagnostics = analyzed.Count == 0 ? [] : await AnalyzerDiagnostics.OfDocumentAsync(document, null, analyzed, cancellationToken);
        var compiled = kinds.Contains(UnusedKind.Locals)
            ? model.GetDiagnostics(cancellationToken: cancellationToken).Where(d => UnusedRules.Compiled.Contains(d.Id))
            : [];
        var reported = diagnostics.Concat(compiled)
            .Where(d => d.Location.IsInSource && d.Location.SourceTree == model.SyntaxTree)
            .Select(d => (Rule: d.Id, Span: d.Location.SourceSpan))
            .Where(r => Removable(model, r.Rule, r.Span, cancellationToken))
            .ToHashSet();
        if (includePublic && kinds.Contains(UnusedKind.Members))
        {
            foreach (var span in await UnreferencedMembers.InAsync(document, cancellationToken))
            {
                reported.Add((UnusedItem.Unreferenced, span));
            }
        }
        return reported;
    }

    /// <summary>
    /// Members with attributes may be used through reflection or by tools, whatever the analyzer says; only
    /// parameters of private ordinary methods can lose their arguments at every call without changing an API.
    /// </summary>
    private static bool Removable(SemanticModel model, string rule, TextSpan span, CancellationToken cancellationToken)
    {
        var declaration = model.SyntaxTree.GetRoot(cancellationToken).FindToken(span.Start).Parent;
        var symbol = declaration is null ? null : model.GetDeclaredSymbol(declaration, cancellationToken);
        return rule switch
        {
            UnusedRules.UnusedMember or UnusedRules.UnreadMember => symbol is not null && symbol.GetAttributes().IsEmpty,
            UnusedRules.UnusedParameter => symbol is IParameterSymbol
            {
                RefKind: RefKind.None,
                IsParams: false,
                ContainingSymbol: IMethodSymbol
                {
                    MethodKind: MethodKind.Ordinary,
                    DeclaredAccessibility: Accessibility.Private,
                    IsExtensionMethod: false,
                    PartialDefinitionPart: null,
                    PartialImplementationPart: null,
                },
            },
            _ => true,
        };
    }

    /// <summary>
    /// The using directives every project compiling the file finds unnecessary (global usings are kept); a
    /// directive under <c>#if</c> is named by a project that sees it.
    /// </summary>
    private static async Task<IEnumerable<UnusedItem>> UsingsAsync(List<Document> documents, string path, CancellationToken cancellationToken)
    {
        var vote = await UnusedUsings.VoteAsync(documents, cancellationToken);
        var directives = new Dictionary<TextSpan, UsingDirectiveSyntax>();
        var duplicates = new HashSet<TextSpan>();
        foreach (var document in documents)
        {
            var root = (await document.GetSyntaxRootAsync(cancellationToken))!;
            foreach (var directive in root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax).OfType<UsingDirectiveSyntax>())
            {
                directives.TryAdd(directive.Span, directive);
            }
            var model = (await document.GetSemanticModelAsync(cancellationToken))!;
            duplicates.UnionWith(model.GetDiagnostics(cancellationToken: cancellationToken)
                .Where(d => d.Id == UnusedRules.DuplicateUsing)
                .Select(d => d.Location.SourceSpan));
        }
        var text = await documents[0].GetTextAsync(cancellationToken);
        return vote.Removals.Select(span => new UnusedItem(
            UnusedKind.Usings,
            duplicates.Any(d => d.IntersectsWith(span)) ? UnusedRules.DuplicateUsing : UnusedRules.UnnecessaryUsing,
            path,
            span,
            directives[span].NamespaceOrType.ToString(),
            text.Lines.GetLinePosition(span.Start)));
    }
}
