using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Features.Actions;

/// <summary>
/// The diagnostics a fix-all fixes: the compiler's and the analyzers' of the fixed id, per document or project,
/// as Roslyn's fix-all engine asks for them. Only the analyzers that report <paramref name="ids"/> run.
/// </summary>
internal sealed class FixAllDiagnostics(IReadOnlySet<string> ids) : FixAllContext.DiagnosticProvider
{
    public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) =>
        await DocumentAsync(document, cancellationToken);

    /// <summary>Diagnostics of the project with no place in a document; analyzers' compilation-wide ones are left out.</summary>
    public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
        Task.FromResult<IEnumerable<Diagnostic>>([]);

    /// <summary>
    /// The project's in one pass: one compilation's diagnostics and one analyzer run over it, rather than an
    /// analyzer run (with its own copy of the compilation) per document.
    /// </summary>
    public override async Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken)
    {
        var compilation = await project.GetCompilationAsync(cancellationToken);
        var compiler = compilation is null ? [] : CompilerDiagnostics.Of(project, compilation, cancellationToken).Where(d => ids.Contains(d.Id));
        var analyzed = await AnalyzerDiagnostics.OfProjectAsync(project, ids, cancellationToken);
        return compiler.Concat(analyzed).Where(d => d.Location.IsInSource && !d.IsSuppressed);
    }

    private async Task<IEnumerable<Diagnostic>> DocumentAsync(Document document, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken);
        var compiler = model?.GetDiagnostics(cancellationToken: cancellationToken).Where(d => ids.Contains(d.Id)) ?? [];
        var analyzed = await AnalyzerDiagnostics.OfDocumentAsync(document, null, ids, cancellationToken);
        return compiler.Concat(analyzed).Where(d => !d.IsSuppressed);
    }
}
