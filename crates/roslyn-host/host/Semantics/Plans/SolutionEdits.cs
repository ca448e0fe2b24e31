using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Semantics.Plans;

/// <summary>
/// The file edits that take the original solution to one Roslyn changed (a code action's, a fix-all's): changed
/// documents merged per path, added documents created, removed ones deleted; and the original solution with those
/// edits made in every project that compiles each file (every target framework), to check that it compiles.
/// </summary>
internal sealed record SolutionEdits(List<FileEdit> Edits, Solution After, int Changes, List<string> Warnings)
{
    public static async Task<SolutionEdits> BetweenAsync(Solution original, Solution changed, string description, CancellationToken cancellationToken)
    {
        var merged = new MergedChanges(original);
        await merged.AddAsync(changed, cancellationToken);
        merged.CheckOverlaps();
        var after = await merged.ApplyAsync(cancellationToken);
        var edits = new List<FileEdit>();
        foreach (var path in merged.Paths)
        {
            var before = await merged.OriginalText(path).GetTextAsync(cancellationToken);
            var text = await merged.NewTextAsync(path, cancellationToken);
            if (!text.ContentEquals(before))
            {
                edits.Add(new FileEdit(path, EditKind.Modify, TextHash.Sha256(before), text.ToString(), description));
            }
        }

        var warnings = new List<string>();
        var created = new HashSet<string>(StringComparer.Ordinal);
        var deleted = new HashSet<string>(StringComparer.Ordinal);
        foreach (var project in changed.GetChanges(original).GetProjectChanges())
        {
            foreach (var id in project.GetAddedDocuments())
            {
                var document = changed.GetDocument(id)!;
                var path = PathOf(document, original.GetProject(project.ProjectId)!);
                if (!created.Add(path))
                {
                    continue;
                }
                var text = await document.GetTextAsync(cancellationToken);
                edits.Add(new FileEdit(path, EditKind.Create, "", text.ToString(), description));
                after = AddToEveryTarget(after, project.ProjectId, document, path, text);
            }
            foreach (var id in project.GetRemovedDocuments())
            {
                var document = original.GetDocument(id)!;
                if (document.FilePath is not { } path || !deleted.Add(path))
                {
                    continue;
                }
                var text = await document.GetTextAsync(cancellationToken);
                edits.Add(new FileEdit(path, EditKind.Delete, TextHash.Sha256(text), "", description));
                after = after.RemoveDocuments([.. after.GetDocumentIdsWithFilePath(path)]);
            }
            if (project.GetChangedAdditionalDocuments().Any() || project.GetAddedAdditionalDocuments().Any()
                || project.GetChangedAnalyzerConfigDocuments().Any() || project.GetAddedAnalyzerConfigDocuments().Any()
                || project.GetAddedProjectReferences().Any() || project.GetAddedMetadataReferences().Any())
            {
                warnings.Add($"Changes to {project.NewProject.Name} beyond its C# files (project references, packages, other files) are left out");
            }
        }
        return new SolutionEdits([.. edits.OrderBy(e => e.Path, StringComparer.Ordinal)], after, merged.Count, warnings.Distinct().ToList());
    }

    /// <summary>Where a new document goes: its own path, else its folders under its project's folder.</summary>
    private static string PathOf(Document document, Project project)
    {
        if (document.FilePath is { } path)
        {
            return Path.GetFullPath(path);
        }
        var folder = Path.GetDirectoryName(project.FilePath) ?? throw new InvalidOperationException($"{project.Name} has no folder");
        return Path.GetFullPath(Path.Combine([folder, .. document.Folders, document.Name]));
    }

    /// <summary>Adds a new file to its project and to every other project of the same project file (target framework).</summary>
    private static Solution AddToEveryTarget(Solution solution, ProjectId projectId, Document document, string path, SourceText text)
    {
        var projectFile = solution.GetProject(projectId)!.FilePath;
        foreach (var project in solution.Projects.Where(p => p.Id == projectId || (projectFile is not null && p.FilePath == projectFile)).ToList())
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(project.Id), document.Name, text, document.Folders, path);
        }
        return solution;
    }
}
