using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>File changes on a private, mutable copy of the Shop fixture.</summary>
public sealed class FileChangeTests : IAsyncLifetime
{
    private readonly ShopSolution shop = new();

    public Task InitializeAsync() => shop.InitializeAsync();

    public Task DisposeAsync() => shop.DisposeAsync();

    [Fact]
    public async Task EditedAddedAndRemovedFilesAreApplied()
    {
        const string customer = "src/Shop.Core/Models/Customer.cs";
        const string added = "src/Shop.Core/Models/Coupon.cs";
        const string removed = "src/Shop.Core/Models/OrderStatus.cs";
        var core = shop.Summary.Projects.Single(p => p.Name == "Shop.Core");

        // Two lines inserted above the class move its declaration from line 6 to line 8.
        var path = shop.PathOf(customer);
        await File.WriteAllTextAsync(path, "// edited\n// twice\n" + await File.ReadAllTextAsync(path));
        await File.WriteAllTextAsync(shop.PathOf(added), "namespace Shop.Core.Models;\n\npublic sealed class Coupon\n{\n    public Customer? Owner { get; set; }\n}\n");
        File.Delete(shop.PathOf(removed));

        var (outcome, version) = await shop.Dispatcher.HandleAsync(
            new RequestBody.ApplyFileChanges(new FileChanges([path, shop.PathOf(added)], [shop.PathOf(removed)])),
            CancellationToken.None);
        var applied = Assert.IsType<ResponseBody.FileChangesApplied>(Assert.IsType<Outcome.Ok>(outcome).Value).Value;
        Assert.Equal(2ul, version);
        Assert.Equal(core.DocumentCount, applied.Projects.Single(p => p.Name == "Shop.Core").DocumentCount);

        var definition = await shop.OkAsync<ResponseBody.SymbolDefinition>(new RequestBody.SymbolDefinition(shop.At(added, 5, 12)));
        Assert.Equal("Shop.Core.Models.Customer", definition.Value.Symbol.Display);
        Assert.Equal(8u, Assert.Single(definition.Value.Locations).Span.StartLine);

        var coupon = await shop.OkAsync<ResponseBody.TypeAtPosition>(new RequestBody.TypeAtPosition(shop.At(added, 3, 21)));
        Assert.Equal("Shop.Core.Models.Coupon", coupon.Value.FullTypeName);
        Assert.Equal([shop.PathOf(added)], coupon.Value.Declarations.Select(d => d.Span.File));

        var gone = await shop.ErrAsync(new RequestBody.TypeAtPosition(shop.At(removed, 1, 1)));
        Assert.Equal(ErrorCode.SourceNotInWorkspace, gone.Code);

        // Program.cs used the removed OrderStatus: the compilation now says so.
        var diagnostics = await shop.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(shop.PathOf("src/Shop.App/Program.cs"), null, Severity.Error, false)));
        Assert.Contains(diagnostics.Value.Diagnostics, d => d.Id == "CS0246" && d.Message.Contains("OrderStatus"));

        // Files under bin/ or obj/ or outside every project are not sources.
        var ignored = shop.PathOf("src/Shop.Core/obj/Ignored.cs");
        await File.WriteAllTextAsync(ignored, "class Ignored {}");
        var (again, nextVersion) = await shop.Dispatcher.HandleAsync(
            new RequestBody.ApplyFileChanges(new FileChanges([ignored], [])), CancellationToken.None);
        var afterIgnored = Assert.IsType<ResponseBody.FileChangesApplied>(Assert.IsType<Outcome.Ok>(again).Value).Value;
        Assert.Equal(core.DocumentCount, afterIgnored.Projects.Single(p => p.Name == "Shop.Core").DocumentCount);
        // Nothing the solution compiles changed, nor does a file told of with the text it has: the snapshot,
        // its version and the cursors on it stay.
        Assert.Equal(2ul, nextVersion);
        var (_, unchangedVersion) = await shop.Dispatcher.HandleAsync(
            new RequestBody.ApplyFileChanges(new FileChanges([path], [])), CancellationToken.None);
        Assert.Equal(2ul, unchangedVersion);
    }

    [Fact]
    public async Task AProjectFileChangeReloadsTheSolution()
    {
        var project = shop.PathOf("src/Shop.Data/Shop.Data.csproj");
        var text = await File.ReadAllTextAsync(project);
        await File.WriteAllTextAsync(project, text.Replace("<RootNamespace>", "<AssemblyName>Shop.Storage</AssemblyName>\n    <RootNamespace>"));

        var (outcome, version) = await shop.Dispatcher.HandleAsync(
            new RequestBody.ApplyFileChanges(new FileChanges([project], [])), CancellationToken.None);
        var reloaded = Assert.IsType<ResponseBody.FileChangesApplied>(Assert.IsType<Outcome.Ok>(outcome).Value).Value;
        Assert.Equal(2ul, version);
        Assert.Equal("Shop.Storage", reloaded.Projects.Single(p => p.Name == "Shop.Data").AssemblyName);
    }
}
