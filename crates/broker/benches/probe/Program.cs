// Probe: load a solution with MSBuildWorkspace, then time what the service's first answer needs, in process:
// compiling every project as a build would, the first FindReferencesAsync of the symbol at a position, and
// warm ones. Prints one JSON line.
//
// dotnet run -c Release -- <solution> <file> <line> <column> <warm calls>
// dotnet run -c Release -- writes <project> <file> <line> <column> <new name> <format file> <warm calls>
//   (WriteProbe.cs: Roslyn's Renamer, Formatter and analyzer driver once per target framework, as the
//   service's writes and analyzer diagnostics need)
// dotnet run -c Release -- rename <solution> <file> <line> <column> <new name> <warm calls>
//   (RenameProbe.cs: Roslyn's Renamer across a whole solution, once per target framework)
// dotnet run -c Release -- decompile <assembly> <type metadata name> <warm calls>
//   (DecompileProbe.cs: ICSharpCode.Decompiler alone on one type)
// dotnet run -c Release -- references <solution> <positions file>
//   (ReferencesProbe.cs: SymbolFinder's references of the symbol at each position, for `cargo xtask stats`)

using System.Diagnostics;
using System.Text.Json;
using Microsoft.Build.Locator;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Text;

MSBuildLocator.RegisterDefaults();
if (args[0] == "decompile")
{
    DecompileProbe.Run(args[1], args[2], int.Parse(args[3]));
}
else if (args[0] == "references")
{
    await ReferencesProbe.RunAsync(args[1], args[2], args.Length > 3 ? args[3] : null);
}
else if (args[0] == "rename")
{
    await RenameProbe.RunAsync(args[1], args[2], int.Parse(args[3]), int.Parse(args[4]), args[5], int.Parse(args[6]));
}
else if (args[0] == "writes")
{
    await WriteProbe.RunAsync(args[1], args[2], int.Parse(args[3]), int.Parse(args[4]), args[5], args[6], int.Parse(args[7]));
}
else
{
    await Probe.RunAsync(args[0], args[1], int.Parse(args[2]), int.Parse(args[3]), int.Parse(args[4]));
}

internal static class Probe
{
    public static async Task RunAsync(string solutionPath, string file, int line, int column, int warmCalls)
    {
        var clock = Stopwatch.StartNew();
        using var workspace = MSBuildWorkspace.Create();
        var solution = await workspace.OpenSolutionAsync(solutionPath);
        var loadMs = clock.Elapsed.TotalMilliseconds;

        clock.Restart();
        foreach (var project in solution.Projects)
        {
            (await project.GetCompilationAsync())?.GetDiagnostics();
        }
        var compileMs = clock.Elapsed.TotalMilliseconds;

        // The document of the project first in ordinal order (`Lib(net10.0)` of a multi-targeted one), as the service
        // picks it.
        var document = solution.GetDocumentIdsWithFilePath(Path.GetFullPath(file))
            .Select(id => solution.GetDocument(id)!)
            .OrderBy(d => d.Project.Name, StringComparer.Ordinal)
            .First();
        var text = await document.GetTextAsync();
        var position = text.Lines.GetPosition(new LinePosition(line - 1, column - 1));
        clock.Restart();
        var firstCount = await ReferencesAsync(solution, document, position);
        var firstMs = clock.Elapsed.TotalMilliseconds;

        var warm = new List<double>();
        for (var i = 0; i < warmCalls; i++)
        {
            clock.Restart();
            await ReferencesAsync(solution, document, position);
            warm.Add(clock.Elapsed.TotalMilliseconds);
        }
        warm.Sort();
        Console.WriteLine(JsonSerializer.Serialize(new
        {
            loadMs,
            compileMs,
            firstReferencesMs = firstMs,
            warmReferencesP50Ms = warm.Count == 0 ? 0 : warm[warm.Count / 2],
            locations = firstCount,
            // Resident memory with the solution loaded, compiled and searched, as the service's host holds it.
            workingSetBytes = Environment.WorkingSet,
        }));
    }

    private static async Task<int> ReferencesAsync(Solution solution, Document document, int position)
    {
        var symbol = await SymbolFinder.FindSymbolAtPositionAsync(document, position);
        var found = await SymbolFinder.FindReferencesAsync(symbol!, solution);
        return found.Sum(r => r.Locations.Count());
    }
}
