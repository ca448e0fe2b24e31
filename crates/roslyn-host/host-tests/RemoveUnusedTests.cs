using RoslynMcp.Host.Features.Unused;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>remove-unused plans on the Unused fixture (places and expected results from its FIXTURE.md).</summary>
[Collection(UnusedCollection.Name)]
public sealed class RemoveUnusedTests(UnusedSolution fixture, ITestOutputHelper output)
{
    private const string Inventory = "Lib/Inventory.cs";

    private RequestBody Remove(string? file = null, string? project = null, bool includePublic = false, params UnusedKind[] kinds) =>
        new RequestBody.PlanRemoveUnused(new RemoveUnusedRequest(file is null ? null : fixture.PathOf(file), project, kinds.ToValueList(), includePublic));

    private async Task<RemoveUnusedPlan> PlanAsync(RequestBody request)
    {
        var result = (await fixture.OkAsync<ResponseBody.RemoveUnusedPlan>(request)).Value;
        output.WriteLine($"{result.Plan.Title}: {result.Plan.Documents} documents, {result.Plan.Changes} changes");
        output.WriteLine(string.Join("\n", Removed(result)));
        output.WriteLine(string.Join("\n", result.Plan.Edits.Select(e => $"--- {e.Path}: {e.Description}\n{e.NewText}").Concat(result.Plan.Warnings)));
        await fixture.Solution.AssertCompilesAsync(result.Plan.Edits);
        return result;
    }

    private List<string> Removed(RemoveUnusedPlan result) =>
        [.. result.Removed.Select(r => $"{Path.GetRelativePath(fixture.Root, r.Location.File).Replace('\\', '/')}:{r.Location.Line}:{r.Location.Column} {r.Kind} {r.Rule} {r.Name}")];

    private const string InventoryCleaned = """
        using System;
        using System.Collections.Generic;

        namespace Lib;

        public class Inventory : Shelf, IStock
        {
            private readonly List<string> items = new();

            [Obsolete("Kept for reflection")]
            private void Retired()
            {
            }

            public void Add(string item)
            {
                items.Add(Normalize(item));
            }

            public void AddAll(IEnumerable<string> all)
            {
                foreach (var item in all)
                {
                    items.Add(Normalize(item));
                }
            }

            private static string Normalize(string item) => item.Trim();

            public int Count()
            {
                int total = items.Count;
                return total;
            }

            public override string Label() => "inventory";

            public string Describe() => $"{Label()}: {Count()}";

            public void Unreferenced()
            {
            }

            [Obsolete("Use Describe")]
            public string Summary() => Describe();
        }

        """;

    private static readonly string[] PrivateMembers =
    [
        "Lib/Inventory.cs:11:17 Members IDE0051 unusedField",
        "Lib/Inventory.cs:12:17 Members IDE0052 lastCount",
        "Lib/Inventory.cs:14:20 Members IDE0051 UnusedProperty",
        "Lib/Inventory.cs:16:18 Members IDE0051 UnusedHelper",
        "Multi/Clock.cs:16:17 Members IDE0051 Stale",
    ];

    private static readonly string[] Locals =
    [
        "Lib/Inventory.cs:43:13 Locals CS0168 unused",
        "Lib/Inventory.cs:44:13 Locals CS0219 zero",
        "Lib/Inventory.cs:45:13 Locals IDE0059 total",
    ];

    private static readonly string[] Usings =
    [
        "App/Program.cs:2:1 Usings CS8019 System.Linq",
        "Lib/Inventory.cs:3:1 Usings CS8019 System.IO",
        "Lib/Inventory.cs:4:1 Usings CS8019 System.Text",
    ];

    private string NewText(RemoveUnusedPlan result, string relative) =>
        Assert.Single(result.Plan.Edits, e => e.Path == fixture.PathOf(relative)).NewText;

    [Fact]
    public async Task PrivateMembersAloneKeepAttributedOnesAndPublicOnes()
    {
        var result = await PlanAsync(Remove(kinds: UnusedKind.Members));

        Assert.Equal(PrivateMembers, Removed(result));
        Assert.Equal("Remove 5 unused items", result.Plan.Title);
        var inventory = NewText(result, Inventory);
        Assert.DoesNotContain("lastCount", inventory);
        Assert.Contains("        items.Add(Normalize(item, 1));\n    }\n", inventory);
        Assert.Contains("private void Retired()", inventory);
        Assert.Contains("public void Unreferenced()", inventory);
        Assert.Contains("int unused;", inventory);
        Assert.Contains("using System.IO;", inventory);
    }

    [Fact]
    public async Task LocalsAloneRemoveTheRedundantAssignmentNotADiscard()
    {
        var result = await PlanAsync(Remove(Inventory, kinds: UnusedKind.Locals));

        Assert.Equal(Locals, Removed(result));
        Assert.Equal(1u, result.Plan.Documents);
        var inventory = NewText(result, Inventory);
        Assert.Contains("    public int Count()\n    {\n        int total = items.Count;\n        return total;\n    }\n", inventory);
        Assert.DoesNotContain("_ =", inventory);
    }

    [Fact]
    public async Task ParametersAloneLoseTheirArgumentsAtEveryCall()
    {
        var result = await PlanAsync(Remove(kinds: UnusedKind.Parameters));

        // Main's args is unused too, but Main is public: its parameters are an API.
        Assert.Equal(["Lib/Inventory.cs:39:54 Parameters IDE0060 attempt"], Removed(result));
        var inventory = NewText(result, Inventory);
        Assert.Contains("        items.Add(Normalize(item));\n        lastCount = items.Count;\n", inventory);
        Assert.Contains("            items.Add(Normalize(item));\n", inventory);
        Assert.Contains("private static string Normalize(string item) => item.Trim();", inventory);
        Assert.DoesNotContain(result.Plan.Edits, e => e.Path == fixture.PathOf("App/Program.cs"));
    }

    [Fact]
    public async Task UsingsAloneAreThoseOfOrganizeUsings()
    {
        var result = await PlanAsync(Remove(kinds: UnusedKind.Usings));

        Assert.Equal(Usings, Removed(result));
        Assert.StartsWith("using System;\nusing Lib;\nusing Multi;\n\nnamespace App;\n", NewText(result, "App/Program.cs"));
        Assert.StartsWith("using System;\nusing System.Collections.Generic;\n\nnamespace Lib;\n", NewText(result, Inventory));
    }

    [Fact]
    public async Task EveryKindInOnePlan()
    {
        var result = await PlanAsync(Remove());

        Assert.Equal(
            [.. Usings, .. PrivateMembers.Take(4), "Lib/Inventory.cs:39:54 Parameters IDE0060 attempt", .. Locals, PrivateMembers[4]],
            Removed(result));
        Assert.Equal("Remove 12 unused items", result.Plan.Title);
        Assert.Equal(4u, result.Plan.Documents);
        Assert.Equal(3, result.Plan.Edits.Count);
        Assert.All(result.Plan.Edits, e => Assert.Equal(("Remove 12 unused items", EditKind.Modify), (e.Description, e.Kind)));
        Assert.Equal(InventoryCleaned, NewText(result, Inventory));
    }

    [Fact]
    public async Task IncludePublicRemovesOnlyWhatNothingReferences()
    {
        var result = await PlanAsync(Remove(includePublic: true, kinds: UnusedKind.Members));

        Assert.Equal(
            [.. PrivateMembers.Take(4), "Lib/Inventory.cs:54:17 Members unreferenced Unreferenced", PrivateMembers[4]],
            Removed(result));
        var inventory = NewText(result, Inventory);
        Assert.DoesNotContain("Unreferenced", inventory);
        // Used by App, an override, an interface implementation, attributed: all kept.
        foreach (var kept in new[] { "public void AddAll(", "public string Describe()", "public override string Label()", "public int Count()", "public string Summary()" })
        {
            Assert.Contains(kept, inventory);
        }
        Assert.DoesNotContain(result.Plan.Edits, e => e.Path == fixture.PathOf("App/Program.cs"));
    }

    [Fact]
    public async Task MultiTargetedFileKeepsWhatOneFrameworkUses()
    {
        var result = await PlanAsync(Remove("Multi/Clock.cs", includePublic: true));

        // Format and Tick are used only under #if NET9_0: net10.0 alone would remove them.
        Assert.Equal(["Multi/Clock.cs:16:17 Members IDE0051 Stale"], Removed(result));
        var clock = NewText(result, "Multi/Clock.cs");
        Assert.Contains("    private string Format(int value) => value.ToString();\n\n    public string Tick() => \"tick\";\n}\n", clock);
        Assert.DoesNotContain("Stale", clock);
    }

    [Fact]
    public async Task GeneratedFilesAreNeitherExaminedNorEdited()
    {
        var result = await PlanAsync(Remove(project: "Lib", includePublic: true));

        Assert.Equal(2u, result.Plan.Documents);
        Assert.DoesNotContain(result.Removed, r => r.Location.File.EndsWith(".g.cs", StringComparison.Ordinal));
        Assert.Equal([fixture.PathOf(Inventory)], result.Plan.Edits.Select(e => e.Path));
        Assert.Contains("generatedField", (await PositionResolver.FindDocument(fixture.Solution, fixture.PathOf("Lib/Generated.g.cs")).GetTextAsync()).ToString());
    }

    [Fact]
    public async Task SecondRunOnTheResultPlansNothing()
    {
        var first = await PlanAsync(Remove(includePublic: true));
        var applied = await fixture.Solution.ApplyAsync(first.Plan.Edits);

        var request = new RemoveUnusedRequest(null, null, ValueList<UnusedKind>.Empty, true);
        var second = await RemoveUnusedHandler.HandleAsync(applied, request, CancellationToken.None);

        Assert.NotEmpty(first.Removed);
        Assert.Empty(second.Removed);
        Assert.Empty(second.Plan.Edits);
        Assert.Equal("Remove 0 unused items", second.Plan.Title);
    }

    [Fact]
    public async Task CodeAnotherFrameworkCompilesBeforeARemovedMemberStays()
    {
        var solution = AdhocSolutions.WithFile("Trap", """
            namespace N;

            public class C
            {
            #if NEVER
                public int Kept() => 1;
            #endif
                /// <summary>Nothing calls it.</summary>
                public int Unused() => 2;
            }
            """);
        var request = new RemoveUnusedRequest(AdhocSolutions.PathOf("Trap"), null, [UnusedKind.Members], true);
        var plan = await RemoveUnusedHandler.HandleAsync(solution, request, CancellationToken.None);

        Assert.Equal("Unused", Assert.Single(plan.Removed).Name);
        var text = Assert.Single(plan.Plan.Edits).NewText;
        Assert.Contains("#if NEVER\n    public int Kept() => 1;\n#endif\n}", text);
        Assert.DoesNotContain("Nothing calls it", text);
    }
}
