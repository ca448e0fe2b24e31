using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>A source place of a renamed symbol: file path and span, the same in every project compiling the file.</summary>
internal sealed record Place(string Path, TextSpan Span, Location Location);

/// <summary>
/// The source places (declarations included) that refer to the renamed symbols, before and after the rename: the
/// same number after as before, or some code would silently bind to something else.
/// </summary>
internal static class RenamedPlaces
{
    /// <summary>
    /// The places that spell <paramref name="name"/> (a constructor's <c>base(...)</c> call or an implicit
    /// <c>new()</c> refers to the type without naming it).
    /// </summary>
    public static async Task<List<Place>> OfAsync(Solution solution, IEnumerable<ISymbol> symbols, string name, CancellationToken cancellationToken)
    {
        var places = new Dictionary<(string, TextSpan), Place>();
        foreach (var symbol in symbols)
        {
            foreach (var referenced in await SymbolFinder.FindReferencesAsync(symbol, solution, cancellationToken))
            {
                var locations = referenced.Definition.Locations.Where(l => l.IsInSource)
                    .Concat(referenced.Locations.Where(r => !r.IsImplicit && !r.IsCandidateLocation).Select(r => r.Location));
                foreach (var location in locations.Where(l => l.IsInSource && l.SourceTree?.FilePath is not null))
                {
                    if (!Spells(await location.SourceTree!.GetTextAsync(cancellationToken), location.SourceSpan, name))
                    {
                        continue;
                    }
                    places.TryAdd((location.SourceTree!.FilePath, location.SourceSpan), new Place(location.SourceTree.FilePath, location.SourceSpan, location));
                }
            }
        }
        return [.. places.Values.OrderBy(p => p.Path, StringComparer.Ordinal).ThenBy(p => p.Span.Start)];
    }

    private static bool Spells(SourceText text, TextSpan span, string name)
    {
        var written = text.ToString(span).TrimStart('@');
        return written == name || (name.EndsWith("Attribute", StringComparison.Ordinal) && written == name[..^"Attribute".Length]);
    }

    /// <summary>The renamed symbols in <paramref name="after"/>, found at their mapped first declarations.</summary>
    public static async Task<List<ISymbol>> AfterAsync(Solution after, MergedChanges changes, IEnumerable<ISymbol> symbols, Solution before, CancellationToken cancellationToken)
    {
        var found = new List<ISymbol>();
        foreach (var symbol in symbols)
        {
            var declaration = SourceSymbols.FirstDeclaration(symbol);
            var path = declaration.SourceTree!.FilePath;
            var project = before.GetDocument(declaration.SourceTree)?.Project.Id;
            var id = after.GetDocumentIdsWithFilePath(path).FirstOrDefault(d => d.ProjectId == project);
            if (id is null || after.GetDocument(id) is not { } document)
            {
                continue;
            }
            var renamed = await SymbolFinder.FindSymbolAtPositionAsync(document, changes.Map(path, declaration.SourceSpan.Start), cancellationToken);
            if (renamed is not null)
            {
                found.Add(RenameTarget.Normalize(renamed));
            }
        }
        return found;
    }
}
