using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Rename;
using Microsoft.CodeAnalysis.Text;

namespace RoslynMcp.Host.Workspace;

/// <summary>
/// What the first write after a load runs, run once on a class of the rehearsal's own: a process's first
/// compile, reference search, rename and format run their code for the first time (a rename of 94 places on
/// Markdig took 6.9 s for its first framework and 1.8 s after), so a spare host pays that while idle.
/// </summary>
internal static class WorkRehearsal
{
    private const string Code = """
        using System;
        using System.Collections.Generic;

        namespace Rehearsal;

        public interface IShape { double Area(); }

        public sealed class Square(double side) : IShape
        {
            public double Area() => side * side;
        }

        public static class Shapes
        {
            public static double Total(IEnumerable<IShape> shapes)
            {
                var total = 0.0;
                foreach (var shape in shapes) { total += shape.Area(); }
                return total;
            }

            public static double One() => Total([new Square(2)]) + Math.Abs(-1);
        }
        """;

    public static async Task RunAsync(Project project, string path, CancellationToken cancellationToken)
    {
        var document = project.AddDocument("Rehearsal.cs", SourceText.From(Code), filePath: path);
        var solution = document.Project.Solution;
        var compilation = await document.Project.GetCompilationAsync(cancellationToken);
        compilation?.GetDiagnostics(cancellationToken);
        var model = await document.GetSemanticModelAsync(cancellationToken);
        model?.GetDiagnostics(cancellationToken: cancellationToken);
        var text = await document.GetTextAsync(cancellationToken);
        var area = await SymbolFinder.FindSymbolAtPositionAsync(document, text.ToString().IndexOf("Area()", StringComparison.Ordinal), cancellationToken);
        if (area is not null)
        {
            await SymbolFinder.FindReferencesAsync(area, solution, cancellationToken);
            await Renamer.RenameSymbolAsync(solution, area, new SymbolRenameOptions(), "Surface", cancellationToken);
        }
        await Formatter.FormatAsync(document, cancellationToken: cancellationToken);
        await Formatter.OrganizeImportsAsync(document, cancellationToken);
    }
}
