using System.Reflection;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Namespaces;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>sync_namespaces plans on the Signature fixture.</summary>
[Collection(SignatureCollection.Name)]
public sealed class SyncNamespacesTests(SignatureSolution fixture, ITestOutputHelper output)
{
    [Fact]
    public void TheServiceHasTheShapeThisDriverExpects()
    {
        var features = typeof(Microsoft.CodeAnalysis.Completion.CompletionItem).Assembly;
        var service = features.GetType(RoslynChangeNamespace.ServiceType);
        Assert.NotNull(service);
        Assert.Contains(service.GetInterfaces(), i => i.Name == "IChangeNamespaceService");
        var method = service.GetMethod(RoslynChangeNamespace.Method, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        Assert.Equal(["Document", "String", "CancellationToken"], method!.GetParameters().Select(p => p.ParameterType.Name));
        Assert.Equal(typeof(Task<Microsoft.CodeAnalysis.Solution>), method.ReturnType);
    }

    [Fact]
    public void ConflictBlocksOfOtherFrameworksGiveBackTheirBeforeSide()
    {
        var merged = string.Join("\r\n",
            "using System.IO;",
            "<<<<<<< TODO: Unmerged change from project 'Lib(netstandard2.0)', Before:",
            "using Old;",
            "=======",
            "using Markdig;",
            "using Markdig.Renderers;",
            ">>>>>>> After",
            "using Markdig.Renderers.Normalize;",
            "    <<<<<<< TODO: Unmerged change from project 'Lib(net8.0)', Before:",
            "    =======",
            "    int x;",
            "    >>>>>>> After",
            "namespace Markdig.Renderers.Html;");
        Assert.Equal(
            string.Join("\r\n", "using System.IO;", "using Old;", "using Markdig.Renderers.Normalize;", "namespace Markdig.Renderers.Html;"),
            RoslynChangeNamespace.WithoutConflictBlocks(merged));
        Assert.Null(RoslynChangeNamespace.WithoutConflictBlocks("using A;\n=======\n"));
    }

    [Fact]
    public async Task AFileOutOfItsFoldersNamespaceMovesAndItsConsumersFollow()
    {
        var request = new RequestBody.PlanSyncNamespaces(new SyncNamespacesRequest(fixture.PathOf("Lib/Lib.csproj"), null));
        var answer = (await fixture.OkAsync<ResponseBody.SyncNamespacesPlan>(request)).Value;
        output.WriteLine(string.Join("\n", answer.Plan.Edits.Select(e => $"--- {e.Path}\n{e.NewText}")));

        var change = Assert.Single(answer.Changed);
        Assert.Equal((fixture.PathOf("Lib/Models/Item.cs"), "Signature.Lib", "Signature.Lib.Models"), (change.File, change.Namespace, change.NewNamespace));
        Assert.Contains("namespace Signature.Lib.Models;", Edit(answer, "Lib/Models/Item.cs"));
        var catalog = Edit(answer, "App/Catalog.cs");
        Assert.Contains("using Signature.Lib.Models;", catalog);
        Assert.Contains("Signature.Lib.Models.Item Second()", catalog);
        // Files already in their folder's namespace get no edit.
        Assert.DoesNotContain(answer.Plan.Edits, e => e.Path == fixture.PathOf("Lib/Pricing.cs"));
        await fixture.Solution.AssertCompilesAsync(answer.Plan.Edits);
    }

    [Fact]
    public async Task AFolderWhereEverythingMatchesChangesNothing()
    {
        var request = new RequestBody.PlanSyncNamespaces(new SyncNamespacesRequest(null, fixture.PathOf("App")));
        var answer = (await fixture.OkAsync<ResponseBody.SyncNamespacesPlan>(request)).Value;

        Assert.Empty(answer.Changed);
        Assert.Empty(answer.Plan.Edits);
    }

    private string Edit(SyncNamespacesPlan answer, string relative) =>
        Assert.Single(answer.Plan.Edits, e => e.Path == fixture.PathOf(relative)).NewText;
}
