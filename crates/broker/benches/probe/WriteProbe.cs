// The writes' baseline: a project loaded and compiled as the service's warm-up does, then Roslyn's Renamer of
// the symbol at a position and Formatter of a file, each run once per target framework (one Project per target
// framework, as MSBuildWorkspace loads a multi-targeted project): the first run in the process, then the median
// of warm ones. Prints one JSON line.

using System.Diagnostics;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Rename;
using Microsoft.CodeAnalysis.Text;

internal static class WriteProbe
{
    public static async Task RunAsync(string projectPath, string file, int line, int column, string newName, string formatFile, int warmCalls)
    {
        var clock = Stopwatch.StartNew();
        using var workspace = MSBuildWorkspace.Create();
        await workspace.OpenProjectAsync(projectPath);
        var solution = workspace.CurrentSolution;
        var loadMs = clock.Elapsed.TotalMilliseconds;
        foreach (var project in solution.Projects)
        {
            (await project.GetCompilationAsync())?.GetDiagnostics();
        }

        var renamed = Documents(solution, file);
        var text = await renamed[0].GetTextAsync();
        var position = text.Lines.GetPosition(new LinePosition(line - 1, column - 1));
        var rename = await TimedAsync(warmCalls, async round =>
        {
            foreach (var document in renamed)
            {
                var symbol = await SymbolFinder.FindSymbolAtPositionAsync(document, position);
                await Renamer.RenameSymbolAsync(solution, symbol!, new SymbolRenameOptions(), newName + round);
            }
        });
        var formatted = Documents(solution, formatFile);
        var format = await TimedAsync(warmCalls, async _ =>
        {
            foreach (var document in formatted)
            {
                await Formatter.FormatAsync(document);
            }
        });

        Console.WriteLine(JsonSerializer.Serialize(new
        {
            loadMs,
            frameworks = renamed.Count,
            renameFirstMs = rename.First,
            renameWarmMs = rename.Warm,
            formatFirstMs = format.First,
            formatWarmMs = format.Warm,
        }));
    }

    /// <summary>Every project's document of the file: one per target framework.</summary>
    private static List<Document> Documents(Solution solution, string file) =>
        [.. solution.GetDocumentIdsWithFilePath(Path.GetFullPath(file)).Select(id => solution.GetDocument(id)!)];

    /// <summary>The first run's milliseconds and the median of <paramref name="warmCalls"/> more.</summary>
    private static async Task<(double First, double Warm)> TimedAsync(int warmCalls, Func<int, Task> work)
    {
        var clock = Stopwatch.StartNew();
        await work(0);
        var first = clock.Elapsed.TotalMilliseconds;
        var warm = new List<double>();
        for (var round = 1; round <= warmCalls; round++)
        {
            clock.Restart();
            await work(round);
            warm.Add(clock.Elapsed.TotalMilliseconds);
        }
        warm.Sort();
        return (first, warm.Count == 0 ? double.NaN : warm[warm.Count / 2]);
    }
}
