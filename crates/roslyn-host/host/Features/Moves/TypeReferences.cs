using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// A place outside the moved declaration that binds to the type: a use of its name, or (for a static class)
/// a call of one of its extension methods in reduced form, which never names the type.
/// </summary>
internal sealed record TypeReference(DocumentId DocumentId, string Path, TextSpan Span, bool IsExtensionCall);

internal static class TypeReferences
{
    public static async Task<List<TypeReference>> FindAsync(MovedType type, bool withExtensionCalls, CancellationToken cancellationToken)
    {
        var solution = type.Solution;
        var found = new Dictionary<(string, TextSpan), TypeReference>();
        foreach (var referenced in await SymbolFinder.FindReferencesAsync(type.Symbol, solution, cancellationToken))
        {
            foreach (var use in referenced.Locations.Where(l => !l.IsImplicit && l.Location.IsInSource && !type.Contains(l.Location)))
            {
                Add(found, use, isExtensionCall: false);
            }
        }
        if (withExtensionCalls)
        {
            foreach (var method in type.Symbol.GetMembers().OfType<IMethodSymbol>().Where(m => m.IsExtensionMethod))
            {
                foreach (var referenced in await SymbolFinder.FindReferencesAsync(method, solution, cancellationToken))
                {
                    foreach (var use in referenced.Locations.Where(l => l.Location.IsInSource && !type.Contains(l.Location)))
                    {
                        if (await IsReducedCallAsync(use, cancellationToken))
                        {
                            Add(found, use, isExtensionCall: true);
                        }
                    }
                }
            }
        }
        return [.. found.Values];
    }

    private static void Add(Dictionary<(string, TextSpan), TypeReference> found, ReferenceLocation use, bool isExtensionCall)
    {
        var path = use.Document.FilePath!;
        found.TryAdd((path, use.Location.SourceSpan), new TypeReference(use.Document.Id, path, use.Location.SourceSpan, isExtensionCall));
    }

    /// <summary><c>shape.Describe()</c> rather than <c>ShapeExtensions.Describe(shape)</c>, which names the type.</summary>
    private static async Task<bool> IsReducedCallAsync(ReferenceLocation use, CancellationToken cancellationToken)
    {
        var model = await use.Document.GetSemanticModelAsync(cancellationToken);
        var root = await use.Document.GetSyntaxRootAsync(cancellationToken);
        if (model is null || root is null)
        {
            return false;
        }
        var node = root.FindNode(use.Location.SourceSpan, getInnermostNodeForTie: true);
        return use.IsImplicit || model.GetSymbolInfo(node, cancellationToken).Symbol is IMethodSymbol { ReducedFrom: not null };
    }
}
