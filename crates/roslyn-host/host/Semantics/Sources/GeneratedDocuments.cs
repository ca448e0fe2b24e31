using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Semantics.Plans;

namespace RoslynMcp.Host.Semantics.Sources;

/// <summary>
/// The documents source generators add to a project. Roslyn writes each one's path as
/// <c>&lt;base&gt;/&lt;generator assembly&gt;/&lt;generator type&gt;/&lt;hint name&gt;</c>, a file that is not on
/// disk; answers name it by a virtual path instead, <c>roslyn-mcp://generated/&lt;project&gt;/&lt;project
/// id&gt;/&lt;generator type&gt;/&lt;hint name&gt;</c>, which <see cref="FindAsync"/> turns back into the document.
/// The project id (<see cref="ProjectId"/>) names the project file: two projects of one name (one outside the
/// workspace roots, say) never share a path, and the broker gates the path by that file.
/// </summary>
public static class GeneratedDocuments
{
    public const string Scheme = "roslyn-mcp://generated/";

    private static readonly AsyncLocal<Solution?> answering = new();

    /// <summary>The solution the current request is answered from: places in its generated documents get virtual paths.</summary>
    public static void Answering(Solution solution) => answering.Value = solution;

    /// <summary>The path an answer gives a place in <paramref name="tree"/>: virtual for a generated document.</summary>
    public static string PathOf(SyntaxTree? tree, string path) =>
        tree is not null && answering.Value?.GetDocument(tree) is SourceGeneratedDocument generated ? VirtualPath(generated.Project, generated) : path;

    /// <summary>Who wrote a generated document: the generator's assembly and type, out of the path Roslyn gives it.</summary>
    public readonly record struct Generator(string Assembly, string Type);

    public static Generator GeneratorOf(SourceGeneratedDocument document)
    {
        var typeFolder = document.FilePath![..^document.HintName.Length].TrimEnd('/', '\\');
        return new Generator(Path.GetFileName(Path.GetDirectoryName(typeFolder) ?? ""), Path.GetFileName(typeFolder));
    }

    /// <summary>The first 16 hex digits of the SHA-256 of the project file's path (UTF-8), as the broker computes it.</summary>
    public static string ProjectId(string? projectFile) => TextHash.Sha256(projectFile ?? "")[..16];

    public static string VirtualPath(Project project, SourceGeneratedDocument document) =>
        $"{ProjectFolder(project)}{GeneratorOf(document).Type}/{document.HintName}";

    private static string ProjectFolder(Project project) => $"{Scheme}{project.Name}/{ProjectId(project.FilePath)}/";

    /// <summary>The generated document a virtual path names, or null.</summary>
    public static async Task<SourceGeneratedDocument?> FindAsync(Solution solution, string path, CancellationToken cancellationToken)
    {
        if (!path.StartsWith(Scheme, StringComparison.Ordinal))
        {
            return null;
        }
        foreach (var project in solution.Projects.Where(p => path.StartsWith(ProjectFolder(p), StringComparison.Ordinal)))
        {
            foreach (var document in await project.GetSourceGeneratedDocumentsAsync(cancellationToken))
            {
                if (VirtualPath(project, document) == path)
                {
                    return document;
                }
            }
        }
        return null;
    }
}
