using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.FindSymbols;
using RoslynMcp.Host.Semantics;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Rename;

/// <summary>
/// The symbol a rename is about: the one at the position, as the IDE sees it (a constructor or destructor names
/// its type, a call of a generic or extension method names its declaration), declared in source and named by no
/// member of a referenced assembly it overrides or implements.
/// </summary>
internal static class RenameTarget
{
    public static async Task<ISymbol> FindAsync(Solution solution, Position position, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, position, cancellationToken);
        var symbol = Normalize(await PositionResolver.RequireSymbolAsync(at, cancellationToken));
        if (SymbolFormat.IsMetadata(symbol))
        {
            throw SourceSymbols.NotInSource(symbol);
        }
        if (SourceSymbols.MetadataBase(symbol) is { } metadata)
        {
            throw SourceSymbols.NamedByMetadata(symbol, metadata);
        }
        return symbol;
    }

    public static ISymbol Normalize(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor or MethodKind.Destructor } method =>
            method.ContainingType.OriginalDefinition,
        IMethodSymbol { ReducedFrom: { } extension } => extension.OriginalDefinition,
        _ => symbol.OriginalDefinition,
    };

    /// <summary>A valid identifier, not a keyword unless written <c>@name</c>, and not the current name.</summary>
    public static void ValidateName(ISymbol symbol, string newName)
    {
        var bare = newName.StartsWith('@') ? newName[1..] : newName;
        var keyword = SyntaxFacts.GetKeywordKind(newName) != SyntaxKind.None;
        if (!SyntaxFacts.IsValidIdentifier(bare) || keyword)
        {
            throw RenameErrors.InvalidName(newName, keyword);
        }
        if (bare == symbol.Name)
        {
            throw RenameErrors.SameName(symbol.Name);
        }
    }

    /// <summary>
    /// The symbol as each project compiling its declaring file sees it (one per target framework of a
    /// multi-targeted project): code active in only one of them is renamed by that one's renamer.
    /// </summary>
    public static async Task<List<ISymbol>> PerProjectAsync(Solution solution, ISymbol symbol, CancellationToken cancellationToken)
    {
        var declaration = SourceSymbols.FirstDeclaration(symbol);
        var found = new List<ISymbol> { symbol };
        var declaringDocument = solution.GetDocument(declaration.SourceTree);
        foreach (var id in solution.GetDocumentIdsWithFilePath(declaration.SourceTree!.FilePath))
        {
            if (id == declaringDocument?.Id || solution.GetDocument(id) is not { } document)
            {
                continue;
            }
            var seen = await SymbolFinder.FindSymbolAtPositionAsync(document, declaration.SourceSpan.Start, cancellationToken);
            if (seen is not null && Normalize(seen) is var normalized && normalized.Name == symbol.Name && normalized.Kind == symbol.Kind)
            {
                found.Add(normalized);
            }
        }
        return found;
    }
}
