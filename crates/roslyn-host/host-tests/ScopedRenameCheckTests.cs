using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using RoslynMcp.Host.Features.Rename;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Plans;

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

    [Fact]
    public void OnlyTheMembersThatSpellANameAreAskedAndATypesHeaderTakesTheType()
    {
        const string code = """
            namespace N;
            public class A
            {
                public int Total() => 1;
                public int Other() { var totals = 2; return totals; }
                public int Sum() => Total() + 1;
            }
            public class B : Total
            {
                public int Any() => 3;
            }
            public class Total { }
            """;
        var root = CSharpSyntaxTree.ParseText(code).GetRoot();
        var spans = SpelledMembers.Of(root, new HashSet<string> { "Total" })!;
        var texts = spans.Select(s => code[s.Start..s.End].Trim()).ToList();

        // Total() and Sum(), never Other() between them; B whole (its base list spells it) and, touching it, the
        // class Total: one span.
        Assert.Equal(3, texts.Count);
        Assert.Equal(["public int Total() => 1;", "public int Sum() => Total() + 1;"], texts.Take(2));
        Assert.StartsWith("public class B : Total", texts[2]);
        Assert.Contains("Any()", texts[2]);
        Assert.EndsWith("public class Total { }", texts[2]);

        var atTop = CSharpSyntaxTree.ParseText("using Total = System.Int32;\nclass C { }").GetRoot();
        Assert.Null(SpelledMembers.Of(atTop, new HashSet<string> { "Total" }));
    }
}
