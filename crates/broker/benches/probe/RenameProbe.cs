// The baseline of a rename across a solution: the solution loaded and every project compiled as the service's
// warm-up does, then Roslyn's Renamer of the symbol at a position once per target framework, the first run in the
// process and the median of warm ones. Prints one JSON line.

using System.Diagnostics;
using System.Text.Json;
using Microsoft.CodeAnalysis.MSBuild;

internal static class RenameProbe
{
    public static async Task RunAsync(string solutionPath, string file, int line, int column, string newName, int warmCalls)
    {
        var clock = Stopwatch.StartNew();
        using var workspace = MSBuildWorkspace.Create();
        var solution = await workspace.OpenSolutionAsync(solutionPath);
        var loadMs = clock.Elapsed.TotalMilliseconds;
        foreach (var project in solution.Projects)
        {
            (await project.GetCompilationAsync())?.GetDiagnostics();
        }

        var renamed = WriteProbe.Documents(solution, file);
        var rename = await WriteProbe.RenamesAsync(solution, renamed, line, column, newName, warmCalls);
        Console.WriteLine(JsonSerializer.Serialize(new
        {
            loadMs,
            frameworks = renamed.Count,
            renameFirstMs = rename.First,
            renameWarmMs = rename.Warm,
        }));
    }
}
