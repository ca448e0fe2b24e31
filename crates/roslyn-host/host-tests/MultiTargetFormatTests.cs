using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Features.Format;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// Formatting a file of a project built for net10.0 and net9.0: code under <c>#if NET9_0</c> (disabled text for
/// net10.0) is formatted too; a file without an <c>#if</c> is one tree for both frameworks and formatted once.
/// </summary>
public sealed class MultiTargetFormatTests
{
    [Fact]
    public async Task BothBranchesOfAnIfAreFormattedAndAFileWithoutOneOnce()
    {
        var scope = new MultiTargetProject();
        await scope.InitializeAsync();
        try
        {
            var solution = scope.Solution;
            var framed = Documents(solution, scope.PathOf("Framed.cs"));
            var shapes = Documents(solution, scope.PathOf("Shapes.cs"));
            Assert.Equal(2, framed.Count);
            Assert.Equal(2, (await PreprocessorViews.DistinctAsync(framed, CancellationToken.None)).Count);
            Assert.Single(await PreprocessorViews.DistinctAsync(shapes, CancellationToken.None));

            var text = (await framed[0].GetTextAsync()).ToString()
                .Replace("Legacy() => new", "Legacy()  =>   new", StringComparison.Ordinal)
                .Replace("Modern() => 10", "Modern()=>10", StringComparison.Ordinal);
            var bad = SourceText.From(text);
            foreach (var document in framed)
            {
                solution = solution.WithDocumentText(document.Id, bad);
            }
            var (formatted, places) = await FormattedFile.FormatAsync(Documents(solution, scope.PathOf("Framed.cs")), null, CancellationToken.None);
            var result = formatted.ToString();
            Assert.Contains("    public static Circle Legacy() => new Circle { Radius = 9 };\n", result);
            Assert.Contains("    public static double Modern() => 10;\n", result);
            Assert.Equal(2, places);
        }
        finally
        {
            await scope.DisposeAsync();
        }
    }

    private static List<Document> Documents(Solution solution, string path) =>
        [.. solution.GetDocumentIdsWithFilePath(path).Select(solution.GetDocument).OfType<Document>()];
}
