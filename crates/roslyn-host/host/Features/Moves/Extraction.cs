using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>Taking a declaration out of its file and putting it into a new one: the steps both moves share.</summary>
internal static class Extraction
{
    /// <summary>Removes the declaration (with its attached comments) from the source; returns the span that moves.</summary>
    public static TextSpan RemoveFromSource(EditSet edits, MovedType type)
    {
        var moved = DeclarationText.MovedSpan(type.Text, type.Declaration);
        var note = type.IsPartial
            ? $"Remove this part of partial {type.Name} (the other parts stay where they are)"
            : $"Remove declaration of {type.Name}";
        edits.Change(type.Document.Id, [DeclarationText.Removal(type.Text, moved, SourceLines.LineBreakOf(type.Text))], note);
        return moved;
    }

    /// <summary>
    /// Creates a file holding the declaration, with the using directives among <paramref name="candidates"/>
    /// it needs, in the source's line break style.
    /// </summary>
    public static async Task<DocumentId> CreateFileAsync(
        EditSet edits,
        MovedType type,
        TextSpan moved,
        NewFile file,
        IReadOnlyList<UsingLine> candidates,
        CancellationToken cancellationToken)
    {
        var lineBreak = SourceLines.LineBreakOf(type.Text);
        var indent = NewFileText.IndentFor(file.Namespace, file.FileScoped);
        var typeText = DeclarationText.Reindent(type.Text, type.Root, type.Declaration, moved, indent, lineBreak);
        string Compose(IEnumerable<UsingLine> usings) => NewFileText.Compose(usings, file.Namespace, file.FileScoped, typeText, lineBreak);

        var note = type.IsPartial ? $"Add this part of partial {type.Name}" : $"Add declaration of {type.Name}";
        var id = edits.Create(file.Project, file.Path, Compose(candidates), note);
        var built = await edits.BuildAsync(cancellationToken);
        var kept = await NeededUsings.MinimizeAsync(
            candidates,
            usings => ErrorDiff.OfDocumentAsync(built.WithDocumentText(id, SourceText.From(Compose(usings))), id, cancellationToken),
            cancellationToken);
        edits.SetCreatedText(id, Compose(kept));
        edits.UsingsAdded += kept.Count;
        return id;
    }

    /// <summary>A source file left without type declarations (usings and empty namespaces aside) is deleted.</summary>
    public static async Task DeleteSourceIfEmptyAsync(EditSet edits, MovedType type, CancellationToken cancellationToken)
    {
        var text = await edits.TextAsync(type.Document.Id, null, cancellationToken);
        var root = CSharpSyntaxTree.ParseText(text, (CSharpParseOptions)type.Root.SyntaxTree.Options, cancellationToken: cancellationToken)
            .GetCompilationUnitRoot(cancellationToken);
        var keepsCode = root
            .DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .Any(n => n is MemberDeclarationSyntax and not BaseNamespaceDeclarationSyntax);
        if (!keepsCode)
        {
            edits.Delete(type.Document.Id, "Delete the file, left without types");
        }
    }
}

/// <summary>Where a created file goes and the namespace it declares (file-scoped or block, as its source).</summary>
internal sealed record NewFile(ProjectId Project, string Path, string Namespace, bool FileScoped);
