using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Sources;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Features.Sources;

/// <summary>Lists the documents source generators add to a project, each with its virtual path (<see cref="GeneratedDocuments"/>).</summary>
public static class GeneratedDocumentsHandler
{
    public static async Task<GeneratedDocumentList> HandleAsync(Solution solution, ProjectRequest request, CancellationToken cancellationToken)
    {
        var listed = new List<GeneratedDocument>();
        foreach (var project in ProjectLookup.Find(solution, request.Project))
        {
            var framework = TargetFrameworks.Compiled(solution, project);
            foreach (var document in await project.GetSourceGeneratedDocumentsAsync(cancellationToken))
            {
                var text = await document.GetTextAsync(cancellationToken);
                var generator = GeneratedDocuments.GeneratorOf(document);
                listed.Add(new GeneratedDocument(
                    project.FilePath ?? project.Name,
                    framework.Length == 0 ? null : framework,
                    generator.Type,
                    generator.Assembly,
                    document.HintName,
                    GeneratedDocuments.VirtualPath(project, document),
                    (uint)text.Length,
                    (uint)LineCount(text)));
            }
        }
        return new GeneratedDocumentList(listed
            .OrderBy(d => d.Project, StringComparer.Ordinal)
            .ThenBy(d => d.Framework, StringComparer.Ordinal)
            .ThenBy(d => d.Generator, StringComparer.Ordinal)
            .ThenBy(d => d.HintName, StringComparer.Ordinal)
            .ToValueList());
    }

    /// <summary>Lines as editors count them: a final line end starts no line of its own.</summary>
    private static int LineCount(Microsoft.CodeAnalysis.Text.SourceText text) =>
        text.Lines.Count - (text.Lines[^1].Span.IsEmpty ? 1 : 0);
}
