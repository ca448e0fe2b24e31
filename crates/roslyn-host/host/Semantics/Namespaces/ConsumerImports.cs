using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Semantics.Namespaces;

/// <summary>
/// Checks every file that used a moved file's types once Roslyn's change namespace service is done, and imports
/// the new namespace where the file is left with more errors than before. The service fixes only the references
/// found under the type itself, not those found under its constructors: a file whose only uses of a moved type are
/// object creations (<c>new Coupon(...)</c>) is left as it was, <c>using OldNs;</c> and no <c>using NewNs;</c>. The old using is renamed or removed when nothing needs it any more, kept beside the new one
/// while other types of the old namespace are used.
/// </summary>
internal static class ConsumerImports
{
    /// <summary>The paths of the files other than <paramref name="declaring"/> that use a type it declares.</summary>
    public static async Task<List<string>> ConsumersAsync(Document declaring, CancellationToken cancellationToken)
    {
        var root = await declaring.GetSyntaxRootAsync(cancellationToken);
        var model = await declaring.GetSemanticModelAsync(cancellationToken);
        var paths = new SortedSet<string>(StringComparer.Ordinal);
        var types = root!.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax)
            .OfType<BaseTypeDeclarationSyntax>()
            .Select(t => model!.GetDeclaredSymbol(t, cancellationToken))
            .OfType<INamedTypeSymbol>();
        foreach (var type in types)
        {
            foreach (var reference in await SymbolFinder.FindReferencesAsync(type, declaring.Project.Solution, cancellationToken))
            {
                paths.UnionWith(reference.Locations.Select(l => l.Document.FilePath).OfType<string>());
            }
        }
        paths.Remove(declaring.FilePath!);
        return [.. paths];
    }

    /// <summary><paramref name="changed"/> with each consumer that compiles worse than in <paramref name="original"/> repaired where an import does it.</summary>
    public static async Task<Solution> RepairAsync(
        Solution original,
        Solution changed,
        IEnumerable<string> consumers,
        string oldNamespace,
        string newNamespace,
        CancellationToken cancellationToken)
    {
        foreach (var path in consumers)
        {
            var ids = changed.GetDocumentIdsWithFilePath(path);
            if (ids.IsEmpty)
            {
                continue;
            }
            if (!await GrewAsync(original, changed, ids, cancellationToken))
            {
                changed = await WithoutStaleImportAsync(original, changed, ids, oldNamespace, cancellationToken);
                continue;
            }
            foreach (var text in await CandidatesAsync(original, changed.GetDocument(ids[0])!, ids, oldNamespace, newNamespace, cancellationToken))
            {
                var repaired = WithText(changed, ids, text);
                if (!await GrewAsync(original, repaired, ids, cancellationToken))
                {
                    changed = repaired;
                    break;
                }
            }
            // Otherwise the compile check reports what an import does not mend.
        }
        return changed;
    }

    /// <summary>
    /// The texts to try, best first: <c>using OldNs;</c> renamed to the new namespace when the file needed it
    /// before (one that was already unnecessary is not this move's business), then <c>using NewNs;</c> added, beside
    /// <c>using OldNs;</c> when that is inside a namespace block, else among the file's usings.
    /// </summary>
    private static async Task<List<SourceText>> CandidatesAsync(
        Solution original,
        Document document,
        IReadOnlyList<DocumentId> ids,
        string oldNamespace,
        string newNamespace,
        CancellationToken cancellationToken)
    {
        var text = await document.GetTextAsync(cancellationToken);
        var root = (CompilationUnitSyntax)(await document.GetSyntaxRootAsync(cancellationToken))!;
        var old = PlainImportOf(root, oldNamespace);
        var candidates = new List<SourceText>();
        if (old is not null && await NeededBeforeAsync(original, ids, oldNamespace, cancellationToken))
        {
            candidates.Add(text.WithChanges(new TextChange(old.NamespaceOrType.Span, newNamespace)));
        }
        var lineBreak = SourceLines.LineBreakOf(text);
        if (old is { Parent: BaseNamespaceDeclarationSyntax })
        {
            var line = text.Lines.GetLineFromPosition(old.SpanStart);
            var indentation = text.ToString(TextSpan.FromBounds(line.Start, old.SpanStart));
            var after = UsingLine.Compare(UsingLine.For(newNamespace), UsingLine.Of(old)) > 0;
            var at = after ? line.EndIncludingLineBreak : line.Start;
            candidates.Add(text.WithChanges(new TextChange(new TextSpan(at, 0), $"{indentation}using {newNamespace};{lineBreak}")));
        }
        else
        {
            candidates.Add(text.WithChanges(UsingDirectives.Insertions(text, root, [UsingLine.For(newNamespace)], lineBreak)));
        }
        return candidates;
    }

    /// <summary>
    /// Drops <c>using OldNs;</c> from a file that compiles as before without it, when it needed it before: the
    /// service keeps it in the files it leaves as they were.
    /// </summary>
    private static async Task<Solution> WithoutStaleImportAsync(Solution original, Solution changed, IReadOnlyList<DocumentId> ids, string oldNamespace, CancellationToken cancellationToken)
    {
        var document = changed.GetDocument(ids[0])!;
        var text = await document.GetTextAsync(cancellationToken);
        if (PlainImportOf((await document.GetSyntaxRootAsync(cancellationToken))!, oldNamespace) is not { } old
            || !await NeededBeforeAsync(original, ids, oldNamespace, cancellationToken))
        {
            return changed;
        }
        var without = WithText(changed, ids, text.WithChanges(UsingDirectives.Removal(text, old)));
        return await GrewAsync(original, without, ids, cancellationToken) ? changed : without;
    }

    /// <summary>True when the file's <c>using OldNs;</c> mattered before the move: without it, it had more errors.</summary>
    private static async Task<bool> NeededBeforeAsync(Solution original, IReadOnlyList<DocumentId> ids, string oldNamespace, CancellationToken cancellationToken)
    {
        var document = original.GetDocument(ids[0])!;
        var text = await document.GetTextAsync(cancellationToken);
        var old = PlainImportOf((await document.GetSyntaxRootAsync(cancellationToken))!, oldNamespace);
        return old is not null && await GrewAsync(original, WithText(original, ids, text.WithChanges(UsingDirectives.Removal(text, old))), ids, cancellationToken);
    }

    private static UsingDirectiveSyntax? PlainImportOf(SyntaxNode root, string ns) =>
        root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .OfType<UsingDirectiveSyntax>()
            .FirstOrDefault(u => u.GlobalKeyword.IsKind(SyntaxKind.None) && UsingLine.Of(u).Namespace == ns);

    /// <summary>True when any framework's document of the file has an error it did not have in <paramref name="original"/>.</summary>
    private static async Task<bool> GrewAsync(Solution original, Solution changed, IReadOnlyList<DocumentId> ids, CancellationToken cancellationToken)
    {
        foreach (var id in ids.Where(original.ContainsDocument))
        {
            if (ErrorDiff.Grew(await ErrorDiff.OfDocumentAsync(original, id, cancellationToken), await ErrorDiff.OfDocumentAsync(changed, id, cancellationToken)))
            {
                return true;
            }
        }
        return false;
    }

    private static Solution WithText(Solution solution, IEnumerable<DocumentId> ids, SourceText text) =>
        ids.Aggregate(solution, (s, id) => s.WithDocumentText(id, text));
}
