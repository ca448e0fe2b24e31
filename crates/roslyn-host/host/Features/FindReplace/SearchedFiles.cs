using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Features.FindReplace;

/// <summary>
/// The files a find/replace request searches, each path once, sorted by path: the documents of the solution (or
/// of one project, every target framework), build output left out, and with <c>IncludeOtherFiles</c> the text
/// files under the solution's (or that project's) folder that are not documents; only those the include glob
/// matches, on their path relative to the solution's folder.
/// </summary>
internal static class SearchedFiles
{
    public static async Task<List<SearchedFile>> ListAsync(
        Solution solution,
        string solutionFolder,
        FindReplaceRequest request,
        List<string> warnings,
        CancellationToken cancellationToken)
    {
        var glob = PathGlob.Of(request.Include);
        bool Wanted(string path) => glob is null || glob.Matches(Relative(solutionFolder, path));

        var projects = request.Project is null ? solution.Projects.ToList() : ProjectLookup.Find(solution, request.Project);
        var documents = new SortedDictionary<string, List<DocumentId>>(StringComparer.Ordinal);
        foreach (var document in projects.SelectMany(p => p.Documents))
        {
            if (document.FilePath is { } path && !IsBuildOutput(solutionFolder, path) && Wanted(path))
            {
                if (!documents.TryGetValue(path, out var ids))
                {
                    documents[path] = ids = [];
                }
                ids.Add(document.Id);
            }
        }
        var files = new List<SearchedFile>();
        foreach (var (path, ids) in documents)
        {
            files.Add(new SearchedFile(path, await solution.GetDocument(ids[0])!.GetTextAsync(cancellationToken), ids));
        }
        if (request.IncludeOtherFiles)
        {
            var documentPaths = solution.Projects.SelectMany(p => p.Documents).Select(d => d.FilePath).OfType<string>().ToHashSet(StringComparer.Ordinal);
            var folders = request.Project is null
                ? [solutionFolder]
                : projects.Select(p => Path.GetDirectoryName(p.FilePath)).OfType<string>().Distinct(StringComparer.Ordinal).ToList();
            foreach (var folder in folders)
            {
                cancellationToken.ThrowIfCancellationRequested();
                files.AddRange(OtherFiles.Under(folder, path => !documentPaths.Contains(path) && Wanted(path), warnings));
            }
        }
        return [.. files.OrderBy(f => f.Path, StringComparer.Ordinal)];
    }

    /// <summary>The path relative to the solution's folder, with <c>/</c> between names.</summary>
    public static string Relative(string solutionFolder, string path) =>
        Path.GetRelativePath(solutionFolder, path).Replace(Path.DirectorySeparatorChar, '/');

    /// <summary>A document under a <c>bin/</c> or <c>obj/</c> folder of the solution's tree (generated at build).</summary>
    private static bool IsBuildOutput(string solutionFolder, string path) =>
        Relative(solutionFolder, path).Split('/').SkipLast(1).Any(name => name is "bin" or "obj");
}
