using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Tests;

/// <summary>A one-file, one-project solution in memory, for syntax the Shop fixture does not have.</summary>
internal static class AdhocSolutions
{
    /// <summary>Where the files claim to be (nothing is written there).</summary>
    public static string Root { get; } = Path.Combine(Path.GetTempPath(), "roslyn-mcp-adhoc");

    public static string PathOf(string name) => Path.Combine(Root, name + ".cs");

    public static Solution WithFile(string name, string source)
    {
        var solution = new AdhocWorkspace().CurrentSolution;
        AddProject(ref solution, "Adhoc", null, [(name + ".cs", source)], _ => PathOf(name));
        return solution;
    }

    /// <summary>
    /// Adds a library project with <paramref name="files"/>, each at the path <paramref name="pathOf"/> gives its
    /// name; <paramref name="projectFile"/> is where its project file claims to be, if anywhere.
    /// </summary>
    public static ProjectId AddProject(
        ref Solution solution,
        string name,
        ParseOptions? parseOptions,
        (string Name, string Text)[] files,
        Func<string, string> pathOf,
        string? projectFile = null)
    {
        var id = InMemoryProjects.Add(
            ref solution, name, OutputKind.DynamicallyLinkedLibrary, FrameworkReferences.Value, parseOptions: parseOptions, projectFile: projectFile);
        foreach (var (file, text) in files)
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(id), file, Microsoft.CodeAnalysis.Text.SourceText.From(text), filePath: pathOf(file));
        }
        return id;
    }

    // The running framework's assemblies: what an SDK project would reference.
    private static readonly Lazy<MetadataReference[]> FrameworkReferences = new(() =>
        InMemoryProjects.RuntimeAssemblies(name => name.StartsWith("System.", StringComparison.Ordinal) || name == "netstandard.dll"));
}
