using System.Globalization;
using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;
using ProtocolDiagnostic = RoslynMcp.Host.Protocol.Diagnostic;
using RoslynDiagnostic = Microsoft.CodeAnalysis.Diagnostic;

namespace RoslynMcp.Host.Features.Diagnostics;

public static class DiagnosticsHandler
{
    public static async Task<DiagnosticList> HandleAsync(Solution solution, DiagnosticsRequest request, CancellationToken cancellationToken)
    {
        var found = new List<ProtocolDiagnostic>();
        if (request.File is { } file)
        {
            PositionResolver.FindDocument(solution, file);
            // Every project compiling the file (one per target framework) may see it differently.
            var path = Path.GetFullPath(file);
            foreach (var document in solution.GetDocumentIdsWithFilePath(path).Select(solution.GetDocument).OfType<Document>())
            {
                var model = await document.GetSemanticModelAsync(cancellationToken);
                if (model is not null)
                {
                    var diagnostics = await Suppressions.ApplyAsync(document.Project, model.Compilation, model.GetDiagnostics(cancellationToken: cancellationToken), request.MinSeverity, cancellationToken);
                    Collect(found, diagnostics, document.Project, request.MinSeverity, null);
                }
                if (request.IncludeAnalyzers)
                {
                    var analyzed = await AnalyzerDiagnostics.OfDocumentAsync(document, null, null, cancellationToken, request.MinSeverity);
                    Collect(found, analyzed, document.Project, request.MinSeverity, AnalyzerDiagnostics.SourcesOf(document.Project));
                }
            }
        }
        else
        {
            var projects = request.Project is { } wanted ? ProjectLookup.Find(solution, wanted) : solution.Projects;
            foreach (var project in projects)
            {
                var compilation = await project.GetCompilationAsync(cancellationToken);
                if (compilation is not null)
                {
                    var diagnostics = await Suppressions.ApplyAsync(project, compilation, CompilerDiagnostics.Of(project, compilation, cancellationToken), request.MinSeverity, cancellationToken);
                    Collect(found, diagnostics, project, request.MinSeverity, null);
                }
                if (request.IncludeAnalyzers)
                {
                    var analyzed = await AnalyzerDiagnostics.OfProjectAsync(project, null, cancellationToken, request.MinSeverity);
                    Collect(found, analyzed, project, request.MinSeverity, AnalyzerDiagnostics.SourcesOf(project));
                }
            }
        }

        var sorted = found
            .DistinctBy(d => (d.Id, d.Severity, d.Message, d.Location))
            .OrderBy(d => d.Location is not null)
            .ThenBy(d => d.Location?.File, StringComparer.Ordinal)
            .ThenBy(d => d.Location?.StartLine)
            .ThenBy(d => d.Location?.StartColumn)
            .ThenBy(d => d.Id, StringComparer.Ordinal)
            .ThenBy(d => d.Location?.EndLine)
            .ThenBy(d => d.Location?.EndColumn)
            .ThenBy(d => d.Message, StringComparer.Ordinal);
        return new DiagnosticList(sorted.ToValueList());
    }

    /// <summary>Adds the diagnostics at or above <paramref name="minimum"/>; <paramref name="sources"/> names the
    /// analyzer assembly of each id, null for the compiler's.</summary>
    private static void Collect(
        List<ProtocolDiagnostic> found,
        IEnumerable<RoslynDiagnostic> diagnostics,
        Project project,
        Severity minimum,
        Dictionary<string, string>? sources)
    {
        foreach (var diagnostic in diagnostics)
        {
            var severity = DiagnosticFormat.SeverityOf(diagnostic.Severity);
            if (diagnostic.IsSuppressed || severity < minimum)
            {
                continue;
            }
            found.Add(new ProtocolDiagnostic(
                diagnostic.Id,
                severity,
                diagnostic.GetMessage(CultureInfo.InvariantCulture),
                project.Name,
                project.FilePath ?? "",
                diagnostic.Location.IsInSource ? SymbolFormat.ToSpan(diagnostic.Location) : null,
                sources is null ? DiagnosticFormat.CompilerSource : sources.GetValueOrDefault(diagnostic.Id, "analyzer")));
        }
    }
}
