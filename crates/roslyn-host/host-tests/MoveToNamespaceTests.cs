using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>move_type_to_namespace plans on the Moves fixture (positions from its FIXTURE.md).</summary>
[Collection(MovesCollection.Name)]
public sealed class MoveToNamespaceTests(MovesSolution moves)
{
    private const string Program = "src/Moves.App/Program.cs";
    private const string Gallery = "src/Moves.App/Gallery.cs";
    private const string Shapes = "src/Moves.Core/Models/Shapes.cs";
    private const string Label = "src/Moves.Legacy/Text/Label.cs";
    private const string Canvas = "src/Moves.Legacy/Drawing/Canvas.cs";

    [Fact]
    public async Task TheOnlyTypeOfANamespaceRenamesItInPlace()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, "src/Moves.Core/Models/Color.cs", "Color", "Moves.Core.Palette"));

        Assert.Equal("Moves.Core.Palette.Color", plan.Symbol.FullyQualifiedName);
        Assert.Equal("Moves.Core.Models", plan.Symbol.PreviousNamespace);
        Assert.Equal(moves.At("src/Moves.Core/Models/Color.cs", 3, 13), plan.Symbol.NewLocation);
        Assert.Equal([moves.PathOf(Program), moves.PathOf("src/Moves.Core/Models/Color.cs")], plan.Edits.Select(e => e.Path));
        Assert.Equal(
            "namespace Moves.Core.Palette;\n\npublic enum Color\n{\n    Red,\n    Green,\n    Blue\n}\n",
            plan.Edit(moves, "src/Moves.Core/Models/Color.cs").NewText);
        // Program still uses Circle from Models.
        Assert.StartsWith(
            "using Moves.Core.Extensions;\nusing Moves.Core.Models;\nusing Moves.Core.Palette;\nusing Moves.Core.Services;\nusing Moves.App.Util;\n\nnamespace Moves.App;\n",
            plan.Edit(moves, Program).NewText);
        Assert.Equal(2u, plan.ReferencesUpdated);
        Assert.Equal(1u, plan.UsingsAdded);
        Assert.Equal(0u, plan.UsingsRemoved);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task ATypeSharingItsFileIsExtracted()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, Shapes, "Square", "Moves.Core.Shapes2"));

        var created = plan.Edit(moves, "src/Moves.Core/Models/Square.cs");
        Assert.Equal(EditKind.Create, created.Kind);
        Assert.StartsWith(
            "using System.Collections.Generic;\nusing Moves.Core.Models;\n\nnamespace Moves.Core.Shapes2;\n\npublic sealed class Square : IShape\n",
            created.NewText);
        var source = plan.Edit(moves, Shapes);
        Assert.StartsWith("using System;\n\nnamespace Moves.Core.Models;\n", source.NewText);
        Assert.DoesNotContain("Square", source.NewText);
        Assert.Contains("using Moves.Core.Shapes2;\n", plan.Edit(moves, Program).NewText);
        Assert.Contains("using Moves.Core.Shapes2;\n", plan.Edit(moves, Gallery).NewText);
        Assert.Equal(3u, plan.ReferencesUpdated);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task ANamespaceThatKeepsTypesKeepsItsUsings()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, Shapes, "Square", "Moves.Core.Shapes2"));

        // Circle and IShape stay in Moves.Core.Models, and Program and Gallery still use them.
        Assert.Contains("using Moves.Core.Models;\n", plan.Edit(moves, Program).NewText);
        Assert.Contains("using Moves.Core.Models;\n", plan.Edit(moves, Gallery).NewText);
        Assert.DoesNotContain(plan.Edits, e => e.Description.Contains("no longer exists", StringComparison.Ordinal));
        // Only Shapes.cs's System.Collections.Generic, which Square alone used.
        Assert.Equal(1u, plan.UsingsRemoved);
        Assert.StartsWith("using System;\n\nnamespace Moves.Core.Models;\n", plan.Edit(moves, Shapes).NewText);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task QualifiedReferencesGetTheNewQualifier()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, "src/Moves.Legacy/Text/Label.cs", "Label", "Moves.Legacy.Labels", updateFileLocation: true));

        var program = plan.Edit(moves, Program).NewText;
        Assert.Contains("        Moves.Legacy.Labels.Label label = new Moves.Legacy.Labels.Label { Text = \"hi\" };\n", program);
        Assert.DoesNotContain("using Moves.Legacy", program);
        var created = plan.Edit(moves, "src/Moves.Legacy/Labels/Label.cs");
        Assert.Equal(
            "using Moves.Legacy.Text;\n\nnamespace Moves.Legacy.Labels\n{\n    public class Label\n    {\n        internal Style Style { get; } = new Style();\n\n        public string Text { get; set; } = \"\";\n    }\n}\n",
            created.NewText);
        Assert.Equal(
            "namespace Moves.Legacy.Text\n{\n    internal sealed class Style\n    {\n        public int Size { get; set; } = 12;\n    }\n}\n",
            plan.Edit(moves, "src/Moves.Legacy/Text/Label.cs").NewText);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task ATypeNamingItsBlockScopedFileGetsANewNamespaceBlockThere()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, Label, "Label", "Moves.Legacy.Labels"));

        Assert.Equal([moves.PathOf(Program), moves.PathOf(Label)], plan.Edits.Select(e => e.Path));
        var source = plan.Edit(moves, Label);
        Assert.Equal(EditKind.Modify, source.Kind);
        Assert.Equal(
            "using Moves.Legacy.Text;\n\n"
            + "namespace Moves.Legacy.Text\n{\n    internal sealed class Style\n    {\n        public int Size { get; set; } = 12;\n    }\n}\n\n"
            + "namespace Moves.Legacy.Labels\n{\n    public class Label\n    {\n        internal Style Style { get; } = new Style();\n\n        public string Text { get; set; } = \"\";\n    }\n}\n",
            source.NewText);
        Assert.Contains("        Moves.Legacy.Labels.Label label = new Moves.Legacy.Labels.Label { Text = \"hi\" };\n", plan.Edit(moves, Program).NewText);
        Assert.Equal(moves.At(Label, 13, 18), plan.Symbol.NewLocation);
        Assert.Equal(2u, plan.ReferencesUpdated);
        Assert.Equal(1u, plan.UsingsAdded);
        Assert.Equal(0u, plan.UsingsRemoved);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task TheNewNamespaceBlockFollowsTheFileLayout()
    {
        var id = moves.Solution.GetDocumentIdsWithFilePath(moves.PathOf(Label)).Single();
        var solution = moves.Solution.WithDocumentText(id, SourceText.From(
            "namespace Moves.Legacy.Text {\r\n\t/// <summary>A label.</summary>\r\n\tpublic class Label\r\n\t{\r\n\t\tinternal Style Style { get; } = new Style();\r\n"
            + "\t\tpublic string Text { get; set; } = \"\";\r\n\t}\r\n\r\n\tinternal sealed class Style\r\n\t{\r\n\t}\r\n}"));

        var plan = await solution.PlanAsync(MovePlans.ToNamespace(moves, Label, "Label", "Moves.Legacy.Labels"));

        Assert.Equal(
            "using Moves.Legacy.Text;\r\n\r\nnamespace Moves.Legacy.Text {\r\n\tinternal sealed class Style\r\n\t{\r\n\t}\r\n}\r\n\r\n"
            + "namespace Moves.Legacy.Labels {\r\n\t/// <summary>A label.</summary>\r\n\tpublic class Label\r\n\t{\r\n\t\tinternal Style Style { get; } = new Style();\r\n"
            + "\t\tpublic string Text { get; set; } = \"\";\r\n\t}\r\n}",
            plan.Edit(moves, Label).NewText);
        await solution.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task ATypeNamingItsFileScopedFileGoesToTheNamespaceFolder()
    {
        var solution = WithCanvasAndBrush();

        var plan = await solution.PlanAsync(MovePlans.ToNamespace(moves, Canvas, "Canvas", "Moves.Legacy.Paint"));

        Assert.Equal(
            "using Moves.Legacy.Drawing;\n\nnamespace Moves.Legacy.Paint;\n\npublic class Canvas\n{\n    public Brush? Brush { get; set; }\n}\n",
            plan.Edit(moves, "src/Moves.Legacy/Paint/Canvas.cs").NewText);
        Assert.Equal("namespace Moves.Legacy.Drawing;\n\npublic class Brush\n{\n}\n", plan.Edit(moves, Canvas).NewText);
        Assert.Equal(1u, plan.UsingsAdded);
        await solution.AssertCompilesAsync(plan);

        // When that file exists too, the move is refused.
        var legacy = solution.Projects.Single(p => p.Name == "Moves.Legacy");
        var taken = legacy.AddDocument(
            "Canvas.cs",
            SourceText.From("namespace Moves.Legacy.Paint;\n\ninternal static class Palette\n{\n}\n"),
            ["Paint"],
            moves.PathOf("src/Moves.Legacy/Paint/Canvas.cs")).Project.Solution;
        var refused = await Assert.ThrowsAsync<HostErrorException>(() => taken.PlanAsync(MovePlans.ToNamespace(moves, Canvas, "Canvas", "Moves.Legacy.Paint")));
        Assert.Equal(ErrorCode.NameCollision, refused.Error.Code);
        Assert.Contains(refused.Error.Suggestions, s => s.Contains("move_type_to_file", StringComparison.Ordinal));
    }

    /// <summary>The fixture with file-scoped Canvas.cs also holding a Brush that Canvas uses.</summary>
    private Solution WithCanvasAndBrush()
    {
        var id = moves.Solution.GetDocumentIdsWithFilePath(moves.PathOf(Canvas)).Single();
        return moves.Solution.WithDocumentText(
            id,
            SourceText.From("namespace Moves.Legacy.Drawing;\n\npublic class Canvas\n{\n    public Brush? Brush { get; set; }\n}\n\npublic class Brush\n{\n}\n"));
    }

    [Fact]
    public async Task ExtensionMethodCallersImportTheNewNamespace()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, "src/Moves.Core/Extensions/ShapeExtensions.cs", "ShapeExtensions", "Moves.Core.Describing"));

        Assert.StartsWith(
            "using Moves.Core.Describing;\nusing Moves.Core.Models;\nusing Moves.Core.Services;\nusing Moves.App.Util;\n\n",
            plan.Edit(moves, Program).NewText);
        Assert.Equal(
            "using Moves.Core.Models;\n\nnamespace Moves.Core.Describing;\n\npublic static class ShapeExtensions\n{\n    public static string Describe(this IShape shape) => shape.GetType().Name + \" with area \" + shape.Area();\n}\n",
            plan.Edit(moves, "src/Moves.Core/Extensions/ShapeExtensions.cs").NewText);
        Assert.Equal(1u, plan.ReferencesUpdated);
        Assert.Equal(1u, plan.UsingsAdded);
        Assert.Equal(1u, plan.UsingsRemoved);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task UsingStaticIsRewritten()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, "src/Moves.Core/Models/Geometry.cs", "Geometry", "Moves.Core.Measures"));

        Assert.StartsWith(
            "using ShapeAlias = Moves.Core.Models.IShape;\nusing static Moves.Core.Measures.Geometry;\n",
            plan.Edit(moves, "src/Moves.App/Aliases.cs").NewText);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task UsingAliasIsRewrittenAndUsersImport()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, Shapes, "IShape", "Moves.Core.Abstractions"));

        Assert.StartsWith(
            "using ShapeAlias = Moves.Core.Abstractions.IShape;\nusing static Moves.Core.Models.Geometry;\n",
            plan.Edit(moves, "src/Moves.App/Aliases.cs").NewText);
        Assert.StartsWith(
            "namespace Moves.Core.Abstractions;\n\npublic interface IShape\n{\n    double Area();\n}\n",
            plan.Edit(moves, "src/Moves.Core/Models/IShape.cs").NewText);
        // Circle and Square, left in Shapes.cs, now import it.
        Assert.StartsWith("using System;\nusing System.Collections.Generic;\nusing Moves.Core.Abstractions;\n\n", plan.Edit(moves, Shapes).NewText);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task AnAmbiguousImportFallsBackToQualifiedNames()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, Shapes, "Square", "Moves.Legacy.Drawing"));

        var gallery = plan.Edit(moves, Gallery).NewText;
        Assert.Contains("new Circle(1), new Moves.Legacy.Drawing.Square(2)", gallery);
        Assert.DoesNotContain("using Moves.Legacy.Drawing;", gallery);
        var program = plan.Edit(moves, Program).NewText;
        Assert.Contains("        Moves.Legacy.Drawing.Square square = new Moves.Legacy.Drawing.Square(3);\n", program);
        Assert.DoesNotContain("using Moves.Legacy.Drawing;", program);
        Assert.Equal(2u, plan.UsingsAdded);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task UpdateFileLocationMovesTheFileToTheNamespaceFolder()
    {
        var plan = await moves.PlanAsync(MovePlans.ToNamespace(moves, "src/Moves.Core/Models/Color.cs", "Color", "Moves.Core.Palette", updateFileLocation: true));

        Assert.Equal(EditKind.Delete, plan.Edit(moves, "src/Moves.Core/Models/Color.cs").Kind);
        var created = plan.Edit(moves, "src/Moves.Core/Palette/Color.cs");
        Assert.Equal(EditKind.Create, created.Kind);
        Assert.StartsWith("namespace Moves.Core.Palette;\n", created.NewText);
        Assert.Equal(moves.At("src/Moves.Core/Palette/Color.cs", 3, 13), plan.Symbol.NewLocation);
        await moves.AssertCompilesAsync(plan);
    }
}
