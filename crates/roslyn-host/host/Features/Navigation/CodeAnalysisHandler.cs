using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using RoslynMcp.Host.Semantics.Diagnostics;
using ProtocolDiagnostic = RoslynMcp.Host.Protocol.Diagnostic;
using ProtocolSpan = RoslynMcp.Host.Protocol.Span;

namespace RoslynMcp.Host.Features.Navigation;

public static class CodeAnalysisHandler
{
    public static async Task<CodeAnalysis> HandleAsync(Solution solution, CodeBlock request, CancellationToken cancellationToken)
    {
        var at = await PositionResolver.ResolveAsync(solution, request.Position, cancellationToken);
        if (string.IsNullOrWhiteSpace(request.Code))
        {
            throw HostErrorException.Create(
                ErrorCode.InvalidParameter,
                "The code to analyze is empty",
                new JsonObject { ["parameter"] = "code" },
                "Pass one or more statements, or member or type declarations");
        }

        // Compiled in a fork of the solution that is never applied: the files and the workspace stay as they are.
        var snippet = new TextSpan(at.Offset, request.Code.Length);
        var text = at.Text.WithChanges(new TextChange(new TextSpan(at.Offset, 0), request.Code));
        var document = solution.WithDocumentText(at.Document.Id, text).GetDocument(at.Document.Id)!;
        var root = await document.GetSyntaxRootAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no syntax tree");
        SyntaxDepth.EnsureSnippetWithinLimit(root, snippet);
        var model = await document.GetSemanticModelAsync(cancellationToken)
            ?? throw new InvalidOperationException($"{document.FilePath} has no semantic model");

        var symbols = new SnippetSymbols(model, snippet, at.Document);
        return new CodeAnalysis(
            Diagnostics(model, text, snippet, document, cancellationToken),
            symbols.Declared(cancellationToken),
            await symbols.UsedAsync(cancellationToken));
    }

    /// <summary>The compiler's diagnostics inside the snippet, at positions relative to its start.</summary>
    private static ValueList<ProtocolDiagnostic> Diagnostics(
        SemanticModel model, SourceText text, TextSpan snippet, Document document, CancellationToken cancellationToken)
    {
        var start = text.Lines.GetLinePosition(snippet.Start);
        ProtocolSpan Relative(TextSpan span)
        {
            var (from, to) = (RelativePosition(text.Lines.GetLinePosition(span.Start)), RelativePosition(text.Lines.GetLinePosition(span.End)));
            return new ProtocolSpan(document.FilePath!, from.Line, from.Column, to.Line, to.Column);
        }
        // On the snippet's first line, columns count from its first character.
        (uint Line, uint Column) RelativePosition(LinePosition position) => position.Line == start.Line
            ? (1u, (uint)(position.Character - start.Character + 1))
            : ((uint)(position.Line - start.Line + 1), (uint)position.Character + 1);

        return model.GetDiagnostics(cancellationToken: cancellationToken)
            .Where(d => d.Severity >= DiagnosticSeverity.Info && !d.IsSuppressed
                && d.Location.SourceTree == model.SyntaxTree && snippet.Contains(d.Location.SourceSpan))
            .Select(d => new ProtocolDiagnostic(
                d.Id,
                DiagnosticFormat.SeverityOf(d.Severity),
                d.GetMessage(CultureInfo.InvariantCulture),
                document.Project.Name,
                document.Project.FilePath ?? "",
                Relative(d.Location.SourceSpan),
                DiagnosticFormat.CompilerSource))
            .OrderBy(d => d.Location!.StartLine)
            .ThenBy(d => d.Location!.StartColumn)
            .ThenBy(d => d.Id, StringComparer.Ordinal)
            .ThenBy(d => d.Location!.EndLine)
            .ThenBy(d => d.Location!.EndColumn)
            .ThenBy(d => d.Message, StringComparer.Ordinal)
            .ToValueList();
    }
}
