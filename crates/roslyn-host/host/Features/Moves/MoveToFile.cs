using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>move_type_to_file: the type keeps its namespace and lands in another (new or existing) file.</summary>
internal static class MoveToFile
{
    public static async Task<MoveDraft> PlanAsync(MovedType type, FileDestination destination, CancellationToken cancellationToken)
    {
        var solution = type.Solution;
        var target = TargetPath(destination.TargetFile);
        if (string.Equals(target, type.Path, StringComparison.Ordinal))
        {
            throw MoveErrors.SameLocation(target);
        }
        var targetDocument = PositionResolver.DocumentAt(solution, target);
        var targetProject = targetDocument?.Project ?? ProjectForNewFile(solution, target, destination.CreateTargetFile);
        var references = await TypeReferences.FindAsync(type, withExtensionCalls: false, cancellationToken);
        if (type.Symbol.IsFileLocal)
        {
            await RefuseFileLocalUseAsync(type, references, cancellationToken);
        }
        var sourceProject = type.Document.Project;
        if (targetProject.Id != sourceProject.Id)
        {
            await NameCollisions.CheckAsync(type, type.Namespace, [targetProject], cancellationToken);
            var stillUsed = references.Any(r => r.DocumentId.ProjectId == sourceProject.Id);
            var dependsOnSource = solution.GetProjectDependencyGraph()
                .GetProjectsThatThisProjectTransitivelyDependsOn(targetProject.Id)
                .Contains(sourceProject.Id);
            if (stillUsed && dependsOnSource)
            {
                throw MoveErrors.Circular(type, sourceProject, targetProject);
            }
        }

        var edits = new EditSet(solution);
        var moved = Extraction.RemoveFromSource(edits, type);
        var candidates = UsingDirectives.InScope(type.Declaration);
        DocumentId holder;
        if (targetDocument is null)
        {
            var fileScoped = type.Declaration.Parent is FileScopedNamespaceDeclarationSyntax;
            var file = new NewFile(targetProject.Id, target, type.Namespace, fileScoped);
            holder = await Extraction.CreateFileAsync(edits, type, moved, file, candidates, cancellationToken);
        }
        else
        {
            holder = targetDocument.Id;
            await InsertIntoAsync(edits, type, moved, targetDocument, candidates, cancellationToken);
        }
        await Extraction.DeleteSourceIfEmptyAsync(edits, type, cancellationToken);
        await NeededUsings.RemoveObsoleteAsync(edits, cancellationToken);
        await VanishedNamespaces.RemoveUsingsAsync(edits, type.Namespace, cancellationToken);
        return new MoveDraft(edits, type.Namespace, holder, AppendedToExisting: targetDocument is not null, ReferencesUpdated: 0);
    }

    private static string TargetPath(string file)
    {
        try
        {
            if (Path.IsPathFullyQualified(file))
            {
                return Path.GetFullPath(file);
            }
        }
        catch (ArgumentException)
        {
            // Reported below.
        }
        throw MoveErrors.InvalidTarget(file, $"{file} is not an absolute file path", "Pass the absolute path of a .cs file");
    }

    private static Project ProjectForNewFile(Solution solution, string target, bool create)
    {
        if (File.Exists(target))
        {
            throw MoveErrors.InvalidTarget(
                target,
                $"{target} exists but is not a source file of the solution",
                "Choose a file that belongs to a project, or a new path");
        }
        if (!create)
        {
            throw MoveErrors.InvalidTarget(target, $"{target} does not exist", "Pass createTargetFile: true to create it");
        }
        if (!target.EndsWith(".cs", StringComparison.OrdinalIgnoreCase))
        {
            throw MoveErrors.InvalidTarget(target, $"{target} is not a .cs file", "Choose a path ending in .cs");
        }
        return ProjectLayout.OwnerOf(solution, target) ?? throw MoveErrors.InvalidTarget(
            target,
            $"{target} is not under the directory of any project of the solution, so no project would compile it",
            "Choose a path inside a project's folder");
    }

    private static async Task RefuseFileLocalUseAsync(MovedType type, IEnumerable<TypeReference> references, CancellationToken cancellationToken)
    {
        var uses = references.Where(r => r.DocumentId == type.Document.Id).ToList();
        if (uses.Count == 0)
        {
            return;
        }
        var text = await type.Document.GetTextAsync(cancellationToken);
        throw MoveErrors.FileLocalUsed(type, uses.Select(u => (type.Path, text.Lines.GetLineFromPosition(u.Span.Start).LineNumber + 1)));
    }

    /// <summary>
    /// Adds the declaration to an existing file: into its declaration of the type's namespace (file-scoped or
    /// block), else in a new block namespace at the end; then the usings the type needs that it lacks.
    /// </summary>
    private static async Task InsertIntoAsync(
        EditSet edits,
        MovedType type,
        TextSpan moved,
        Document target,
        IReadOnlyList<UsingLine> candidates,
        CancellationToken cancellationToken)
    {
        var text = await target.GetTextAsync(cancellationToken);
        var root = (CompilationUnitSyntax)(await target.GetSyntaxRootAsync(cancellationToken))!;
        var lineBreak = SourceLines.LineBreakOf(text);
        var fileScoped = root.Members.OfType<FileScopedNamespaceDeclarationSyntax>().FirstOrDefault();
        if (fileScoped is not null && Names.Of(fileScoped.Name) != type.Namespace)
        {
            var ns = type.Namespace.Length == 0 ? "the global namespace" : $"namespace {type.Namespace}";
            throw MoveErrors.InvalidTarget(
                target.FilePath!,
                $"{target.FilePath} declares the file-scoped namespace {Names.Of(fileScoped.Name)}, so it cannot hold {type.Name} of {ns}",
                "Choose a file of the same namespace, a file with block namespaces, or a new file");
        }
        BaseNamespaceDeclarationSyntax? container = (BaseNamespaceDeclarationSyntax?)fileScoped ?? root.DescendantNodes()
            .OfType<NamespaceDeclarationSyntax>()
            .FirstOrDefault(ns => Names.Qualify(Names.EnclosingNamespace(ns), Names.Of(ns.Name)) == type.Namespace);
        var insertion = container is null
            ? AppendAtEnd(text, type, moved, lineBreak)
            : IntoNamespace(text, container, type, moved, lineBreak);
        edits.Change(target.Id, [insertion], type.IsPartial ? $"Add a part of partial {type.Name}" : $"Add declaration of {type.Name}");

        var present = UsingDirectives.InScope(container ?? (SyntaxNode)root);
        var missing = candidates.Where(c => !present.Contains(c)).ToList();
        var built = await edits.BuildAsync(cancellationToken);
        var kept = await NeededUsings.MinimizeAsync(
            missing,
            async usings => await ErrorDiff.OfDocumentAsync(
                await edits.TrialAsync(built, target.Id, UsingDirectives.Insertions(text, root, usings, lineBreak), cancellationToken),
                target.Id,
                cancellationToken),
            cancellationToken);
        if (kept.Count > 0)
        {
            edits.Change(target.Id, UsingDirectives.Insertions(text, root, kept, lineBreak));
            edits.UsingsAdded += kept.Count;
        }
    }

    private static TextChange IntoNamespace(SourceText text, BaseNamespaceDeclarationSyntax ns, MovedType type, TextSpan moved, string lineBreak)
    {
        string indent;
        TextLine after;
        var blankLine = true;
        if (ns.Members.Count > 0)
        {
            indent = DeclarationText.LeadingWhitespace(text.Lines.GetLineFromPosition(ns.Members[0].SpanStart).ToString());
            after = text.Lines.GetLineFromPosition(ns.Members[^1].Span.End);
        }
        else if (ns is FileScopedNamespaceDeclarationSyntax fileScoped)
        {
            indent = "";
            after = text.Lines.GetLineFromPosition(fileScoped.SemicolonToken.Span.End);
        }
        else
        {
            var block = (NamespaceDeclarationSyntax)ns;
            indent = DeclarationText.LeadingWhitespace(text.Lines.GetLineFromPosition(ns.SpanStart).ToString()) + NewFileText.Indent;
            after = text.Lines.GetLineFromPosition(block.OpenBraceToken.Span.End);
            blankLine = false;
        }
        var typeText = DeclarationText.Reindent(type.Text, type.Root, type.Declaration, moved, indent, lineBreak);
        var prefix = (after.EndIncludingLineBreak == after.End ? lineBreak : "") + (blankLine ? lineBreak : "");
        return new TextChange(new TextSpan(after.EndIncludingLineBreak, 0), prefix + typeText);
    }

    private static TextChange AppendAtEnd(SourceText text, MovedType type, TextSpan moved, string lineBreak)
    {
        var content = text.ToString();
        var prefix = (content.Length == 0 || content.EndsWith('\n') ? "" : lineBreak) + (content.Trim().Length == 0 ? "" : lineBreak);
        var block = type.Namespace.Length > 0;
        var typeText = DeclarationText.Reindent(type.Text, type.Root, type.Declaration, moved, block ? NewFileText.Indent : "", lineBreak);
        var appended = block
            ? $"namespace {type.Namespace}{lineBreak}{{{lineBreak}{typeText}}}{lineBreak}"
            : typeText;
        return new TextChange(new TextSpan(text.Length, 0), prefix + appended);
    }
}

/// <summary>A planned move before its compile check: the edits, and where the type ends up.</summary>
internal sealed record MoveDraft(EditSet Edits, string NewNamespace, DocumentId Holder, bool AppendedToExisting, int ReferencesUpdated);
