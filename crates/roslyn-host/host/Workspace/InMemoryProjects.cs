using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RoslynMcp.Host.Workspace;

/// <summary>A C# project added to a solution in memory, nothing of it on disk (the search rehearsal's).</summary>
public static class InMemoryProjects
{
    /// <summary>The running framework's assemblies whose file name <paramref name="wanted"/> accepts, as
    /// references (each is read whole into memory).</summary>
    public static MetadataReference[] RuntimeAssemblies(Func<string, bool> wanted) =>
        ((string?)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") ?? "")
            .Split(Path.PathSeparator)
            .Where(path => wanted(Path.GetFileName(path)))
            .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))
            .ToArray();

    public static ProjectId Add(
        ref Solution solution,
        string name,
        OutputKind kind,
        IEnumerable<MetadataReference> references,
        IEnumerable<ProjectReference>? projectReferences = null,
        ParseOptions? parseOptions = null,
        string? projectFile = null)
    {
        var id = ProjectId.CreateNewId();
        solution = solution.AddProject(ProjectInfo.Create(
            id,
            VersionStamp.Default,
            name,
            name,
            LanguageNames.CSharp,
            filePath: projectFile,
            compilationOptions: new CSharpCompilationOptions(kind, nullableContextOptions: NullableContextOptions.Enable),
            parseOptions: parseOptions,
            metadataReferences: references,
            projectReferences: projectReferences));
        return id;
    }
}
