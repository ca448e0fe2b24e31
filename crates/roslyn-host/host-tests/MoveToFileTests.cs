using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>move_type_to_file plans on the Moves fixture (positions from its FIXTURE.md).</summary>
[Collection(MovesCollection.Name)]
public sealed class MoveToFileTests(MovesSolution moves)
{
    private const string Shapes = "src/Moves.Core/Models/Shapes.cs";

    [Fact]
    public async Task SquareMovesToANewFileWithTheUsingsItNeeds()
    {
        var plan = await moves.PlanAsync(MovePlans.ToFile(moves, Shapes, "Square", "src/Moves.Core/Models/Square.cs"));

        Assert.Equal(
            new MovedSymbol(
                "Square",
                "Class",
                "Moves.Core.Models.Square",
                "Moves.Core.Models.Square",
                "Moves.Core.Models",
                "Moves.Core.Models",
                moves.At(Shapes, 25, 21),
                moves.At("src/Moves.Core/Models/Square.cs", 5, 21)),
            plan.Symbol);
        Assert.Equal([moves.PathOf(Shapes), moves.PathOf("src/Moves.Core/Models/Square.cs")], plan.Edits.Select(e => e.Path));

        var source = plan.Edit(moves, Shapes);
        Assert.Equal(EditKind.Modify, source.Kind);
        Assert.StartsWith("using System;\n\nnamespace Moves.Core.Models;\n\npublic interface IShape\n", source.NewText);
        Assert.EndsWith("    public double Area() => Math.PI * Radius * Radius;\n}\n", source.NewText);
        Assert.DoesNotContain("Square", source.NewText);

        var target = plan.Edit(moves, "src/Moves.Core/Models/Square.cs");
        Assert.Equal(EditKind.Create, target.Kind);
        Assert.Equal(
            """
            using System.Collections.Generic;

            namespace Moves.Core.Models;

            public sealed class Square : IShape
            {
                public Square(double side)
                {
                    Side = side;
                }

                public double Side { get; }

                public double Area() => Side * Side;

                public IReadOnlyList<double> Sides() => new List<double> { Side, Side, Side, Side };
            }

            """.ReplaceLineEndings("\n"),
            target.NewText);
        Assert.Equal(0u, plan.ReferencesUpdated);
        Assert.Equal(1u, plan.UsingsAdded);
        Assert.Equal(1u, plan.UsingsRemoved);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task CircleTakesItsDocCommentAndAttribute()
    {
        var plan = await moves.PlanAsync(MovePlans.ToFile(moves, Shapes, "Moves.Core.Models.Circle", "src/Moves.Core/Models/Circle.cs"));

        var target = plan.Edit(moves, "src/Moves.Core/Models/Circle.cs");
        Assert.StartsWith(
            "using System;\n\nnamespace Moves.Core.Models;\n\n/// <summary>A circle of a given radius.</summary>\n[Serializable]\npublic sealed class Circle : IShape\n",
            target.NewText);
        var source = plan.Edit(moves, Shapes);
        Assert.DoesNotContain("circle of a given radius", source.NewText);
        Assert.DoesNotContain("[Serializable]", source.NewText);
        // Square needs Generic and nothing of System; only the type between IShape and Square left, one blank line.
        Assert.StartsWith("using System.Collections.Generic;\n\nnamespace Moves.Core.Models;\n", source.NewText);
        Assert.Contains("    double Area();\n}\n\npublic sealed class Square : IShape\n", source.NewText);
        Assert.Equal(new Position(moves.PathOf("src/Moves.Core/Models/Circle.cs"), 7, 21), plan.Symbol.NewLocation);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task TheOnlyTypeOfAFileLeavesItDeleted()
    {
        var plan = await moves.PlanAsync(MovePlans.ToFile(moves, "src/Moves.Core/Models/Color.cs", "Color", "src/Moves.Core/Models/Palette.cs"));

        var source = plan.Edit(moves, "src/Moves.Core/Models/Color.cs");
        Assert.Equal(EditKind.Delete, source.Kind);
        Assert.Equal("", source.NewText);
        Assert.Equal(
            "namespace Moves.Core.Models;\n\npublic enum Color\n{\n    Red,\n    Green,\n    Blue\n}\n",
            plan.Edit(moves, "src/Moves.Core/Models/Palette.cs").NewText);
        Assert.Equal("Enum", plan.Symbol.Kind);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task BlockScopedTypeJoinsAnExistingFileScopedFile()
    {
        var plan = await moves.PlanAsync(MovePlans.ToFile(moves, "src/Moves.Legacy/Drawing/Sketch.cs", "Sketch", "src/Moves.Legacy/Drawing/Canvas.cs"));

        var canvas = plan.Edit(moves, "src/Moves.Legacy/Drawing/Canvas.cs");
        Assert.Equal(EditKind.Modify, canvas.Kind);
        Assert.Equal(
            "namespace Moves.Legacy.Drawing;\n\npublic class Canvas\n{\n}\n\npublic class Sketch\n{\n    public Circle? Outline { get; set; }\n}\n",
            canvas.NewText);
        Assert.Equal(
            "namespace Moves.Legacy.Drawing\n{\n    public class Circle\n    {\n    }\n}\n",
            plan.Edit(moves, "src/Moves.Legacy/Drawing/Sketch.cs").NewText);
        Assert.Equal(new Position(moves.PathOf("src/Moves.Legacy/Drawing/Canvas.cs"), 7, 14), plan.Symbol.NewLocation);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task BlockScopedTypeMovesToANewFileInTheSameStyle()
    {
        var plan = await moves.PlanAsync(MovePlans.ToFile(moves, "src/Moves.Legacy/Drawing/Sketch.cs", "Sketch", "src/Moves.Legacy/Drawing/Sketches/Sketch.cs"));

        Assert.Equal(
            "namespace Moves.Legacy.Drawing\n{\n    public class Sketch\n    {\n        public Circle? Outline { get; set; }\n    }\n}\n",
            plan.Edit(moves, "src/Moves.Legacy/Drawing/Sketches/Sketch.cs").NewText);
        await moves.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task OnePartOfAPartialTypeMoves()
    {
        var plan = await moves.PlanAsync(MovePlans.ToFile(moves, "src/Moves.Core/Models/Widget.cs", "Widget", "src/Moves.Core/Models/WidgetName.cs"));

        Assert.Equal(EditKind.Delete, plan.Edit(moves, "src/Moves.Core/Models/Widget.cs").Kind);
        var target = plan.Edit(moves, "src/Moves.Core/Models/WidgetName.cs");
        Assert.Contains("partial", target.Description);
        Assert.Contains("public string Name { get; set; }", target.NewText);
        await moves.AssertCompilesAsync(plan);
    }
}
