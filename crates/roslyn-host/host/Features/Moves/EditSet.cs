using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Features.Moves;

/// <summary>
/// A move's edits against the original snapshot: text changes (on original spans) per document, created and
/// deleted files. Nothing is ever applied to the workspace: <see cref="BuildAsync"/> forks the snapshot.
/// </summary>
internal sealed class EditSet(Solution original)
{
    private readonly Dictionary<DocumentId, List<TextChange>> changes = [];
    private readonly Dictionary<DocumentId, List<string>> notes = [];
    private readonly Dictionary<DocumentId, (ProjectId Project, string Path, string Text)> created = [];
    private readonly HashSet<DocumentId> deleted = [];
    private readonly HashSet<DocumentId> lostUsings = [];

    public Solution Original => original;

    public int UsingsAdded { get; set; }

    public int UsingsRemoved { get; private set; }

    /// <summary>Existing documents with changes that stay (not deleted).</summary>
    public IEnumerable<DocumentId> Modified => changes.Keys.Where(id => !deleted.Contains(id)).ToList();

    public bool IsDeleted(DocumentId id) => deleted.Contains(id);

    public IReadOnlyList<TextChange> ChangesOf(DocumentId id) => changes.GetValueOrDefault(id) ?? [];

    public void Change(DocumentId id, IEnumerable<TextChange> more, string? note = null)
    {
        if (!changes.TryGetValue(id, out var list))
        {
            changes[id] = list = [];
        }
        list.AddRange(more);
        Note(id, note);
    }

    /// <summary>Removes whole directive lines; <paramref name="why"/> completes the note "Remove 2 usings ...".</summary>
    public void RemoveUsings(DocumentId id, IReadOnlyList<TextChange> removals, string why)
    {
        Change(id, removals, $"Remove {removals.Count} using{(removals.Count == 1 ? "" : "s")} {why}");
        UsingsRemoved += removals.Count;
        lostUsings.Add(id);
    }

    public DocumentId Create(ProjectId project, string path, string text, string note)
    {
        var id = DocumentId.CreateNewId(project, path);
        created[id] = (project, path, text);
        Note(id, note);
        return id;
    }

    public void SetCreatedText(DocumentId id, string text) => created[id] = created[id] with { Text = text };

    public void Delete(DocumentId id, string note)
    {
        deleted.Add(id);
        notes[id] = [note];
    }

    public string PathOf(DocumentId id) =>
        created.TryGetValue(id, out var file) ? file.Path : original.GetDocument(id)!.FilePath!;

    /// <summary>The document's text with its changes and <paramref name="extra"/> ones (all on original spans).</summary>
    public async Task<SourceText> TextAsync(DocumentId id, IEnumerable<TextChange>? extra, CancellationToken cancellationToken)
    {
        if (created.TryGetValue(id, out var file))
        {
            return SourceText.From(file.Text);
        }
        var text = await original.GetDocument(id)!.GetTextAsync(cancellationToken);
        // A stable sort keeps insertions at one position in the order they were made.
        var all = ChangesOf(id).Concat(extra ?? []).OrderBy(c => c.Span.Start).ThenBy(c => c.Span.Length).ToList();
        var changed = text.WithChanges(all);
        return lostUsings.Contains(id) ? SourceText.From(UsingDirectives.TrimLeadingBlankLines(changed.ToString())) : changed;
    }

    /// <summary>A fork of <paramref name="solution"/> where one document has these extra changes (or this text).</summary>
    public async Task<Solution> TrialAsync(Solution solution, DocumentId id, IEnumerable<TextChange> extra, CancellationToken cancellationToken) =>
        solution.WithDocumentText(id, await TextAsync(id, extra, cancellationToken));

    public async Task<Solution> BuildAsync(CancellationToken cancellationToken)
    {
        var solution = original;
        foreach (var id in Modified)
        {
            solution = solution.WithDocumentText(id, await TextAsync(id, null, cancellationToken));
        }
        foreach (var id in deleted.Where(original.ContainsDocument))
        {
            solution = solution.RemoveDocument(id);
        }
        foreach (var (id, file) in created.Where(c => !deleted.Contains(c.Key)))
        {
            var project = original.GetProject(file.Project)!;
            solution = solution.AddDocument(id, Path.GetFileName(file.Path), SourceText.From(file.Text), ProjectLayout.FoldersOf(project, file.Path), file.Path);
        }
        return solution;
    }

    /// <summary>Moves a document to another path (same project): delete here, create there with the final text.</summary>
    public async Task<DocumentId> RelocateAsync(DocumentId id, string path, CancellationToken cancellationToken)
    {
        var text = (await TextAsync(id, null, cancellationToken)).ToString();
        var from = PathOf(id);
        var description = Description(id);
        if (created.Remove(id, out var file))
        {
            return Create(file.Project, path, text, description);
        }
        var edited = changes.ContainsKey(id);
        Delete(id, $"Move to {path}");
        return Create(id.ProjectId, path, text, $"Moved from {from}" + (edited ? "; " + description : ""));
    }

    /// <summary>One edit per path, sorted by path.</summary>
    public async Task<ValueList<FileEdit>> ToFileEditsAsync(CancellationToken cancellationToken)
    {
        var edits = new List<FileEdit>();
        foreach (var id in changes.Keys.Concat(deleted).Distinct())
        {
            if (!original.ContainsDocument(id))
            {
                continue;
            }
            var before = await original.GetDocument(id)!.GetTextAsync(cancellationToken);
            var path = PathOf(id);
            if (deleted.Contains(id))
            {
                edits.Add(new FileEdit(path, EditKind.Delete, TextHash.Sha256(before), "", Description(id)));
                continue;
            }
            var after = (await TextAsync(id, null, cancellationToken)).ToString();
            if (after != before.ToString())
            {
                edits.Add(new FileEdit(path, EditKind.Modify, TextHash.Sha256(before), after, Description(id)));
            }
        }
        foreach (var (id, file) in created.Where(c => !deleted.Contains(c.Key)))
        {
            edits.Add(new FileEdit(file.Path, EditKind.Create, "", file.Text, Description(id)));
        }
        return edits.OrderBy(e => e.Path, StringComparer.Ordinal).ToValueList();
    }

    private void Note(DocumentId id, string? note)
    {
        if (note is null)
        {
            return;
        }
        if (!notes.TryGetValue(id, out var list))
        {
            notes[id] = list = [];
        }
        list.Add(note);
    }

    private string Description(DocumentId id) => notes.TryGetValue(id, out var list) ? string.Join("; ", list) : "Update the file";
}
