using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>The public surface of the Layout fixture's Core, as loaded and as other files make it.</summary>
[Collection(LayoutCollection.Name)]
public sealed class PublicApiTests(LayoutSolution fixture, ITestOutputHelper output)
{
    [Fact]
    public async Task EveryTypeAndMemberCallersCanReachIsOneLine()
    {
        var api = await ApiAsync(null);
        output.WriteLine(string.Join("\n", api.Members.Select(m => $"{m.Id} | {m.Line} | {m.Kind} | {m.Container} | {m.Name} | {m.BreaksWhenAdded}")));

        Assert.Equal(("net10.0", fixture.PathOf("Core/Core.csproj")), (api.Framework, api.Project));
        var lines = api.Members.Select(m => m.Line).ToList();
        Assert.Contains("static class Layout.Core.Parsing.Lexer", lines);
        Assert.Contains("static Layout.Core.Parsing.Lexer.Split(string text) -> System.Collections.Generic.List<Layout.Core.Parsing.Token>", lines);
        Assert.Contains("readonly record struct Layout.Core.Units.Meter", lines);
        Assert.Contains("Layout.Core.Text.Cursor.Next() -> Layout.Core.Parsing.Token?", lines);
        Assert.Contains("const Layout.Core.Limits.MaxTokens = 1000 -> int", lines);
        Assert.Contains(api.Members, m => m.Id == "M:Layout.Core.Units.Meter.op_Addition(Layout.Core.Units.Meter,Layout.Core.Units.Meter)" && m.Kind == "operator");
        // Private state and what the compiler adds to a record are not callers' API.
        Assert.DoesNotContain(api.Members, m => m.Name == "next" || m.Name == "EqualityContract");
        Assert.Equal(lines.Order(StringComparer.Ordinal), lines);
    }

    [Fact]
    public async Task OtherFilesCompileInPlaceOfTheProjectsAndNothingIsWritten()
    {
        var files = Directory.GetFiles(fixture.PathOf("Core"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains("/obj/", StringComparison.Ordinal) && !f.Contains("/bin/", StringComparison.Ordinal))
            .Select(f => new SourceFile(f, File.ReadAllText(f).Replace("public const int MaxTokens", "public const long MaxTokens", StringComparison.Ordinal)))
            .Append(new SourceFile(fixture.PathOf("Core/Shape.cs"), "namespace Layout.Core;\n\npublic abstract class Shape\n{\n    public abstract double Area();\n}\n"))
            .ToList();
        var before = File.ReadAllText(fixture.PathOf("Core/Limits.cs"));

        var api = await ApiAsync(files);

        var lines = api.Members.Select(m => m.Line).ToList();
        Assert.Contains("const Layout.Core.Limits.MaxTokens = 1000 -> long", lines);
        Assert.Contains(api.Members, m => m.Line == "abstract Layout.Core.Shape.Area() -> double" && m.BreaksWhenAdded);
        Assert.Equal(before, File.ReadAllText(fixture.PathOf("Core/Limits.cs")));
        Assert.False(File.Exists(fixture.PathOf("Core/Shape.cs")));
        Assert.Contains("const Layout.Core.Limits.MaxTokens = 1000 -> int", (await ApiAsync(null)).Members.Select(m => m.Line));
    }

    private async Task<PublicApi> ApiAsync(List<SourceFile>? files) =>
        (await fixture.OkAsync<ResponseBody.PublicApi>(new RequestBody.PublicApi(new PublicApiRequest(fixture.PathOf("Core/Core.csproj"), files?.ToValueList())))).Value;
}
