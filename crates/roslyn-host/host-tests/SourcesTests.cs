using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Sources;

namespace RoslynMcp.Host.Tests;

/// <summary>Source for what has no file: generated documents and referenced assemblies, on the Sources fixture.</summary>
[Collection(SourcesCollection.Name)]
public sealed class SourcesTests(SourcesSolution fixture)
{
    private const string LoggingGenerator = "Microsoft.Extensions.Logging.Generators.LoggerMessageGenerator";

    /// <summary>App's generated documents' folder: its name, then the id of its project file.</summary>
    private string AppFolder => $"roslyn-mcp://generated/App/{GeneratedDocuments.ProjectId(fixture.PathOf("App/App.csproj"))}/";

    [Fact]
    public async Task ListsWhatTheRegexAndLoggingGeneratorsWrite()
    {
        var list = await fixture.OkAsync<ResponseBody.GeneratedDocuments>(new RequestBody.GeneratedDocuments(new ProjectRequest("App")));

        var regex = Assert.Single(list.Value.Documents, d => d.Generator.EndsWith(".RegexGenerator", StringComparison.Ordinal));
        Assert.Equal("RegexGenerator.g.cs", regex.HintName);
        Assert.Equal($"{AppFolder}{regex.Generator}/RegexGenerator.g.cs", regex.Path);
        Assert.Equal("net10.0", regex.Framework);
        Assert.True(regex.Length > 0 && regex.Lines > 1);
        var logging = Assert.Single(list.Value.Documents, d => d.Generator == LoggingGenerator);
        Assert.Equal("Microsoft.Extensions.Logging.Generators", logging.GeneratorAssembly);

        var read = await fixture.OkAsync<ResponseBody.Source>(new RequestBody.ReadSource(new ReadSourceRequest(logging.Path)));
        Assert.Equal(SourceOrigin.Generated, read.Value.Origin);
        Assert.Equal(LoggingGenerator, read.Value.Generator);
        Assert.Contains("Started", read.Value.Text);
        Assert.Equal((int)logging.Length, read.Value.Text.Length);
    }

    [Fact]
    public async Task APartialTypesGeneratedPartHasItsVirtualPath()
    {
        var type = await fixture.OkAsync<ResponseBody.TypeAtPosition>(new RequestBody.TypeAtPosition(fixture.At("App/Program.cs", 14, 9)));

        Assert.Equal(2, type.Value.Declarations.Count);
        Assert.Contains(type.Value.Declarations, d => d.Span.File == fixture.PathOf("App/Log.cs"));
        var generated = Assert.Single(type.Value.Declarations, d => d.Span.File.StartsWith(AppFolder, StringComparison.Ordinal));
        Assert.Equal($"{AppFolder}{LoggingGenerator}/LoggerMessage.g.cs", generated.Span.File);
        Assert.Null(type.Value.Metadata);
    }

    [Fact]
    public async Task ReferencesInGeneratedCodeHaveTheirVirtualPath()
    {
        var references = await fixture.OkAsync<ResponseBody.References>(new RequestBody.References(
            new ReferencesRequest(fixture.At("App/Program.cs", 13, 9), false)));

        var generated = references.Value.References.Where(r => r.Span.File.StartsWith(GeneratedDocuments.Scheme, StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(generated);
        Assert.All(generated, r => Assert.Equal($"{AppFolder}{LoggingGenerator}/LoggerMessage.g.cs", r.Span.File));
        Assert.Contains(references.Value.References, r => r.Span.File == fixture.PathOf("App/Program.cs"));
    }

    [Fact]
    public async Task AFrameworkMethodReadsAsItsImplementationDecompiled()
    {
        var definition = await DefinitionAsync(17, 35);

        Assert.Empty(definition.Locations);
        var place = Assert.IsType<MetadataSource>(definition.Metadata);
        Assert.Equal(SourceOrigin.Decompiled, place.Origin);
        Assert.StartsWith("roslyn-mcp://metadata/System.Text.Json/10.0.0.0/System.Text.Json.JsonSerializer.cs", place.Span.File);
        Assert.Contains("Serialize", place.LineText);
        var text = await ReadAsync(place.Span.File);
        Assert.Equal(SourceOrigin.Decompiled, text.Origin);
        Assert.StartsWith("System.Text.Json, Version=10.0.0.0", text.Assembly);
        Assert.Contains("Decompiled from System.Text.Json.dll with ICSharpCode.Decompiler", text.Text);
        Assert.Contains("class JsonSerializer", text.Text);
        // Its documentation comes from the reference pack's XML, beside the assembly the project references.
        Assert.Contains("/// <summary>Provides functionality to serialize objects or value types to JSON", text.Text);
        // The reference assembly's bodies are `throw null`: the runtime's implementation has real ones.
        Assert.DoesNotContain("throw null", text.Text);
        Assert.Equal(place.LineText, LineOf(text.Text, place.Span.StartLine).Trim());
        Assert.Equal("Serialize", LineOf(text.Text, place.Span.StartLine).Substring((int)place.Span.StartColumn - 1, 9));
    }

    [Fact]
    public async Task ALibraryWithEmbeddedSourcesReadsAsItsOwnFile()
    {
        var constructor = Assert.IsType<MetadataSource>((await DefinitionAsync(16, 26)).Metadata);
        var overload = Assert.IsType<MetadataSource>((await DefinitionAsync(18, 55)).Metadata);

        Assert.Equal(SourceOrigin.EmbeddedSource, constructor.Origin);
        Assert.Equal("roslyn-mcp://metadata/Widgets/1.0.0.0/Sources.Widgets.Widget.cs", constructor.Span.File);
        Assert.Equal((6u, 12u, "public Widget(string name)"), (constructor.Span.StartLine, constructor.Span.StartColumn, constructor.LineText));
        // Area(2, 3) is the two-parameter overload, not the first one declared with that name's neighbour.
        Assert.Equal((13u, "public int Area(int width, int height) => width * height;"), (overload.Span.StartLine, overload.LineText));
        var text = await ReadAsync(constructor.Span.File);
        Assert.Equal(SourceOrigin.EmbeddedSource, text.Origin);
        Assert.Equal(File.ReadAllText(Path.Combine(fixture.Root, "Widgets", "Widget.cs")), text.Text);
    }

    [Fact]
    public async Task APackageWithoutSourcesIsDecompiledOnlyOnce()
    {
        var first = Assert.IsType<MetadataSource>((await DefinitionAsync(13, 26)).Metadata);
        var type = (await fixture.OkAsync<ResponseBody.TypeAtPosition>(new RequestBody.TypeAtPosition(fixture.At("App/Program.cs", 13, 26)))).Value;
        var second = Assert.IsType<MetadataSource>(type.Metadata);

        Assert.Equal(SourceOrigin.Decompiled, first.Origin);
        Assert.StartsWith("roslyn-mcp://metadata/Microsoft.Extensions.Logging.Abstractions/10.0.0.0/", first.Span.File);
        Assert.EndsWith("/Microsoft.Extensions.Logging.Abstractions.NullLogger.cs", first.Span.File);
        Assert.Equal(first.Span.File, second.Span.File);
        var compilation = await fixture.Solution.Projects.Single().GetCompilationAsync();
        var namedType = compilation!.GetTypeByMetadataName("Microsoft.Extensions.Logging.Abstractions.NullLogger")!;
        var again = await MetadataDocuments.Shared.DocumentOfAsync(fixture.Solution, namedType, CancellationToken.None);
        var andAgain = await MetadataDocuments.Shared.DocumentOfAsync(fixture.Solution, namedType, CancellationToken.None);
        Assert.Same(again, andAgain);
    }

    [Fact]
    public async Task SymbolSourcesAnswerEachNameByItself()
    {
        var answer = await fixture.OkAsync<ResponseBody.SymbolSources>(new RequestBody.SymbolSources(new SymbolSourcesRequest(
            ["Sources.App.Program.Describe", "Sources.App.Nope", "Sources.Widgets.Widget.Area", "Sources.App.Log", "M:Sources.Widgets.Widget.#ctor(System.String)"],
            false)));
        var entries = answer.Value.Entries;

        Assert.Equal(["Sources.App.Program.Describe", "Sources.App.Nope", "Sources.Widgets.Widget.Area", "Sources.App.Log", "M:Sources.Widgets.Widget.#ctor(System.String)"],
            entries.Select(e => e.Name));
        Assert.Equal(2, entries[0].Declarations.Count);
        Assert.All(entries[0].Declarations, d => Assert.Equal(SourceOrigin.File, d.Origin));
        Assert.Contains(entries[0].Declarations, d => d.Text == "public static string Describe(Widget widget, int width) => widget.Name + width;");
        Assert.Equal(ErrorCode.SymbolNotFound, entries[1].Error!.Code);
        Assert.Empty(entries[1].Declarations);
        Assert.Equal(["public int Area(int width, int height) => width * height;", "public int Area(int side) => Area(side, side);"],
            entries[2].Declarations.Select(d => d.Text).Order(StringComparer.Ordinal).Reverse());
        Assert.All(entries[2].Declarations, d => Assert.Equal(SourceOrigin.EmbeddedSource, d.Origin));
        Assert.Equal([SourceOrigin.File, SourceOrigin.Generated], entries[3].Declarations.Select(d => d.Origin).Order());
        var ctor = Assert.Single(entries[4].Declarations);
        Assert.StartsWith("public Widget(string name)", ctor.Text);
    }

    [Fact]
    public async Task ATypesSignaturesLeaveItsBodiesOut()
    {
        var answer = await fixture.OkAsync<ResponseBody.SymbolSources>(new RequestBody.SymbolSources(new SymbolSourcesRequest(
            ["Sources.Widgets.Widget", "Microsoft.Extensions.Logging.Abstractions.NullLogger"], true)));

        var widget = Assert.Single(answer.Value.Entries[0].Declarations).Text;
        Assert.StartsWith("/// <summary>A named part with an area.</summary>\npublic class Widget", widget);
        Assert.Contains("public Widget(string name);", widget);
        Assert.Contains("public string Name { get; }", widget);
        Assert.Contains("public int Area(int width, int height);", widget);
        Assert.DoesNotContain("width * height", widget);
        var nullLogger = Assert.Single(answer.Value.Entries[1].Declarations);
        Assert.Equal(SourceOrigin.Decompiled, nullLogger.Origin);
        Assert.Contains("class NullLogger", nullLogger.Text);
        Assert.StartsWith("/// <summary>", nullLogger.Text);
        Assert.Contains("Minimalistic logger that does nothing.", nullLogger.Text);
        Assert.DoesNotContain("return", nullLogger.Text);
    }

    [Fact]
    public async Task UnknownPathsAreRefused()
    {
        foreach (var path in new[]
        {
            "roslyn-mcp://metadata/Widgets/9.9.9.9/Sources.Widgets.Widget.cs",
            "roslyn-mcp://metadata/Widgets/1.0.0.0/Sources.Widgets.Nothing.cs",
            $"{AppFolder}Some.Generator/Nothing.g.cs",
            // App's document named by the project's name alone, or with the id of another App's file.
            $"roslyn-mcp://generated/App/{LoggingGenerator}/LoggerMessage.g.cs",
            $"roslyn-mcp://generated/App/{GeneratedDocuments.ProjectId("/elsewhere/App/App.csproj")}/{LoggingGenerator}/LoggerMessage.g.cs",
            fixture.PathOf("App/App.csproj"),
        })
        {
            var error = await fixture.ErrAsync(new RequestBody.ReadSource(new ReadSourceRequest(path)));
            Assert.Equal(ErrorCode.SourceFileNotFound, error.Code);
        }
    }

    private async Task<DefinitionInfo> DefinitionAsync(uint line, uint column) =>
        (await fixture.OkAsync<ResponseBody.SymbolDefinition>(new RequestBody.SymbolDefinition(fixture.At("App/Program.cs", line, column)))).Value;

    private async Task<SourceDocument> ReadAsync(string path) =>
        (await fixture.OkAsync<ResponseBody.Source>(new RequestBody.ReadSource(new ReadSourceRequest(path)))).Value;

    private static string LineOf(string text, uint line) => text.Split('\n')[line - 1].TrimEnd('\r');
}
