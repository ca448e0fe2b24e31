using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;
using static RoslynMcp.Host.Tests.RenamePlans;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// A rename in a project built for net10.0 and net9.0: code under <c>#if NET9_0</c> is renamed too, and each
/// place of the shared files is edited once.
/// </summary>
public sealed class MultiTargetRenameTests(ITestOutputHelper output)
{
    [Fact]
    public async Task CircleIsRenamedForEveryTargetFrameworkOnce()
    {
        var scope = new MultiTargetProject();
        await scope.InitializeAsync();
        try
        {
            var plan = await scope.RenamePlanAsync(Rename(scope, "Framed.cs", 5, 33, "Disc"));
            output.WriteLine(Dump(plan));

            Assert.Equal([scope.PathOf("Drawing.cs"), scope.PathOf("Framed.cs"), scope.PathOf("Shapes.cs")], plan.Edits.Select(e => e.Path));
            var framed = plan.Edit(scope, "Framed.cs").NewText;
            Assert.Contains("    public static Disc Legacy() => new Disc { Radius = 9 };\n", framed);
            Assert.Contains("    public static double Border(Disc shape) => shape.Radius + 1;\n", framed);
            Assert.DoesNotContain("Circle", framed);
            Assert.DoesNotContain("DiscDisc", framed);
            Assert.Equal(4, plan.Edit(scope, "Drawing.cs").NewText.Split("Disc").Length - 1);
            Assert.DoesNotContain("Circle", plan.Edit(scope, "Drawing.cs").NewText);
            Assert.Contains("public class Disc\n", plan.Edit(scope, "Shapes.cs").NewText);
            // Declaration, four uses in Drawing.cs, one in Framed.cs for both frameworks and two for net9.0 only.
            Assert.Equal(8u, plan.References);
            Assert.Equal(8u, plan.TotalEdits);
            await scope.Solution.AssertCompilesAsync(plan.Edits);
        }
        finally
        {
            await scope.DisposeAsync();
        }
    }
}
