using RoslynMcp.Host.Features.Navigation;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

[Collection(ShopCollection.Name)]
public sealed class CallHierarchyTests(ShopSolution shop)
{
    private const string Program = "src/Shop.App/Program.cs";
    private const string Calculator = "src/Shop.Core/Services/PriceCalculator.cs";
    private const string Report = "src/Shop.App/Reporting/Report.cs";

    [Fact]
    public async Task CalculateIsCalledOnceFromMain()
    {
        var hierarchy = await CallsAtAsync(Program, 21, 41, incoming: true, outgoing: false);

        Assert.Equal("Shop.Core.Services.PriceCalculator.Calculate(decimal)", hierarchy.Symbol.Symbol.Display);
        Assert.Equal($"{Calculator}:11:24-11:33", Where(hierarchy.Symbol.Location!.Span));
        var caller = Assert.Single(hierarchy.Incoming);
        Assert.Equal("Shop.App.Program.Main(string[])", caller.Symbol.Symbol.Display);
        Assert.Equal($"{Program}:11:28-11:32", Where(caller.Symbol.Location!.Span));
        var site = Assert.Single(caller.Sites);
        Assert.Equal($"{Program}:21:41-21:50", Where(site.Span));
        Assert.Equal("decimal single = calculator.Calculate(10m);", site.LineText);
        Assert.Empty(hierarchy.Outgoing);
    }

    [Fact]
    public async Task RoundHasOneGroupPerCallerOrderedByTheirSites()
    {
        var hierarchy = await CallsAtAsync(Calculator, 23, 31, incoming: true, outgoing: false);

        Assert.Equal(
            [
                ("Shop.App.Reporting.Report.Render(decimal)", $"{Report}:25:44-25:49"),
                ("Shop.Core.Services.PriceCalculator.Calculate(decimal)", $"{Calculator}:11:52-11:57"),
                ("Shop.Core.Services.PriceCalculator.Calculate(decimal, int)", $"{Calculator}:16:66-16:71"),
                ("Shop.Core.Services.PriceCalculator.Calculate(Shop.Core.Models.Order)", $"{Calculator}:21:50-21:55"),
            ],
            hierarchy.Incoming.Select(g => (g.Symbol.Symbol.Display, Where(Assert.Single(g.Sites).Span))));
    }

    [Fact]
    public async Task AnInterfaceMemberIsCalledOnlyWhereItIsTheBoundMember()
    {
        // Report.Render calls Greeter.Greet, an implementation: that call is Greeter.Greet's, not IGreeter.Greet's.
        var hierarchy = await CallsAtAsync("src/Shop.Core/Services/IGreeter.cs", 5, 16, incoming: true, outgoing: true);

        var caller = Assert.Single(hierarchy.Incoming);
        Assert.Equal(("Shop.App.Program.Main(string[])", $"{Program}:25:39-25:44"), (caller.Symbol.Symbol.Display, Where(Assert.Single(caller.Sites).Span)));
        Assert.Empty(hierarchy.Outgoing);
    }

    [Fact]
    public async Task PropertyCallersReadOrWriteIt()
    {
        var hierarchy = await CallsAtAsync("src/Shop.Core/Models/Customer.cs", 16, 19, incoming: true, outgoing: true);

        Assert.Equal("Property", hierarchy.Symbol.Symbol.Kind);
        Assert.Equal(
            [("Shop.App.Program.Main(string[])", $"{Program}:14:51-14:55"), ("Shop.App.Reporting.Report.Render(decimal)", $"{Report}:22:56-22:60")],
            hierarchy.Incoming.Select(g => (g.Symbol.Symbol.Display, Where(Assert.Single(g.Sites).Span))));
        Assert.Empty(hierarchy.Outgoing);
    }

    [Fact]
    public async Task RenderCallsSourceAndMetadataMembers()
    {
        var hierarchy = await CallsAtAsync(Report, 17, 19, incoming: false, outgoing: true);

        Assert.Equal(
            [
                ("System.Text.StringBuilder.StringBuilder()", (string?)null, $"{Report}:19:27-19:40"),
                ("Shop.Core.Services.IRepository<T>.All()", "src/Shop.Core/Services/IRepository.cs:9:26-9:29", $"{Report}:20:50-20:53"),
                ("System.Text.StringBuilder.AppendLine(string)", null, $"{Report}:22:21-22:31 {Report}:25:17-25:27"),
                ("Shop.Core.Services.Greeter.Greet(string)", "src/Shop.Core/Services/Greeter.cs:5:27-5:32", $"{Report}:22:41-22:46"),
                ("Shop.Core.Models.Customer.Name", "src/Shop.Core/Models/Customer.cs:16:19-16:23", $"{Report}:22:56-22:60"),
                ("Shop.Core.Services.PriceCalculator.Round(decimal)", $"{Calculator}:23:31-23:36", $"{Report}:25:44-25:49"),
                ("decimal.ToString()", null, $"{Report}:25:58-25:66"),
                ("System.Text.StringBuilder.ToString()", null, $"{Report}:26:24-26:32"),
            ],
            Describe(hierarchy.Outgoing));
        Assert.Empty(hierarchy.Incoming);
        var constructor = hierarchy.Outgoing[0].Symbol.Symbol;
        Assert.Equal(("Constructor", true, "M:System.Text.StringBuilder.#ctor"), (constructor.Kind, constructor.IsMetadata, constructor.Key));
    }

    [Fact]
    public async Task MainCallsDefinitionsOfExtensionsGenericsAndImplicitConstructors()
    {
        var outgoing = (await CallsAtAsync(Program, 11, 28, incoming: false, outgoing: true)).Outgoing;

        Assert.Equal(
            [
                "Shop.Data.CustomerRepository.CustomerRepository()",
                "Shop.Data.InMemoryRepository<T>.Add(T)",
                "Shop.Core.Models.Customer.Customer()",
                "Shop.Core.Models.Customer.Id",
                "Shop.Core.Models.Customer.Name",
                "Shop.Data.CustomerRepository.Find(int)",
                "System.Collections.Generic.List<T>.List()",
                "System.Collections.Generic.List<T>.Add(T)",
                "Shop.Core.Extensions.StringExtensions.Shout(this string)",
                "Shop.Core.Services.PriceCalculator.PriceCalculator()",
                "Shop.Core.Services.PriceCalculator.Calculate(decimal)",
                "Shop.Core.Services.PriceCalculator.Calculate(decimal, int)",
                "Shop.Core.Services.Greeter.Greeter()",
                "Shop.Core.Services.IGreeter.Greet(string)",
                "Shop.Core.Models.Order.Order()",
                "Shop.Core.Models.Order.Id",
                "Shop.Core.Models.Order.Customer",
                "Shop.Core.Models.Order.Lines",
                "Shop.Core.Models.Order.Line.Line()",
                "Shop.Core.Models.Order.Line.Sku",
                "Shop.Core.Models.Order.Line.Quantity",
                "Shop.Core.Models.Order.Line.UnitPrice",
                "Shop.Core.Models.Money.Money(decimal, string)",
                "Shop.Core.Models.Order.Total()",
                "System.Console.WriteLine(string)",
                "string.Join(string, System.Collections.Generic.IEnumerable<string>)",
            ],
            outgoing.Select(g => g.Symbol.Symbol.Display));
        var byDisplay = Describe(outgoing).ToDictionary(g => g.Display);
        // The implicit constructor is located at its class.
        Assert.Equal("src/Shop.Data/CustomerRepository.cs:7:14-7:32", byDisplay["Shop.Data.CustomerRepository.CustomerRepository()"].Location);
        Assert.Equal($"{Program}:18:19-18:22 {Program}:28:25-28:28", byDisplay["System.Collections.Generic.List<T>.Add(T)"].Sites);
        Assert.Equal(
            ("src/Shop.Core/Extensions/StringExtensions.cs:5:26-5:31", $"{Program}:18:29-18:34"),
            (byDisplay["Shop.Core.Extensions.StringExtensions.Shout(this string)"].Location, byDisplay["Shop.Core.Extensions.StringExtensions.Shout(this string)"].Sites));
        Assert.Equal(
            ((string?)null, $"{Program}:32:28-32:37 {Program}:33:28-33:37"),
            (byDisplay["System.Console.WriteLine(string)"].Location, byDisplay["System.Console.WriteLine(string)"].Sites));
    }

    [Fact]
    public async Task ALocalHasNoCalls()
    {
        var error = await shop.ErrAsync(new RequestBody.CallHierarchy(new CallHierarchyRequest(shop.At(Program, 13, 17), true, true)));

        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
        Assert.Contains("needs a method or property", error.Message);
        Assert.Contains("\"kind\":\"Local\"", error.DetailsJson);
    }

    [Fact]
    public async Task ConstructorInitializersIndexersLocalFunctionsAndPrimaryConstructorsAreCalls()
    {
        var solution = AdhocSolutions.WithFile("Calls", """
            using System.Collections.Generic;

            public class Base { public Base(int n) { } }

            public class Derived : Base
            {
                private readonly List<int> items = new();
                public Derived() : base(Helper.Make()) { }
                public int this[int i] => items[i];
                public int Count => items.Count;
                public int Run(Derived other)
                {
                    List<int> copy = new();
                    int Twice(int v) => v * 2;
                    return Twice(other[0]) + Count + copy.Count;
                }
            }

            public static class Helper
            {
                public static int Make() => 1;
                public static Named Create() => new Named("x");
            }

            public record Named(string Name) : Base(Name.Length);
            """);
        var file = AdhocSolutions.PathOf("Calls");
        async Task<CallHierarchy> CallsAt(uint line, uint column) =>
            await CallHierarchyHandler.HandleAsync(solution, new CallHierarchyRequest(new Position(file, line, column), true, true), CancellationToken.None);
        IEnumerable<(string, string)> Outgoing(CallHierarchy hierarchy) =>
            hierarchy.Outgoing.Select(g => (g.Symbol.Symbol.Display, string.Join(" ", g.Sites.Select(s => SpanText.Of(s.Span, AdhocSolutions.Root)))));

        // `base(...)` is the site of the base constructor.
        Assert.Equal(
            [("Base.Base(int)", "Calls.cs:8:24-8:28"), ("Helper.Make()", "Calls.cs:8:36-8:40")],
            Outgoing(await CallsAt(8, 12)));
        // `new()` is the site of its constructor, `[0]` of the indexer.
        Assert.Equal(
            [
                ("System.Collections.Generic.List<T>.List()", "Calls.cs:13:26-13:29"),
                ("Twice(int)", "Calls.cs:15:16-15:21"),
                ("Derived.this[int]", "Calls.cs:15:27-15:30"),
                ("Derived.Count", "Calls.cs:15:34-15:39"),
                ("System.Collections.Generic.List<T>.Count", "Calls.cs:15:47-15:52"),
            ],
            Outgoing(await CallsAt(11, 16)));
        // A primary constructor calls its base from the type's base list.
        var named = await CallsAt(22, 45);
        Assert.Equal(("Named.Named(string)", "Constructor"), (named.Symbol.Symbol.Display, named.Symbol.Symbol.Kind));
        Assert.Equal([("Base.Base(int)", "Calls.cs:25:36-25:40"), ("string.Length", "Calls.cs:25:46-25:52")], Outgoing(named));
        Assert.Equal(["Helper.Create()"], named.Incoming.Select(g => g.Symbol.Symbol.Display));
        // A local function's caller is the method declaring it.
        var twice = await CallsAt(14, 13);
        Assert.Equal(
            ("LocalFunction", "Derived.Run(Derived)", "Calls.cs:15:16-15:21"),
            (twice.Symbol.Symbol.Kind, Assert.Single(twice.Incoming).Symbol.Symbol.Display, SpanText.Of(Assert.Single(twice.Incoming[0].Sites).Span, AdhocSolutions.Root)));
    }

    private async Task<CallHierarchy> CallsAtAsync(string file, uint line, uint column, bool incoming, bool outgoing) =>
        (await shop.OkAsync<ResponseBody.CallHierarchy>(
            new RequestBody.CallHierarchy(new CallHierarchyRequest(shop.At(file, line, column), incoming, outgoing)))).Value;

    /// <summary>Each group's callee or caller, its declaration and its sites (space-separated).</summary>
    private IEnumerable<(string Display, string? Location, string Sites)> Describe(IEnumerable<CallGroup> groups) =>
        groups.Select(g => (
            g.Symbol.Symbol.Display,
            g.Symbol.Location is { } location ? Where(location.Span) : null,
            string.Join(" ", g.Sites.Select(s => Where(s.Span)))));

    private string Where(Span span) => SpanText.Of(span, shop.Root);
}
