// The writes' baseline: a project loaded and compiled as the service's warm-up does, then Roslyn's Renamer of
// the symbol at a position and Formatter of a file, and its analyzer driver over the project (the project's own
// analyzers and Roslyn's IDE analyzers, every one of them), each run once per target framework (one Project per
// target framework, as MSBuildWorkspace loads a multi-targeted project): the first run in the process, then the
// median of warm ones. Prints one JSON line.

using System.Collections.Immutable;
using System.Diagnostics;
using System.Reflection;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
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
        var rename = await RenamesAsync(solution, renamed, line, column, newName, warmCalls);
        var formatted = Documents(solution, formatFile);
        var format = await TimedAsync(warmCalls, async _ =>
        {
            foreach (var document in formatted)
            {
                await Formatter.FormatAsync(document);
            }
        });
        var ide = IdeAnalyzers();
        var analyzed = 0;
        var analyzers = await TimedAsync(warmCalls, async _ =>
        {
            analyzed = 0;
            foreach (var project in solution.Projects)
            {
                var all = project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language)).Concat(ide).ToImmutableArray();
                var options = new CompilationWithAnalyzersOptions(project.AnalyzerOptions, null, concurrentAnalysis: true, logAnalyzerExecutionTime: false);
                var compilation = (await project.GetCompilationAsync())!;
                analyzed += (await compilation.WithAnalyzers(all, options).GetAnalyzerDiagnosticsAsync()).Length;
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
            analyzersFirstMs = analyzers.First,
            analyzersWarmMs = analyzers.Warm,
            analyzerDiagnostics = analyzed,
        }));
    }

    /// <summary>Renamer's rename of the symbol at (line, column) of each of <paramref name="documents"/> (one per
    /// target framework), first and warm.</summary>
    internal static async Task<(double First, double Warm)> RenamesAsync(
        Solution solution, List<Document> documents, int line, int column, string newName, int warmCalls)
    {
        var text = await documents[0].GetTextAsync();
        var position = text.Lines.GetPosition(new LinePosition(line - 1, column - 1));
        return await TimedAsync(warmCalls, async round =>
        {
            foreach (var document in documents)
            {
                var symbol = await SymbolFinder.FindSymbolAtPositionAsync(document, position);
                await Renamer.RenameSymbolAsync(solution, symbol!, new SymbolRenameOptions(), newName + round);
            }
        });
    }

    /// <summary>Roslyn's IDE analyzers for C#: every type of the Features assemblies exported as one.</summary>
    private static ImmutableArray<DiagnosticAnalyzer> IdeAnalyzers() =>
    [
        .. new[] { "Microsoft.CodeAnalysis.Features", "Microsoft.CodeAnalysis.CSharp.Features" }
            .Select(Assembly.Load)
            .SelectMany(a => a.GetTypes())
            .Where(t => !t.IsAbstract && !t.IsGenericTypeDefinition && typeof(DiagnosticAnalyzer).IsAssignableFrom(t)
                && t.GetCustomAttributes<DiagnosticAnalyzerAttribute>(inherit: false).Any(e => e.Languages.Contains(LanguageNames.CSharp)))
            .Select(Created)
            .OfType<DiagnosticAnalyzer>(),
    ];

    /// <summary>An analyzer, or null for one that needs the IDE's services (the host leaves those out too).</summary>
    private static DiagnosticAnalyzer? Created(Type type)
    {
        try
        {
            return (DiagnosticAnalyzer)Activator.CreateInstance(type, nonPublic: true)!;
        }
        catch (Exception e) when (e is MissingMethodException or TargetInvocationException or TypeLoadException or FileNotFoundException)
        {
            return null;
        }
    }

    /// <summary>Every project's document of the file: one per target framework.</summary>
    internal static List<Document> Documents(Solution solution, string file) =>
        [.. solution.GetDocumentIdsWithFilePath(Path.GetFullPath(file)).Select(id => solution.GetDocument(id)!)];

    /// <summary>The first run's milliseconds and the median of <paramref name="warmCalls"/> more.</summary>
    internal static async Task<(double First, double Warm)> TimedAsync(int warmCalls, Func<int, Task> work)
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
