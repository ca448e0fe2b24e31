using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Features.Rename;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// A rename's compile check asks only the documents that spell the old or the new name (and, for members other
/// types implement, those types' names): these are the renames whose new errors stand in documents the renamer
/// did not change.
/// </summary>
public sealed class ScopedRenameCheckTests
{
    [Fact]
    public async Task AnInterfaceMemberImplementedThroughABaseClassIsRenamedEverywhereOrRefused()
    {
        // C implements I.Work through B's method; C's file never spells Work.
        (string Name, string Text)[] files =
        [
            ("I", "public interface I { void Work(); }\n"),
            ("B", "public class B { public void Work() { } }\n"),
            ("C", "public class C : B, I { }\n"),
        ];
        var solution = new AdhocWorkspace().CurrentSolution;
        AdhocSolutions.AddProject(ref solution, "Scoped", null, files, AdhocSolutions.PathOf);
        var request = new RenameRequest(new Position(AdhocSolutions.PathOf("I"), 1, 30), "Labour", false, false, false, false);
        RenamePlan plan;
        try
        {
            plan = await RenameHandler.HandleAsync(solution, request, CancellationToken.None);
        }
        catch (HostErrorException refused)
        {
            // Refused: then for the error in C.cs, which only names I.
            Assert.Contains("C.cs", refused.Error.Message + refused.Error.DetailsJson);
            return;
        }
        foreach (var edit in plan.Edits)
        {
            var id = solution.GetDocumentIdsWithFilePath(edit.Path).Single();
            solution = solution.WithDocumentText(id, Microsoft.CodeAnalysis.Text.SourceText.From(edit.NewText));
        }
        var compilation = await solution.Projects.Single().GetCompilationAsync();
        Assert.Empty(compilation!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
    }
}
