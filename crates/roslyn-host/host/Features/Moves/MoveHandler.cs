using System.Diagnostics;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Position = RoslynMcp.Host.Protocol.Position;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// Plans a type move on the immutable snapshot: the edits, checked to compile without new errors. Nothing is
/// applied here; the broker writes the files and reports them back as file changes.
/// </summary>
public static class MoveHandler
{
    public static async Task<MovePlan> HandleAsync(Solution solution, MoveRequest request, CancellationToken cancellationToken)
    {
        var document = FindSource(solution, request.SourceFile);
        var type = await TypeLocator.LocateAsync(document, request.SymbolName, request.Line, cancellationToken);
        var draft = request.Destination switch
        {
            MoveDestination.File { Value: var file } => await MoveToFile.PlanAsync(type, file, cancellationToken),
            MoveDestination.Namespace { Value: var ns } => await MoveToNamespace.PlanAsync(type, ns, cancellationToken),
            _ => throw new UnreachableException(),
        };
        var moved = await draft.Edits.BuildAsync(cancellationToken);
        await CompileCheck.RunAsync(solution, moved, type, cancellationToken);

        var symbol = new MovedSymbol(
            type.Name,
            type.Kind,
            type.FullName,
            Names.Qualify(draft.NewNamespace, type.Name),
            type.Namespace,
            draft.NewNamespace,
            type.Location,
            await NewLocationAsync(moved, draft, type.Name, cancellationToken));
        return new MovePlan(
            symbol,
            await draft.Edits.ToFileEditsAsync(cancellationToken),
            (uint)draft.ReferencesUpdated,
            (uint)draft.Edits.UsingsAdded,
            (uint)draft.Edits.UsingsRemoved);
    }

    private static Document FindSource(Solution solution, string file)
    {
        try
        {
            if (Path.IsPathFullyQualified(file)
                && PositionResolver.DocumentAt(solution, Path.GetFullPath(file)) is { } document)
            {
                return document;
            }
        }
        catch (ArgumentException)
        {
            // Not a path: reported below.
        }
        throw MoveErrors.SourceNotInWorkspace(file);
    }

    /// <summary>The type's identifier in the file that holds it after the move (the appended part in an existing file).</summary>
    private static async Task<Position> NewLocationAsync(Solution moved, MoveDraft draft, string name, CancellationToken cancellationToken)
    {
        var document = moved.GetDocument(draft.Holder)!;
        var root = await document.GetSyntaxRootAsync(cancellationToken);
        var text = await document.GetTextAsync(cancellationToken);
        var declarations = root!
            .DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .Where(MovedType.IsTypeDeclaration)
            .Where(d => MovedType.IdentifierOf(d).ValueText == name && Names.EnclosingNamespace(d) == draft.NewNamespace)
            .ToList();
        var declaration = draft.AppendedToExisting ? declarations[^1] : declarations[0];
        var at = text.Lines.GetLinePosition(MovedType.IdentifierOf(declaration).SpanStart);
        return new Position(document.FilePath!, (uint)at.Line + 1, (uint)at.Character + 1);
    }
}
