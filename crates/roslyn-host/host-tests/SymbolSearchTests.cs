using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

[Collection(ShopCollection.Name)]
public sealed class SymbolSearchTests(ShopSolution shop)
{
    [Fact]
    public async Task APrefixFindsTypesAndMembersInSourceOrder()
    {
        var matches = await SearchAsync("Cust");

        Assert.Equal(
            [
                ("Shop.App.Reporting.Report._customers", "Field", "src/Shop.App/Reporting/Report.cs:9:44-9:54"),
                ("Shop.Core.Models.Customer", "Class", "src/Shop.Core/Models/Customer.cs:6:14-6:22"),
                ("Shop.Core.Models.Order.Customer", "Property", "src/Shop.Core/Models/Order.cs:10:22-10:30"),
                ("Shop.Data.CustomerRepository", "Class", "src/Shop.Data/CustomerRepository.cs:7:14-7:32"),
            ],
            matches.Select(m => (m.Symbol.Display, m.Symbol.Kind, Where(m.Location!.Span))));
        Assert.Equal("public class Customer", matches[1].Location!.LineText);
        Assert.Equal("T:Shop.Core.Models.Customer", matches[1].Symbol.Key);
    }

    [Fact]
    public async Task EachPartOfAPartialTypeIsAMatch()
    {
        var matches = await SearchAsync("Order");

        Assert.Equal(
            [
                ("Shop.Core.OrderPlaced", "src/Shop.Core/Delegates.cs:5:22-5:33"),
                ("Shop.Core.Models.Order", "src/Shop.Core/Models/Order.Lines.cs:5:22-5:27"),
                ("Shop.Core.Models.Order", "src/Shop.Core/Models/Order.cs:6:22-6:27"),
                ("Shop.Core.Models.OrderStatus", "src/Shop.Core/Models/OrderStatus.cs:3:13-3:24"),
            ],
            matches.Select(m => (m.Symbol.Display, Where(m.Location!.Span))));
        Assert.Equal(matches[1].Symbol, matches[2].Symbol);
    }

    [Fact]
    public async Task CamelCaseHumpsMatch()
    {
        var matches = await SearchAsync("CR");

        Assert.Equal(["Shop.Data.CustomerRepository"], matches.Select(m => m.Symbol.Display));
    }

    [Fact]
    public async Task MethodsMatchCaseInsensitively()
    {
        var matches = await SearchAsync("find");

        Assert.Equal(
            [
                "Shop.Core.Services.IRepository<T>.Find(int)",
                "Shop.Data.CustomerRepository.Find(int)",
                "Shop.Data.CustomerRepository.FindByEmail(string)",
                "Shop.Data.InMemoryRepository<T>.Find(int)",
            ],
            matches.Select(m => m.Symbol.Display));
    }

    [Fact]
    public async Task AQueryMatchingNothingFindsNothing()
    {
        Assert.Empty(await SearchAsync("Zzyzx"));
    }

    private async Task<ValueList<SymbolRef>> SearchAsync(string query) =>
        (await shop.OkAsync<ResponseBody.SearchSymbols>(new RequestBody.SearchSymbols(new SymbolSearchRequest(query)))).Value.Symbols;

    private string Where(Span span) => SpanText.Of(span, shop.Root);
}
