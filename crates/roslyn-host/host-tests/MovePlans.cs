using System.Security.Cryptography;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Features.Moves;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Asking for move plans on a loaded fixture, and applying them to its snapshot in memory.</summary>
internal static class MovePlans
{
    public static RequestBody ToFile(LoadedSolution fixture, string source, string symbol, string target, bool create = true, uint? line = null) =>
        new RequestBody.PlanMove(new MoveRequest(
            fixture.PathOf(source),
            symbol,
            line,
            new MoveDestination.File(new FileDestination(fixture.PathOf(target), create))));

    public static RequestBody ToNamespace(LoadedSolution fixture, string source, string symbol, string ns, bool updateFileLocation = false, uint? line = null) =>
        new RequestBody.PlanMove(new MoveRequest(
            fixture.PathOf(source),
            symbol,
            line,
            new MoveDestination.Namespace(new NamespaceDestination(ns, updateFileLocation))));

    public static async Task<MovePlan> PlanAsync(this LoadedSolution fixture, RequestBody request) =>
        (await fixture.OkAsync<ResponseBody.MovePlan>(request)).Value;

    /// <summary>A plan on a snapshot changed in memory, straight from the handler (refusals throw).</summary>
    public static Task<MovePlan> PlanAsync(this Solution solution, RequestBody request) =>
        MoveHandler.HandleAsync(solution, ((RequestBody.PlanMove)request).Value, CancellationToken.None);

    public static FileEdit Edit(this MovePlan plan, LoadedSolution fixture, string relative) =>
        Assert.Single(plan.Edits, e => e.Path == fixture.PathOf(relative));

    /// <summary>The snapshot with the plan's edits applied, after checking each edit's base hash.</summary>
    public static Task<Solution> ApplyAsync(this Solution solution, MovePlan plan) => solution.ApplyAsync(plan.Edits);

    /// <summary>
    /// The snapshot with these edits applied (to every project holding a modified file), after checking each
    /// edit's base hash.
    /// </summary>
    public static async Task<Solution> ApplyAsync(this Solution solution, IReadOnlyList<FileEdit> edits)
    {
        var original = solution;
        foreach (var edit in edits)
        {
            var ids = original.GetDocumentIdsWithFilePath(edit.Path);
            if (edit.Kind == EditKind.Create)
            {
                Assert.Empty(ids);
                Assert.Equal("", edit.BaseSha256);
                var project = solution.Projects
                    .Where(p => edit.Path.StartsWith(Path.GetDirectoryName(p.FilePath!)! + Path.DirectorySeparatorChar, StringComparison.Ordinal))
                    .MaxBy(p => p.FilePath!.Length)!;
                solution = solution.AddDocument(DocumentId.CreateNewId(project.Id), Path.GetFileName(edit.Path), SourceText.From(edit.NewText), filePath: edit.Path);
                continue;
            }
            Assert.NotEmpty(ids);
            var text = (await original.GetDocument(ids[0])!.GetTextAsync()).ToString();
            Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text))), edit.BaseSha256);
            foreach (var id in ids)
            {
                solution = edit.Kind == EditKind.Delete
                    ? solution.RemoveDocument(id)
                    : solution.WithDocumentText(id, SourceText.From(edit.NewText));
            }
        }
        return solution;
    }

    /// <summary>Applies the plan in memory and asserts the whole solution compiles without errors.</summary>
    public static Task AssertCompilesAsync(this LoadedSolution fixture, MovePlan plan) => fixture.Solution.AssertCompilesAsync(plan);

    public static Task AssertCompilesAsync(this Solution before, MovePlan plan) => before.AssertCompilesAsync(plan.Edits);

    /// <summary>Applies the edits in memory and asserts the whole solution compiles without errors.</summary>
    public static async Task AssertCompilesAsync(this Solution before, IReadOnlyList<FileEdit> edits)
    {
        var solution = await before.ApplyAsync(edits);
        foreach (var project in solution.Projects)
        {
            var compilation = await project.GetCompilationAsync();
            var errors = compilation!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).Select(d => d.ToString());
            Assert.Empty(errors);
        }
    }

    public static string Dump(MovePlan plan) => string.Join(
        "\n",
        plan.Edits.Select(e => $"--- {e.Kind} {e.Path}: {e.Description}\n{e.NewText}"));
}
