using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Sources;

namespace RoslynMcp.Host.Features.Sources;

/// <summary>The text of a solution document, a generated document or a referenced assembly's type, by (virtual) path.</summary>
public static class ReadSourceHandler
{
    public static async Task<SourceDocument> HandleAsync(Solution solution, ReadSourceRequest request, CancellationToken cancellationToken)
    {
        var path = request.Path;
        if (path.StartsWith(MetadataDocuments.Scheme, StringComparison.Ordinal))
        {
            var metadata = await MetadataDocuments.Shared.ReadAsync(solution, path, cancellationToken);
            var text = await metadata.Tree.GetTextAsync(cancellationToken);
            return new SourceDocument(path, metadata.Origin, null, metadata.Assembly, text.ToString());
        }
        if (path.StartsWith(GeneratedDocuments.Scheme, StringComparison.Ordinal))
        {
            var generated = await GeneratedDocuments.FindAsync(solution, path, cancellationToken) ?? throw NotFound(path,
                "No source generator of the solution's projects wrote a document with that path",
                "list_generated_documents gives the generated documents of a project with their paths");
            var text = await generated.GetTextAsync(cancellationToken);
            return new SourceDocument(path, SourceOrigin.Generated, GeneratedDocuments.GeneratorOf(generated).Type, null, text.ToString());
        }
        var document = solution.GetDocumentIdsWithFilePath(path).Select(solution.GetDocument).OfType<Document>().FirstOrDefault()
            ?? throw NotFound(path, "The file is not a C# document of the loaded solution",
                "Give a document of the solution, or a virtual path (roslyn-mcp://metadata/..., roslyn-mcp://generated/...) an answer gave");
        return new SourceDocument(path, SourceOrigin.File, null, null, (await document.GetTextAsync(cancellationToken)).ToString());
    }

    private static HostErrorException NotFound(string path, string message, string suggestion) =>
        HostErrorException.Create(ErrorCode.SourceFileNotFound, $"{message}: {path}", new JsonObject { ["path"] = path }, suggestion);
}
