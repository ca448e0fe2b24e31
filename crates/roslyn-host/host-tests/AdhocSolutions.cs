using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace RoslynMcp.Host.Tests;

/// <summary>A one-file, one-project solution in memory, for syntax the Shop fixture does not have.</summary>
internal static class AdhocSolutions
{
    /// <summary>Where the files claim to be (nothing is written there).</summary>
    public static string Root { get; } = Path.Combine(Path.GetTempPath(), "roslyn-mcp-adhoc");

    public static string PathOf(string name) => Path.Combine(Root, name + ".cs");

    public static Solution WithFile(string name, string source)
    {
        var workspace = new AdhocWorkspace();
        var project = workspace.AddProject(ProjectInfo.Create(
            ProjectId.CreateNewId(),
            VersionStamp.Default,
            "Adhoc",
            "Adhoc",
            LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable),
            metadataReferences: FrameworkReferences.Value));
        var document = DocumentInfo.Create(
            DocumentId.CreateNewId(project.Id),
            name + ".cs",
            loader: TextLoader.From(TextAndVersion.Create(Microsoft.CodeAnalysis.Text.SourceText.From(source), VersionStamp.Default)),
            filePath: PathOf(name));
        return workspace.AddDocument(document).Project.Solution;
    }

    // The running framework's assemblies: what an SDK project would reference.
    private static readonly Lazy<MetadataReference[]> FrameworkReferences = new(() =>
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
            .Split(Path.PathSeparator)
            .Where(p => Path.GetFileName(p).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(p) == "netstandard.dll")
            .Select(p => (MetadataReference)MetadataReference.CreateFromFile(p))
            .ToArray());
}
