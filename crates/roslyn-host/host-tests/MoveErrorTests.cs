using System.Security.Cryptography;
using System.Text.Json.Nodes;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Every refusal of a move planner, on the Moves fixture.</summary>
[Collection(MovesCollection.Name)]
public sealed class MoveErrorTests(MovesSolution moves)
{
    private const string Shapes = "src/Moves.Core/Models/Shapes.cs";
    private const string Calculator = "src/Moves.Core/Services/AreaCalculator.cs";

    private async Task<(HostError Error, JsonObject Details)> RefusedAsync(RequestBody request, ErrorCode code)
    {
        var error = await moves.ErrAsync(request);
        Assert.True(error.Code == code, $"{error.Code}: {error.Message}");
        return (error, JsonNode.Parse(error.DetailsJson)!.AsObject());
    }

    [Fact]
    public async Task SourceOutsideTheSolution()
    {
        var (_, details) = await RefusedAsync(MovePlans.ToFile(moves, "src/Nowhere.cs", "Circle", "src/Moves.Core/C.cs"), ErrorCode.SourceNotInWorkspace);
        Assert.Equal(moves.PathOf("src/Nowhere.cs"), (string?)details["sourceFile"]);
    }

    [Fact]
    public async Task LineBeyondTheFile()
    {
        var (_, details) = await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "src/Moves.Core/C.cs", line: 999), ErrorCode.InvalidLineNumber);
        // Roslyn counts the empty line after the final line break.
        Assert.Equal(38, (int)details["lineCount"]!);
    }

    [Fact]
    public async Task MisspelledTypeSuggestsTheClosest()
    {
        var (error, details) = await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circel", "src/Moves.Core/C.cs"), ErrorCode.SymbolNotFound);
        Assert.Equal(["Circle", "IShape", "Square"], details["nearbySymbols"]!.AsArray().Select(n => (string)n!));
        Assert.Equal(["Check spelling of symbol name", "Did you mean Circle?"], error.Suggestions);
    }

    [Fact]
    public async Task TypeNotAtTheGivenLine()
    {
        var (error, _) = await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "src/Moves.Core/C.cs", line: 27), ErrorCode.SymbolNotFound);
        Assert.Contains("Verify the line number is correct", error.Suggestions);
    }

    [Fact]
    public async Task TwoFormattersNeedALine()
    {
        var formatters = "src/Moves.Core/Services/Formatters.cs";
        var (_, details) = await RefusedAsync(MovePlans.ToNamespace(moves, formatters, "Formatter", "Moves.Core.Formatting"), ErrorCode.SymbolAmbiguous);
        Assert.Equal(
            ["Moves.Core.Services.V1.Formatter:3", "Moves.Core.Services.V2.Formatter:10"],
            details["candidates"]!.AsArray().Select(c => $"{c!["fullyQualifiedName"]}:{c["line"]}"));

        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, formatters, "Formatter", "Moves.Core.Formatting", line: 10));
        Assert.Equal("Moves.Core.Services.V2.Formatter", plan.Symbol.PreviousFullyQualifiedName);
        Assert.EndsWith(
            "}\n\nnamespace Moves.Core.Formatting\n{\n    public class Formatter\n    {\n    }\n}\n",
            plan.Edit(moves, formatters).NewText);
        await moves.AssertCompilesAsync(plan);
    }

    [Theory]
    [InlineData("AreaCalculator.Sum", "Method")]
    [InlineData("_precision", "Field")]
    public async Task MembersAreNotMoveable(string name, string kind)
    {
        var (error, details) = await RefusedAsync(MovePlans.ToFile(moves, Calculator, name, "src/Moves.Core/C.cs"), ErrorCode.SymbolNotMoveable);
        Assert.Equal(kind, (string?)details["symbolKind"]);
        Assert.Equal("Moves.Core.Services.AreaCalculator", (string?)details["containingType"]);
        Assert.Contains("Move the containing type AreaCalculator instead", error.Suggestions);
    }

    [Fact]
    public async Task APartialTypeInTwoFilesCannotChangeNamespace()
    {
        var (_, details) = await RefusedAsync(
            MovePlans.ToNamespace(moves, "src/Moves.Core/Models/Widget.cs", "Widget", "Moves.Core.Widgets"),
            ErrorCode.SymbolNotMoveable);
        Assert.Equal(
            [moves.PathOf("src/Moves.Core/Models/Widget.Parts.cs") + ":3", moves.PathOf("src/Moves.Core/Models/Widget.cs") + ":3"],
            details["partialDeclarations"]!.AsArray().Select(n => (string)n!));
    }

    [Fact]
    public async Task NestedTypesMoveWithTheirContainer()
    {
        var (_, details) = await RefusedAsync(MovePlans.ToFile(moves, Calculator, "Options", "src/Moves.Core/C.cs"), ErrorCode.SymbolIsNested);
        Assert.Equal("Moves.Core.Services.AreaCalculator", (string?)details["containingType"]);
    }

    [Fact]
    public async Task SameFileAndSameNamespace()
    {
        await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", Shapes), ErrorCode.SameLocation);
        await RefusedAsync(MovePlans.ToNamespace(moves, Shapes, "Circle", "Moves.Core.Models"), ErrorCode.SameNamespace);
    }

    [Fact]
    public async Task NamespaceWithATypeOfTheSameName()
    {
        var (_, details) = await RefusedAsync(MovePlans.ToNamespace(moves, Shapes, "Circle", "Moves.Legacy.Drawing"), ErrorCode.NameCollision);
        Assert.Equal(moves.PathOf("src/Moves.Legacy/Drawing/Sketch.cs"), (string?)details["existingTypeLocation"]);
    }

    [Fact]
    public async Task InvalidTargets()
    {
        await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "src/Moves.Core/Models/Round.cs", create: false), ErrorCode.InvalidTargetPath);
        await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "FIXTURE.md"), ErrorCode.InvalidTargetPath);
        await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "elsewhere/Circle.cs"), ErrorCode.InvalidTargetPath);
        var (error, _) = await RefusedAsync(
            MovePlans.ToFile(moves, "src/Moves.Core/Models/Geometry.cs", "Geometry", "src/Moves.Core/Services/Secrets.cs"),
            ErrorCode.InvalidTargetPath);
        Assert.Contains("file-scoped namespace Moves.Core.Services", error.Message);
    }

    [Fact]
    public async Task AFileLocalTypeUsedInItsFileStays()
    {
        var (_, details) = await RefusedAsync(
            MovePlans.ToFile(moves, "src/Moves.Core/Services/Secrets.cs", "KeyHolder", "src/Moves.Core/Services/KeyHolder.cs"),
            ErrorCode.BreaksAccessibility);
        Assert.Equal(10, (int)details["errors"]![0]!["line"]!);
    }

    [Fact]
    public async Task AnInternalTypeMovedToAnotherProjectBecomesInaccessible()
    {
        var (_, details) = await RefusedAsync(
            MovePlans.ToFile(moves, "src/Moves.Legacy/Text/Label.cs", "Style", "src/Moves.Core/Style.cs"),
            ErrorCode.BreaksAccessibility);
        Assert.Contains(details["errors"]!.AsArray(), e => (string?)e!["id"] == "CS0122");
    }

    [Fact]
    public async Task ATypeStillUsedCannotMoveToADependentProject()
    {
        var (_, details) = await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "src/Moves.Legacy/Circle.cs"), ErrorCode.CircularReference);
        Assert.Equal("Moves.Core", (string?)details["sourceProject"]);
        Assert.Equal("Moves.Legacy", (string?)details["targetProject"]);
    }

    [Fact]
    public async Task AMoveThatBreaksTheBuildIsRefused()
    {
        var (error, details) = await RefusedAsync(MovePlans.ToFile(moves, Shapes, "Circle", "src/Moves.Tools/Circle.cs"), ErrorCode.CompilationError);
        var errors = details["errors"]!.AsArray();
        Assert.InRange(errors.Count, 1, 20);
        Assert.Contains(errors, e => (string?)e!["file"] == moves.PathOf("src/Moves.Tools/Circle.cs") && ((string?)e["message"])!.Contains("IShape"));
        Assert.Contains((string)errors[0]!["id"]!, error.Message);
    }

    [Fact]
    public async Task PlanningWritesNothing()
    {
        var before = HashTree(moves.Root);
        await moves.PlanAsync(MovePlans.ToFile(moves, Shapes, "Square", "src/Moves.Core/Models/Square.cs"));
        await moves.PlanAsync(MovePlans.ToNamespace(moves, "src/Moves.Core/Models/Color.cs", "Color", "Moves.Core.Palette", updateFileLocation: true));
        await moves.ErrAsync(MovePlans.ToFile(moves, Shapes, "Circle", "src/Moves.Tools/Circle.cs"));
        Assert.Equal(before, HashTree(moves.Root));
    }

    /// <summary>Every file's path and content hash, outside build output.</summary>
    private static List<string> HashTree(string root) => Directory
        .EnumerateFiles(root, "*", SearchOption.AllDirectories)
        .Where(f => !f.Split(Path.DirectorySeparatorChar).Any(part => part is "obj" or "bin"))
        .Order(StringComparer.Ordinal)
        .Select(f => f + " " + Convert.ToHexStringLower(SHA256.HashData(File.ReadAllBytes(f))))
        .ToList();
}
