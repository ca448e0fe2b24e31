using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Semantics.Diagnostics;

namespace RoslynMcp.Host.Tests;

/// <summary>A compilation's diagnostics are computed once and kept with it; a changed project computes its own.</summary>
public sealed class CompilerDiagnosticsTests
{
    [Fact]
    public async Task AnUnchangedCompilationAnswersFromWhatItKeptAndAChangedOneComputesAgain()
    {
        var solution = AdhocSolutions.WithFile("Kept", "class Kept { void M() { int unused = 1; } }");
        var project = solution.Projects.Single();
        var compilation = (await project.GetCompilationAsync())!;

        var first = CompilerDiagnostics.Of(project, compilation, CancellationToken.None);
        Assert.Contains(first, d => d.Id == "CS0219");
        // The same array, not an equal one: nothing was bound again.
        Assert.True(first == CompilerDiagnostics.Of(project, (await solution.Projects.Single().GetCompilationAsync())!, CancellationToken.None));

        var document = project.Documents.Single();
        var edited = document.WithText(SourceText.From("class Kept { void M() { string s = 1; } }")).Project;
        var after = CompilerDiagnostics.Of(edited, (await edited.GetCompilationAsync())!, CancellationToken.None);
        Assert.Contains(after, d => d.Id == "CS0029");
        Assert.DoesNotContain(after, d => d.Id == "CS0219");
    }

    [Fact]
    public async Task ACancelledComputationKeepsNothing()
    {
        var project = AdhocSolutions.WithFile("Cancelled", "class C { void M() { int unused = 1; } }").Projects.Single();
        var compilation = (await project.GetCompilationAsync())!;
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();
        Assert.ThrowsAny<OperationCanceledException>(() => CompilerDiagnostics.Of(project, compilation, cancelled.Token));
        Assert.Contains(CompilerDiagnostics.Of(project, compilation, CancellationToken.None), d => d.Id == "CS0219");
    }
}
