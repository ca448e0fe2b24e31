using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Features.Unused;

/// <summary>
/// The places that reference a symbol declared in a file, as every project compiling the file finds them; none
/// when the projects disagree (a use under <c>#if</c> that one target framework sees and the other's code does
/// not), or when a place is in a file that is not to be edited (generated code).
/// </summary>
internal static class LinkedReferences
{
    /// <param name="target">The symbol whose references count, from the one declared at the place (a parameter's method).</param>
    public static async Task<List<(string Path, TextSpan Span)>?> OfAsync(
        EvolvingSolution state,
        string path,
        TextSpan declaration,
        Func<ISymbol, ISymbol?> target,
        IReadOnlySet<string> editable,
        CancellationToken cancellationToken)
    {
        HashSet<(string Path, TextSpan Span)>? agreed = null;
        foreach (var document in state.DocumentsAt(path))
        {
            var root = (await document.GetSyntaxRootAsync(cancellationToken))!;
            var model = (await document.GetSemanticModelAsync(cancellationToken))!;
            var declared = root.FindToken(declaration.Start).Parent is { } node ? model.GetDeclaredSymbol(node, cancellationToken) : null;
            if (declared is null || target(declared) is not { } symbol)
            {
                return null;
            }
            var places = new HashSet<(string Path, TextSpan Span)>();
            foreach (var location in (await SymbolFinder.FindReferencesAsync(symbol, state.Current, cancellationToken)).SelectMany(r => r.Locations))
            {
                if (location.Document.FilePath is not { } file || !editable.Contains(file))
                {
                    return null;
                }
                places.Add((file, location.Location.SourceSpan));
            }
            if (agreed is not null && !agreed.SetEquals(places))
            {
                return null;
            }
            agreed = places;
        }
        return agreed?.OrderBy(p => p.Path, StringComparer.Ordinal).ThenBy(p => p.Span.Start).ToList();
    }
}
