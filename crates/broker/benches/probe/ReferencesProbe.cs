using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics;

/// <summary>
/// The references Roslyn's SymbolFinder finds for the symbol at each position of a file of lines
/// <c>path\tline\tcolumn</c> (1-based, UTF-16 columns), in every project the file belongs to (each target
/// framework): one JSON object per position, each distinct <c>path:line:column</c> place (declarations and
/// implicit places left out; each once, as the service answers it: under the project first in ordinal order, a
/// generated document's place by that project's virtual path) with the symbol it was found under, written as the
/// service writes names. A file of
/// lines <c>assembly\tbuilt</c> gives the service's builds of generators a fresh clone has not built: the
/// solution uses them where its projects name the assembly, as the service's does.
/// </summary>
internal static class ReferencesProbe
{
    public static async Task RunAsync(string solutionPath, string positionsFile, string? generatorsFile = null)
    {
        using var workspace = MSBuildWorkspace.Create();
        var solution = solutionPath.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase)
            ? (await workspace.OpenProjectAsync(solutionPath)).Solution
            : await workspace.OpenSolutionAsync(solutionPath);
        if (generatorsFile is not null)
        {
            solution = WithBuilds(solution, File.ReadLines(generatorsFile).Select(l => l.Split('\t')).ToDictionary(p => p[0], p => p[1]));
        }
        // Places in generated documents are named by the service's virtual paths, not Roslyn's `obj/...` ones.
        RoslynMcp.Host.Semantics.Sources.GeneratedDocuments.Answering(solution);
        var answers = new List<SortedDictionary<string, string>>();
        foreach (var line in File.ReadLines(positionsFile))
        {
            var parts = line.Split('\t');
            answers.Add(await PlacesAsync(solution, parts[0], int.Parse(parts[1]), int.Parse(parts[2])));
        }
        Console.WriteLine(JsonSerializer.Serialize(answers));
    }

    private static Solution WithBuilds(Solution solution, Dictionary<string, string> builds)
    {
        var loaded = builds.ToDictionary(b => b.Key, b => (Microsoft.CodeAnalysis.Diagnostics.AnalyzerReference)new Microsoft.CodeAnalysis.Diagnostics.AnalyzerFileReference(
            b.Value, new RoslynMcp.Host.Workspace.StagedAnalyzerLoader(Path.GetDirectoryName(b.Value)!)));
        foreach (var project in solution.Projects)
        {
            var references = project.AnalyzerReferences
                .Select(r => r.FullPath is { } path && loaded.TryGetValue(path, out var built) ? built : r)
                .ToList();
            solution = solution.WithProjectAnalyzerReferences(project.Id, references);
        }
        return solution;
    }

    private static async Task<SortedDictionary<string, string>> PlacesAsync(Solution solution, string file, int line, int column)
    {
        // Each place once, as the service answers it: a file every target framework compiles (a generated one
        // included, whose path Roslyn gives each framework alike) under the project first in ordinal order.
        var places = new Dictionary<string, (string Project, string Place, string Symbol)>(StringComparer.Ordinal);
        foreach (var id in solution.GetDocumentIdsWithFilePath(file))
        {
            var document = solution.GetDocument(id)!;
            var text = await document.GetTextAsync();
            var position = text.Lines.GetPosition(new LinePosition(line - 1, column - 1));
            if (await SymbolFinder.FindSymbolAtPositionAsync(document, position) is not { } symbol)
            {
                continue;
            }
            foreach (var referenced in await SymbolFinder.FindReferencesAsync(symbol, solution))
            {
                foreach (var location in referenced.Locations.Where(l => !l.IsImplicit))
                {
                    var span = location.Location.GetLineSpan();
                    var at = $":{span.StartLinePosition.Line + 1}:{span.StartLinePosition.Character + 1}";
                    var project = location.Document.Project.Name;
                    if (places.TryGetValue(span.Path + at, out var kept) && string.CompareOrdinal(kept.Project, project) <= 0)
                    {
                        continue;
                    }
                    var path = RoslynMcp.Host.Semantics.Sources.GeneratedDocuments.PathOf(location.Location.SourceTree, span.Path);
                    places[span.Path + at] = (project, path + at, referenced.Definition.OriginalDefinition.ToDisplayString(SymbolFormat.Display));
                }
            }
        }
        var answer = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var (_, place, symbol) in places.Values)
        {
            answer.TryAdd(place, symbol);
        }
        return answer;
    }
}
