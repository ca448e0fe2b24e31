using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>organize-usings plans on the Usings fixture (files from its FIXTURE.md).</summary>
[Collection(UsingsCollection.Name)]
public sealed class OrganizeUsingsTests(UsingsSolution fixture, ITestOutputHelper output)
{
    private RequestBody Organize(string? file = null, string? project = null, bool remove = true, bool sort = true) =>
        new RequestBody.PlanOrganizeUsings(new OrganizeUsingsRequest(file is null ? null : fixture.PathOf(file), project, remove, sort));

    private async Task<OrganizeUsingsPlan> PlanAsync(RequestBody request)
    {
        var plan = (await fixture.OkAsync<ResponseBody.OrganizeUsingsPlan>(request)).Value;
        output.WriteLine(string.Join("\n", plan.Edits.Select(e => $"--- {e.Path}: {e.Description}\n{e.NewText}").Concat(plan.Warnings)));
        return plan;
    }

    private string NewText(OrganizeUsingsPlan plan, string relative) =>
        Assert.Single(plan.Edits, e => e.Path == fixture.PathOf(relative)).NewText;

    [Fact]
    public async Task OneFileLosesItsUnusedUsings()
    {
        var plan = await PlanAsync(Organize("Tidy/Unused.cs"));

        Assert.Equal(1u, plan.Documents);
        Assert.Equal(3u, plan.UsingsRemoved);
        var edit = Assert.Single(plan.Edits);
        Assert.Equal(EditKind.Modify, edit.Kind);
        Assert.Equal("Remove 3 usings", edit.Description);
        Assert.StartsWith("using System;\n\nnamespace Tidy;\n", edit.NewText);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task SortingAloneKeepsEveryUsing()
    {
        var plan = await PlanAsync(Organize("Tidy/Unsorted.cs", remove: false));

        Assert.Equal(0u, plan.UsingsRemoved);
        Assert.Equal("Sort", Assert.Single(plan.Edits).Description);
        Assert.StartsWith("using System;\nusing System.Collections.Generic;\nusing Tidy.Helpers;\n\nnamespace Tidy;\n", NewText(plan, "Tidy/Unsorted.cs"));
    }

    [Fact]
    public async Task OrganizedFileGetsNoEdit()
    {
        var plan = await PlanAsync(Organize("Tidy/Organized.cs"));

        Assert.Equal(1u, plan.Documents);
        Assert.Empty(plan.Edits);
    }

    [Fact]
    public async Task ProjectFilesAreOrganizedAndGlobalUsingsKept()
    {
        var plan = await PlanAsync(Organize(project: "Tidy"));

        Assert.Equal(7u, plan.Documents);
        Assert.Equal(
            ["Tidy/AllUnused.cs", "Tidy/Duplicate.cs", "Tidy/Unsorted.cs", "Tidy/Unused.cs"],
            plan.Edits.Select(e => Path.GetRelativePath(fixture.Root, e.Path).Replace('\\', '/')));
        Assert.StartsWith("namespace Tidy;\n", NewText(plan, "Tidy/AllUnused.cs"));
        Assert.StartsWith("using System;\nusing System.Text;\n\nnamespace Tidy;\n", NewText(plan, "Tidy/Duplicate.cs"));
        Assert.StartsWith("using System;\nusing System.Collections.Generic;\nusing Tidy.Helpers;\n\nnamespace Tidy;\n", NewText(plan, "Tidy/Unsorted.cs"));
        Assert.Equal(3u + 2u + 1u, plan.UsingsRemoved);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task MultiTargetedProjectKeepsWhatOneFrameworkNeeds()
    {
        var plan = await PlanAsync(Organize(project: fixture.PathOf("Both/Both.csproj")));

        Assert.Equal(3u, plan.Documents);
        Assert.StartsWith("using System;\nusing System.Text;\n\nnamespace Both;\n", NewText(plan, "Both/Conditional.cs"));
        Assert.StartsWith("using System;\n#if NET9_0\nusing System.Text;\n#endif\n\nnamespace Both;\n", NewText(plan, "Both/Guarded.cs"));
        Assert.DoesNotContain(plan.Edits, e => e.Path == fixture.PathOf("Both/Clean.cs"));
        Assert.Equal(2u, plan.UsingsRemoved);
        Assert.Contains("Kept using System.Text in Conditional.cs: needed by Both(net9.0)", plan.Warnings);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task WholeSolutionCompilesAfterwards()
    {
        var plan = await PlanAsync(Organize());

        Assert.Equal(10u, plan.Documents);
        Assert.Equal(6, plan.Edits.Count);
        Assert.Equal(8u, plan.UsingsRemoved);
        Assert.DoesNotContain(plan.Edits, e => e.Path.EndsWith("GlobalUsings.cs", StringComparison.Ordinal));
        Assert.Equal(plan.Edits.Count, plan.Edits.Select(e => e.Path).Distinct().Count());
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task UnknownProjectIsRefused()
    {
        var error = await fixture.ErrAsync(Organize(project: "Nope"));
        Assert.Equal(ErrorCode.ProjectNotFound, error.Code);
    }
}
