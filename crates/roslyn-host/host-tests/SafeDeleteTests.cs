using System.Text.Json.Nodes;
using RoslynMcp.Host.Features.Delete;
using RoslynMcp.Host.Features.Signature;
using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>safe_delete plans on the Signature fixture (positions from its FIXTURE.md).</summary>
[Collection(SignatureCollection.Name)]
public sealed class SafeDeleteTests(SignatureSolution fixture, ITestOutputHelper output)
{
    private const string Leftovers = "Lib/Leftovers.cs";

    private RequestBody At(string file, uint line, uint column, bool includePublic = false) =>
        new RequestBody.PlanSafeDelete(new SafeDeleteRequest(new DeleteTarget.Symbol(fixture.At(file, line, column)), includePublic));

    private RequestBody Whole(string file) =>
        new RequestBody.PlanSafeDelete(new SafeDeleteRequest(new DeleteTarget.File(fixture.PathOf(file)), false));

    private async Task<SafeDeletePlan> PlanAsync(RequestBody request)
    {
        var plan = (await fixture.OkAsync<ResponseBody.SafeDeletePlan>(request)).Value;
        output.WriteLine(string.Join("\n", plan.Edits.Select(e => $"--- {e.Kind} {e.Path}\n{e.NewText}").Append(string.Join("\n", plan.Warnings))));
        return plan;
    }

    private FileEdit Edit(SafeDeletePlan plan, string relative) => Assert.Single(plan.Edits, e => e.Path == fixture.PathOf(relative));

    [Fact]
    public async Task AnUnreferencedMethodGoesAndItsFileStays()
    {
        var plan = await PlanAsync(At(Leftovers, 7, 25));

        Assert.Equal("Signature.Lib.Leftovers.Unused(int)", Assert.Single(plan.Deleted).Display);
        var text = Edit(plan, Leftovers).NewText;
        Assert.DoesNotContain("Unused", text);
        Assert.Contains("    private static int calls;\n\n    internal static int UsedOnlyByNet9", text);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task AMethodOnlyOneFrameworkCallsIsRefusedWithThatCall()
    {
        var error = await fixture.ErrAsync(At(Leftovers, 9, 25));

        Assert.Equal(ErrorCode.StillReferenced, error.Code);
        var details = JsonNode.Parse(error.DetailsJson)!;
        Assert.Equal(1, (int)details["totalReferences"]!);
        Assert.Equal(21, (int)details["references"]![0]!["line"]!);
    }

    [Fact]
    public async Task ALocalGoesAndAnInitializerThatDoesSomethingStays()
    {
        var ignored = await PlanAsync(At(Leftovers, 13, 13));
        Assert.Contains("        _ = Tick();\n        var spare = 42;", Edit(ignored, Leftovers).NewText);
        var spare = await PlanAsync(At(Leftovers, 14, 13));
        Assert.Contains("        var ignored = Tick();\n        return calls;", Edit(spare, Leftovers).NewText);
        await fixture.Solution.AssertCompilesAsync(spare.Edits);
    }

    [Fact]
    public async Task ATypeAloneInItsFileDeletesTheFile()
    {
        var plan = await PlanAsync(At("Lib/Orphan.cs", 4, 23));

        Assert.Equal(EditKind.Delete, Edit(plan, "Lib/Orphan.cs").Kind);
        Assert.Contains("Deleted Orphan.cs", plan.Warnings);
    }

    [Fact]
    public async Task AFileKeepsTheCodeAnotherFrameworkCompiles()
    {
        var plan = await PlanAsync(At("Lib/Split.cs", 10, 23));

        var edit = Edit(plan, "Lib/Split.cs");
        Assert.Equal(EditKind.Modify, edit.Kind);
        Assert.Contains("internal static class OnlyNet9", edit.NewText);
        Assert.DoesNotContain("Splitter", edit.NewText);
    }

    [Fact]
    public async Task AFileItsProjectListsLosesItsEntry()
    {
        var plan = await PlanAsync(Whole("Legacy/Old.cs"));

        Assert.Equal(EditKind.Delete, Edit(plan, "Legacy/Old.cs").Kind);
        var project = Edit(plan, "Legacy/Legacy.csproj").NewText;
        Assert.DoesNotContain("Old.cs", project);
        Assert.Contains("    <Compile Include=\"Current.cs\" />\n", project);
    }

    [Fact]
    public async Task PublicApiAndOverridesAreKeptUnlessAsked()
    {
        var api = await fixture.ErrAsync(At("Lib/Shipping.cs", 18, 20));
        Assert.Equal(ErrorCode.MayBeUsedElsewhere, api.Code);
        Assert.Contains("public API of the library Lib", api.Message);
        var rush = await PlanAsync(At("Lib/Shipping.cs", 18, 20, includePublic: true));
        Assert.DoesNotContain("Rush", Edit(rush, "Lib/Shipping.cs").NewText);

        var @override = await fixture.ErrAsync(At("App/Discounted.cs", 8, 29));
        Assert.Equal(ErrorCode.MayBeUsedElsewhere, @override.Code);
        Assert.Contains("overrides", @override.Message);
    }

    [Fact]
    public async Task AParameterGoesWithItsArgumentEverywhere()
    {
        Assert.Equal(ErrorCode.MayBeUsedElsewhere, (await fixture.ErrAsync(At("Lib/Orders.cs", 5, 45))).Code);
        var plan = await PlanAsync(At("Lib/Orders.cs", 5, 45, includePublic: true));

        Assert.Equal("rush", Assert.Single(plan.Deleted).Name);
        Assert.Contains(": this(id, 1)", Edit(plan, "Lib/Orders.cs").NewText);
        Assert.Contains("new Order(\"a\", 2)", Edit(plan, "App/Program.cs").NewText);
        Assert.Equal(ErrorCode.ParameterInUse, (await fixture.ErrAsync(At("Lib/Shipping.cs", 12, 32, includePublic: true))).Code);
    }

    [Fact]
    public async Task AReferencedMethodIsRefusedWithItsReferences()
    {
        var error = await fixture.ErrAsync(At(Leftovers, 18, 24));

        Assert.Equal(ErrorCode.StillReferenced, error.Code);
        Assert.Equal(13, (int)JsonNode.Parse(error.DetailsJson)!["references"]![0]!["line"]!);
    }

    [Fact]
    public async Task OneVariableOfSeveralGoesWithItsCommaAndKeepsWhatItsInitializerDoes()
    {
        var solution = AdhocSolutions.WithFile("Multi", """
            namespace N;

            internal class C
            {
                private int a, b;

                internal int M()
                {
                    var x = Next(), y = 2;
                    return y;
                }

                private int Next() => ++b;
            }
            """);
        SafeDeleteRequest At(uint line, uint column) =>
            new(new DeleteTarget.Symbol(new Position(AdhocSolutions.PathOf("Multi"), line, column)), false);

        var field = await SafeDeleteHandler.HandleAsync(solution, At(5, 17), ChangeSignatureHandler.HandleAsync, CancellationToken.None);
        Assert.Contains("    private int b;\n", Assert.Single(field.Edits).NewText);
        var refused = await Assert.ThrowsAsync<HostErrorException>(() => SafeDeleteHandler.HandleAsync(solution, At(9, 13), ChangeSignatureHandler.HandleAsync, CancellationToken.None));
        Assert.Equal(ErrorCode.EvaluationOrderChanged, refused.Error.Code);
    }
}
