using System.Text.Json.Nodes;
using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>move_files plans on the Layout fixture (FIXTURE.md names its traps).</summary>
[Collection(LayoutCollection.Name)]
public sealed class MoveFilesTests(LayoutSolution fixture, ITestOutputHelper output)
{
    [Fact]
    public async Task AFolderMovesWithItsNamespaceAndItsConsumersFollow()
    {
        var answer = await PlanAsync(new MoveFilesRequest([], fixture.PathOf("Core/Parsing"), fixture.PathOf("Core/Syntax"), false));

        Assert.Equal(
            [(fixture.PathOf("Core/Parsing/Lexer.cs"), fixture.PathOf("Core/Syntax/Lexer.cs")), (fixture.PathOf("Core/Parsing/Token.cs"), fixture.PathOf("Core/Syntax/Token.cs"))],
            answer.Moved.Select(m => (m.File, m.NewFile)));
        Assert.All(answer.Namespaces, n => Assert.Equal(("Layout.Core.Parsing", "Layout.Core.Syntax"), (n.Namespace, n.NewNamespace)));
        Assert.Equal(2, answer.Namespaces.Count);
        Assert.Equal(EditKind.Delete, Edit(answer, "Core/Parsing/Lexer.cs").Kind);
        var lexer = Edit(answer, "Core/Syntax/Lexer.cs");
        Assert.Equal(EditKind.Create, lexer.Kind);
        Assert.Contains("namespace Layout.Core.Syntax;", lexer.NewText);
        Assert.Contains("#else", lexer.NewText);
        foreach (var consumer in new[] { "Core/Text/Cursor.cs", "Tools/Cli.cs" })
        {
            Assert.Contains("using Layout.Core.Syntax;", Edit(answer, consumer).NewText);
            Assert.DoesNotContain("Layout.Core.Parsing", Edit(answer, consumer).NewText);
        }
        Assert.Empty(answer.References);
        Assert.DoesNotContain(answer.Plan.Edits, e => e.Path.EndsWith("proj", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AFileMovedToAnotherProjectBringsTheReferencesItAndItsUsersNeed()
    {
        var answer = await PlanAsync(new MoveFilesRequest([fixture.PathOf("Core/Units/Meter.cs")], null, fixture.PathOf("Extra/Units"), false));

        Assert.Equal(
            [(fixture.PathOf("Core/Core.csproj"), fixture.PathOf("Extra/Extra.csproj")), (fixture.PathOf("Tools/Tools.csproj"), fixture.PathOf("Extra/Extra.csproj"))],
            answer.References.Select(r => (r.Project, r.References)));
        Assert.Equal("Layout.Extra.Units", Assert.Single(answer.Namespaces).NewNamespace);
        Assert.Contains(
            "  <ItemGroup>\n    <ProjectReference Include=\"..\\Extra\\Extra.csproj\" />\n  </ItemGroup>\n</Project>",
            Edit(answer, "Core/Core.csproj").NewText);
        Assert.Contains(
            "<ProjectReference Include=\"..\\Core\\Core.csproj\" />\n    <ProjectReference Include=\"..\\Extra\\Extra.csproj\" />\n",
            Edit(answer, "Tools/Tools.csproj").NewText);
        Assert.Contains("new Layout.Extra.Units.Meter(1)", Edit(answer, "Tools/Cli.cs").NewText);
        Assert.Contains("using Layout.Extra.Units;", Edit(answer, "Core/Limits.cs").NewText);
        Assert.DoesNotContain(answer.Plan.Edits, e => e.Path == fixture.PathOf("Extra/Extra.csproj"));
    }

    [Fact]
    public async Task AMoveWhoseReferencesWouldCloseACycleIsRefused()
    {
        // Lexer uses Core's Limits, and Core's Cursor uses the Lexer: Extra and Core would reference each other.
        var error = await fixture.ErrAsync(Request(new MoveFilesRequest([], fixture.PathOf("Core/Parsing"), fixture.PathOf("Extra/Parsing"), false)));

        Assert.Equal(ErrorCode.CircularReference, error.Code);
        Assert.Contains("Limits", error.Message);
    }

    [Fact]
    public async Task CodeThatUsesALibraryTheDestinationLacksIsRefusedWithTheLibrary()
    {
        var error = await fixture.ErrAsync(Request(new MoveFilesRequest([fixture.PathOf("Tools/Web/Health.cs")], null, fixture.PathOf("Extra/Web"), false)));

        Assert.Equal(ErrorCode.ReferenceMissing, error.Code);
        var missing = Assert.Single(JsonNode.Parse(error.DetailsJson)!["missing"]!.AsArray());
        Assert.Equal("Microsoft.AspNetCore.Http.Abstractions", (string?)missing!["assembly"]);
        Assert.EndsWith("Web/Health.cs:7 uses StatusCodes", (string?)missing["use"]);
    }

    [Fact]
    public async Task AProjectThatListsItsFilesListsTheFilesMovedIn()
    {
        var answer = await PlanAsync(new MoveFilesRequest([fixture.PathOf("Extra/Note.cs")], null, fixture.PathOf("Listed/Notes"), true));

        Assert.Empty(answer.Namespaces);
        Assert.Equal(File.ReadAllText(fixture.PathOf("Extra/Note.cs")), Edit(answer, "Listed/Notes/Note.cs").NewText);
        Assert.Contains("<Compile Include=\"Old.cs\" />\n    <Compile Include=\"Notes\\Note.cs\" />\n", Edit(answer, "Listed/Listed.csproj").NewText);
        Assert.DoesNotContain(answer.Plan.Edits, e => e.Path == fixture.PathOf("Extra/Extra.csproj"));
    }

    [Fact]
    public async Task AListedFileMovedInItsProjectKeepsItsEntryUnderTheNewPath()
    {
        var answer = await PlanAsync(new MoveFilesRequest([fixture.PathOf("Listed/Old.cs")], null, fixture.PathOf("Listed/Archive"), false));

        Assert.Equal("Layout.Listed.Archive", Assert.Single(answer.Namespaces).NewNamespace);
        var project = Edit(answer, "Listed/Listed.csproj").NewText;
        Assert.Contains("<Compile Include=\"Archive\\Old.cs\" />", project);
        Assert.DoesNotContain("\"Old.cs\"", project);
    }

    [Theory]
    [InlineData("Core/Units/Meter.cs", "Elsewhere", ErrorCode.InvalidTargetPath)]
    [InlineData("Core/Units/Meter.cs", "Extra/bin/Units", ErrorCode.InvalidTargetPath)]
    [InlineData("Core/Units/Meter.cs", "Core/Units", ErrorCode.SameLocation)]
    [InlineData("Core/Parsing/Token.cs", "Core/Text/../Parsing", ErrorCode.SameLocation)]
    public async Task FilesThatCannotGoThereAreRefused(string file, string destination, ErrorCode code)
    {
        var error = await fixture.ErrAsync(Request(new MoveFilesRequest([fixture.PathOf(file)], null, fixture.PathOf(destination), false)));
        Assert.Equal(code, error.Code);
    }

    [Fact]
    public async Task AFileNamedTwiceMovesOnceAndAFileOnDiskIsNotOverwritten()
    {
        var meter = fixture.PathOf("Core/Units/Meter.cs");
        Assert.Single((await PlanAsync(new MoveFilesRequest([meter, meter], null, fixture.PathOf("Core/Text"), true))).Moved);
        // Not a document of the solution (a file nobody compiles yet), but there.
        var taken = fixture.PathOf("Core/Text/Token.cs");
        File.WriteAllText(taken, "// kept");
        try
        {
            var error = await fixture.ErrAsync(Request(new MoveFilesRequest([fixture.PathOf("Core/Parsing/Token.cs")], null, fixture.PathOf("Core/Text"), true)));
            Assert.Equal(ErrorCode.InvalidTargetPath, error.Code);
        }
        finally
        {
            File.Delete(taken);
        }
    }

    [Theory]
    [InlineData("Core/Parsing", "Core/Parsing/Inner", ErrorCode.InvalidTargetPath)]
    [InlineData("Core", "Extra/Core", ErrorCode.InvalidSourcePath)]
    [InlineData("Core/Nowhere", "Core/Text", ErrorCode.SourceFileNotFound)]
    public async Task FoldersThatCannotGoThereAreRefused(string folder, string destination, ErrorCode code)
    {
        var error = await fixture.ErrAsync(Request(new MoveFilesRequest([], fixture.PathOf(folder), fixture.PathOf(destination), false)));
        Assert.Equal(code, error.Code);
    }

    private async Task<MoveFilesPlan> PlanAsync(MoveFilesRequest request)
    {
        var answer = (await fixture.OkAsync<ResponseBody.MoveFilesPlan>(Request(request))).Value;
        output.WriteLine(string.Join("\n", answer.Plan.Edits.Select(e => $"--- {e.Kind} {e.Path}\n{e.NewText}")));
        return answer;
    }

    private static RequestBody Request(MoveFilesRequest request) => new RequestBody.PlanMoveFiles(request);

    private FileEdit Edit(MoveFilesPlan answer, string relative) =>
        Assert.Single(answer.Plan.Edits, e => e.Path == fixture.PathOf(relative));
}
