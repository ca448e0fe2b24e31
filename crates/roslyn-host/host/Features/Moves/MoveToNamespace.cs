using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// move_type_to_namespace: renames the namespace declaration in place when the type is all it holds,
/// otherwise extracts the type into <c>&lt;Type&gt;.cs</c> (or, when that is its own file, into a new
/// namespace block of it); then updates every user of the type.
/// </summary>
internal static class MoveToNamespace
{
    public static async Task<MoveDraft> PlanAsync(MovedType type, NamespaceDestination destination, CancellationToken cancellationToken)
    {
        var target = destination.TargetNamespace.Trim();
        if (target.StartsWith("global::", StringComparison.Ordinal))
        {
            target = target["global::".Length..];
        }
        if (target == type.Namespace)
        {
            throw MoveErrors.SameNamespace(type);
        }
        if (type.Parts.Any(p => p.SyntaxTree != type.Root.SyntaxTree))
        {
            throw MoveErrors.PartialAcrossFiles(type, await PartLocationsAsync(type, cancellationToken));
        }
        var parts = await Task.WhenAll(type.Parts.Select(p => p.GetSyntaxAsync(cancellationToken)));
        type = type with { Moving = parts };
        var solution = type.Solution;
        var project = type.Document.Project;
        await NameCollisions.CheckAsync(type, target, NameCollisions.SeeingProjects(solution, project.Id), cancellationToken);
        var references = await TypeReferences.FindAsync(type, withExtensionCalls: true, cancellationToken);

        var edits = new EditSet(solution);
        var inPlace = InPlace(type, target);
        var relocation = destination.UpdateFileLocation && inPlace is not null ? RelocatedPath(type, project, target) : null;
        DocumentId holder;
        if (inPlace is { } rename)
        {
            edits.Change(type.Document.Id, [rename.Change], rename.Note);
            await ImportAsync(edits, type, LostNamespaces(type, target), cancellationToken);
            holder = type.Document.Id;
        }
        else
        {
            holder = await ExtractAsync(edits, type, project, target, destination.UpdateFileLocation, references, cancellationToken);
        }

        var updated = await ConsumerUpdates.ApplyAsync(edits, type, target, references, cancellationToken);
        await NeededUsings.RemoveObsoleteAsync(edits, cancellationToken);
        await VanishedNamespaces.RemoveUsingsAsync(edits, type.Namespace, cancellationToken);
        if (relocation is not null)
        {
            holder = await edits.RelocateAsync(holder, relocation, cancellationToken);
        }
        return new MoveDraft(edits, target, holder, AppendedToExisting: false, updated);
    }

    /// <summary>
    /// The in-place edit, when the type (all its parts) is the only member of a top-level namespace
    /// declaration (rename it), or of a file without one (declare the namespace there, file-scoped).
    /// </summary>
    private static (TextChange Change, string Note)? InPlace(MovedType type, string target)
    {
        if (type.Declaration.Parent is BaseNamespaceDeclarationSyntax { Parent: CompilationUnitSyntax } ns
            && ns.Members.All(type.Moving.Contains))
        {
            return (new TextChange(ns.Name.Span, target), $"Rename namespace {type.Namespace} to {target}");
        }
        var supportsFileScoped = ((CSharpParseOptions)type.Root.SyntaxTree.Options).LanguageVersion >= LanguageVersion.CSharp10;
        if (type.Declaration.Parent is CompilationUnitSyntax root && root.Members.All(type.Moving.Contains) && supportsFileScoped)
        {
            var start = type.Text.Lines[SourceLines.AttachedStartLine(type.Text, root.Members[0])].Start;
            var lineBreak = SourceLines.LineBreakOf(type.Text);
            return (new TextChange(new TextSpan(start, 0), $"namespace {target};{lineBreak}{lineBreak}"), $"Declare namespace {target}");
        }
        return null;
    }

    /// <summary>
    /// The type no longer sees the types of its old namespace (and of the parents the new one does not
    /// share) unqualified: import those it uses.
    /// </summary>
    private static List<UsingLine> LostNamespaces(MovedType type, string target)
    {
        var present = UsingDirectives.InScope(type.Declaration);
        return [.. Names.Chain(type.Namespace).Except(Names.Chain(target)).Select(UsingLine.For).Where(u => !present.Contains(u))];
    }

    /// <summary>
    /// Leaving its namespace blocks for a new top-level one, the type also loses the usings declared inside
    /// them; the file-level usings stay in effect.
    /// </summary>
    private static List<UsingLine> LostInSplit(MovedType type, string target)
    {
        var fileLevel = type.Root.Usings.Select(UsingLine.Of).ToHashSet();
        var implied = Names.Chain(type.Namespace).Except(Names.Chain(target)).Select(UsingLine.For);
        return [.. UsingDirectives.InScope(type.Declaration).Concat(implied).Distinct().Where(u => !fileLevel.Contains(u))];
    }

    /// <summary>Adds to the file-level usings those of <paramref name="candidates"/> the moved type's file needs.</summary>
    private static async Task ImportAsync(EditSet edits, MovedType type, IReadOnlyList<UsingLine> candidates, CancellationToken cancellationToken)
    {
        var id = type.Document.Id;
        var lineBreak = SourceLines.LineBreakOf(type.Text);
        var built = await edits.BuildAsync(cancellationToken);
        var kept = await NeededUsings.MinimizeAsync(
            candidates,
            async usings => await ErrorDiff.OfDocumentAsync(
                await edits.TrialAsync(built, id, UsingDirectives.Insertions(type.Text, type.Root, usings, lineBreak), cancellationToken),
                id,
                cancellationToken),
            cancellationToken);
        if (kept.Count > 0)
        {
            edits.Change(id, UsingDirectives.Insertions(type.Text, type.Root, kept, lineBreak));
            edits.UsingsAdded += kept.Count;
        }
    }

    /// <summary>
    /// Moves the declaration into a new <c>&lt;Type&gt;.cs</c> beside the source (or in the namespace's folder),
    /// or into a new namespace block of the source when that file is the source itself.
    /// </summary>
    private static async Task<DocumentId> ExtractAsync(
        EditSet edits,
        MovedType type,
        Project project,
        string target,
        bool updateFileLocation,
        IReadOnlyList<TypeReference> references,
        CancellationToken cancellationToken)
    {
        if (type.Moving.Count > 1)
        {
            throw MoveErrors.PartialSharingNamespace(type);
        }
        var path = Path.Combine(updateFileLocation ? ProjectLayout.FolderFor(project, target) : Path.GetDirectoryName(type.Path)!, type.Name + ".cs");
        if (path == type.Path && NamespaceSplit.BlockAround(type) is { } block)
        {
            NamespaceSplit.Apply(edits, type, block, target);
            await ImportAsync(edits, type, LostInSplit(type, target), cancellationToken);
            return type.Document.Id;
        }
        if (type.Symbol.IsFileLocal && references.Any(r => r.DocumentId == type.Document.Id))
        {
            var lines = references.Where(r => r.DocumentId == type.Document.Id)
                .Select(r => (type.Path, type.Text.Lines.GetLineFromPosition(r.Span.Start).LineNumber + 1));
            throw MoveErrors.FileLocalUsed(type, lines);
        }
        path = NewFilePath(type, project, target, path);
        var moved = Extraction.RemoveFromSource(edits, type);
        var fileScoped = type.Declaration.Parent is FileScopedNamespaceDeclarationSyntax
            || (type.Declaration.Parent is CompilationUnitSyntax
                && ((CSharpParseOptions)type.Root.SyntaxTree.Options).LanguageVersion >= LanguageVersion.CSharp10);
        var candidates = UsingDirectives.InScope(type.Declaration).Concat(LostNamespaces(type, target)).Distinct().ToList();
        var file = new NewFile(project.Id, path, target, fileScoped);
        var holder = await Extraction.CreateFileAsync(edits, type, moved, file, candidates, cancellationToken);
        await Extraction.DeleteSourceIfEmptyAsync(edits, type, cancellationToken);
        return holder;
    }

    /// <summary>
    /// The file to create: <paramref name="path"/>, or for a file-scoped source that is the path itself (a file
    /// cannot hold a second namespace) the file update_file_location would place. Refused when it exists.
    /// </summary>
    private static string NewFilePath(MovedType type, Project project, string target, string path)
    {
        var suggestions = Array.Empty<string>();
        if (path == type.Path && type.Declaration.Parent is FileScopedNamespaceDeclarationSyntax)
        {
            path = Path.Combine(ProjectLayout.FolderFor(project, target), type.Name + ".cs");
            suggestions = [$"Move {type.Name} to a file of its own first with move_type_to_file, then move that file to namespace {target}"];
        }
        if (ProjectLayout.Exists(type.Solution, path))
        {
            throw MoveErrors.Collision(
                type.Name,
                target,
                $"Moving {type.Name} out of {type.Path} needs a new file {path}, which already exists",
                null,
                suggestions);
        }
        return path;
    }

    /// <summary>Where the file goes for update_file_location; null when it is there already.</summary>
    private static string? RelocatedPath(MovedType type, Project project, string target)
    {
        var path = Path.Combine(ProjectLayout.FolderFor(project, target), Path.GetFileName(type.Path));
        if (string.Equals(path, type.Path, StringComparison.Ordinal))
        {
            return null;
        }
        if (ProjectLayout.Exists(type.Solution, path))
        {
            throw MoveErrors.InvalidTarget(
                path,
                $"Cannot move {type.Path} to the folder of namespace {target}: {path} already exists",
                "Pass updateFileLocation: false, or move the existing file first");
        }
        return path;
    }

    private static async Task<IEnumerable<string>> PartLocationsAsync(MovedType type, CancellationToken cancellationToken)
    {
        var locations = new List<string>();
        foreach (var part in type.Parts)
        {
            var text = await part.SyntaxTree.GetTextAsync(cancellationToken);
            locations.Add($"{part.SyntaxTree.FilePath}:{text.Lines.GetLineFromPosition(part.Span.Start).LineNumber + 1}");
        }
        return locations.Order(StringComparer.Ordinal);
    }
}
