using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Moves on the Shop fixture that empty a namespace: no document may keep importing it where it is gone.</summary>
[Collection(ShopCollection.Name)]
public sealed class ShopMoveTests(ShopSolution shop)
{
    private const string Customer = "src/Shop.Core/Models/Customer.cs";
    private const string Program = "src/Shop.App/Program.cs";
    private const string Order = "src/Shop.Core/Models/Order.cs";

    [Fact]
    public async Task MovingTheLastTypeBackRemovesEveryUsingOfTheEmptiedNamespace()
    {
        var there = await MovedToCustomersAsync(shop.Solution);
        Assert.Contains("using Shop.Core.Customers;\n", await TextAsync(there, Program));
        Assert.StartsWith("using Shop.Core.Customers;\n\nnamespace Shop.Core.Models;\n", await TextAsync(there, Order));

        var plan = await there.PlanAsync(MovePlans.ToNamespace(shop, Customer, "Customer", "Shop.Core.Models"));

        // Program.cs and Order.cs already import (or are in) Shop.Core.Models: only the dangling using goes.
        Assert.Equal("Remove 1 using of a namespace that no longer exists", plan.Edit(shop, Program).Description);
        Assert.Equal("Remove 1 using of a namespace that no longer exists", plan.Edit(shop, Order).Description);
        Assert.DoesNotContain(plan.Edits, e => e.NewText.Contains("Shop.Core.Customers", StringComparison.Ordinal));
        Assert.True(plan.UsingsRemoved >= 2, MovePlans.Dump(plan));
        await there.AssertCompilesAsync(plan);
        var back = await there.ApplyAsync(plan);
        Assert.Equal(await TextAsync(shop.Solution, Program), await TextAsync(back, Program));
        Assert.Equal(await TextAsync(shop.Solution, Order), await TextAsync(back, Order));
        Assert.Equal(await TextAsync(shop.Solution, Customer), await TextAsync(back, Customer));
    }

    [Fact]
    public async Task ANamespaceLeftInAnotherProjectKeepsItsUsingsWhereThatProjectIsSeen()
    {
        var there = await MovedToCustomersAsync(shop.Solution);
        // Shop.Data (seen by Shop.App, not by Shop.Core) declares Shop.Core.Customers too.
        var data = there.Projects.Single(p => p.Name == "Shop.Data");
        var cache = shop.PathOf("src/Shop.Data/CustomerCache.cs");
        there = data.AddDocument("CustomerCache.cs", SourceText.From("namespace Shop.Core.Customers;\n\npublic class CustomerCache\n{\n}\n"), filePath: cache).Project.Solution;

        var plan = await there.PlanAsync(MovePlans.ToNamespace(shop, Customer, "Customer", "Shop.Core.Models"));

        Assert.DoesNotContain(plan.Edits, e => e.Path == shop.PathOf(Program));
        Assert.DoesNotContain("Shop.Core.Customers", plan.Edit(shop, Order).NewText);
        await there.AssertCompilesAsync(plan);
    }

    [Fact]
    public async Task GlobalUsingsAliasesAndTheTypesOwnFileLoseTheEmptiedNamespaceToo()
    {
        var there = await MovedToCustomersAsync(shop.Solution);
        var core = there.Projects.Single(p => p.Name == "Shop.Core");
        var globals = shop.PathOf("src/Shop.Core/GlobalUsings.cs");
        there = core.AddDocument("GlobalUsings.cs", SourceText.From("global using Shop.Core.Customers;\n"), filePath: globals).Project.Solution;
        there = await WithTextAsync(there, "src/Shop.Core/Delegates.cs", text => "using Clients = Shop.Core.Customers;\n" + text);
        there = await WithTextAsync(there, Customer, text => "using Shop.Core.Customers;\n\n" + text);

        var plan = await there.PlanAsync(MovePlans.ToNamespace(shop, Customer, "Customer", "Shop.Core.Models"));

        Assert.Equal("", plan.Edit(shop, "src/Shop.Core/GlobalUsings.cs").NewText);
        Assert.Equal(await TextAsync(shop.Solution, "src/Shop.Core/Delegates.cs"), plan.Edit(shop, "src/Shop.Core/Delegates.cs").NewText);
        Assert.Equal(await TextAsync(shop.Solution, Customer), plan.Edit(shop, Customer).NewText);
        await there.AssertCompilesAsync(plan);
    }

    /// <summary>Customer moved to Shop.Core.Customers, the only type there, with its plan applied in memory.</summary>
    private async Task<Solution> MovedToCustomersAsync(Solution solution)
    {
        var plan = await solution.PlanAsync(MovePlans.ToNamespace(shop, Customer, "Customer", "Shop.Core.Customers"));
        await solution.AssertCompilesAsync(plan);
        return await solution.ApplyAsync(plan);
    }

    private async Task<Solution> WithTextAsync(Solution solution, string relative, Func<string, string> change)
    {
        var id = solution.GetDocumentIdsWithFilePath(shop.PathOf(relative)).Single();
        return solution.WithDocumentText(id, SourceText.From(change(await TextAsync(solution, relative))));
    }

    private async Task<string> TextAsync(Solution solution, string relative)
    {
        var id = solution.GetDocumentIdsWithFilePath(shop.PathOf(relative)).Single();
        return (await solution.GetDocument(id)!.GetTextAsync()).ToString();
    }
}
