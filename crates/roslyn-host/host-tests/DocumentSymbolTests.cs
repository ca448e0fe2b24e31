using RoslynMcp.Host.Features.Navigation;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

[Collection(ShopCollection.Name)]
public sealed class DocumentSymbolTests(ShopSolution shop)
{
    [Fact]
    public async Task PriceCalculatorListsItsNamespaceClassAndMethods()
    {
        const string file = "src/Shop.Core/Services/PriceCalculator.cs";
        var symbols = await SymbolsOfAsync(file);

        Assert.Equal(
            [
                ("Shop.Core.Services", "Namespace", null, $"{file}:4:11-4:29"),
                ("PriceCalculator", "Class", "Shop.Core.Services", $"{file}:6:18-6:33"),
                ("Calculate", "Method", "PriceCalculator", $"{file}:11:24-11:33"),
                ("Calculate", "Method", "PriceCalculator", $"{file}:16:24-16:33"),
                ("Calculate", "Method", "PriceCalculator", $"{file}:21:24-21:33"),
                ("Round", "Method", "PriceCalculator", $"{file}:23:31-23:36"),
            ],
            symbols.Select(s => (s.Name, s.Kind, s.Container, Where(s.Selection))));
        // Ranges cover whole declarations, without the doc comments above them.
        Assert.Equal(
            [$"{file}:4:1-25:2", $"{file}:6:5-24:6", $"{file}:11:9-11:65", $"{file}:16:9-16:90", $"{file}:21:9-21:71", $"{file}:23:9-23:76"],
            symbols.Select(s => Where(s.Range)));
        Assert.Equal(
            [
                "Shop.Core.Services",
                "Shop.Core.Services.PriceCalculator",
                "Shop.Core.Services.PriceCalculator.Calculate(decimal)",
                "Shop.Core.Services.PriceCalculator.Calculate(decimal, int)",
                "Shop.Core.Services.PriceCalculator.Calculate(Shop.Core.Models.Order)",
                "Shop.Core.Services.PriceCalculator.Round(decimal)",
            ],
            symbols.Select(s => s.Detail));
    }

    [Fact]
    public async Task ANestedTypeIsContainedByItsType()
    {
        const string file = "src/Shop.Core/Models/Order.Lines.cs";
        var symbols = await SymbolsOfAsync(file);

        Assert.Equal(
            [
                ("Shop.Core.Models", "Namespace", null, $"{file}:3:1-20:2"),
                ("Order", "Class", "Shop.Core.Models", $"{file}:5:1-20:2"),
                ("Line", "Class", "Order", $"{file}:10:5-17:6"),
                ("Sku", "Property", "Line", $"{file}:12:9-12:56"),
                ("Quantity", "Property", "Line", $"{file}:14:9-14:42"),
                ("UnitPrice", "Property", "Line", $"{file}:16:9-16:47"),
                ("Lines", "Property", "Order", $"{file}:19:5-19:46"),
            ],
            symbols.Select(s => (s.Name, s.Kind, s.Container, Where(s.Range))));
        Assert.Equal(($"{file}:3:11-3:27", $"{file}:10:18-10:22"), (Where(symbols[0].Selection), Where(symbols[2].Selection)));
        Assert.Equal("Shop.Core.Models.Order.Line.UnitPrice", symbols[5].Detail);
    }

    [Fact]
    public async Task FieldsAndConstructorsAreListedButNotLocals()
    {
        const string file = "src/Shop.App/Reporting/Report.cs";
        var symbols = await SymbolsOfAsync(file);

        Assert.Equal(
            [
                ("Shop.App.Reporting", "Namespace", null, $"{file}:5:11-5:29"),
                ("Report", "Class", "Shop.App.Reporting", $"{file}:7:14-7:20"),
                ("_customers", "Field", "Report", $"{file}:9:44-9:54"),
                ("_greeter", "Field", "Report", $"{file}:10:30-10:38"),
                ("Report", "Constructor", "Report", $"{file}:12:12-12:18"),
                ("Render", "Method", "Report", $"{file}:17:19-17:25"),
            ],
            symbols.Select(s => (s.Name, s.Kind, s.Container, Where(s.Selection))));
        Assert.Equal($"{file}:9:5-9:55", Where(symbols[2].Range));
        Assert.Equal("Shop.App.Reporting.Report.Report(Shop.Core.Services.IRepository<Shop.Core.Models.Customer>)", symbols[4].Detail);
    }

    [Fact]
    public async Task EveryKindOfDeclarationIsListed()
    {
        var solution = AdhocSolutions.WithFile("Kinds", """
            namespace Outer
            {
                namespace Inner
                {
                    public delegate void Handler(int value);

                    public interface IShape { double Area { get; } }

                    public record Point(int X, int Y);

                    public struct Vector
                    {
                        private int x, y;
                        public event System.Action? Moved, Resized;
                        public event System.Action Changed { add { } remove { } }
                        public int this[int index] => index == 0 ? x : y;
                        public static Vector operator +(Vector a, Vector b) => a;
                        public static implicit operator int(Vector v) => v.x;
                        public Vector(int x) { this.x = x; y = 0; Moved = null; Resized = null; }
                        public int Sum() { return Add(x, y); int Add(int a, int b) => a + b; }
                    }

                    public class Resource { ~Resource() { } }
                }
            }
            """);
        var symbols = (await DocumentSymbolsHandler.HandleAsync(
            solution, new DocumentRequest(AdhocSolutions.PathOf("Kinds")), CancellationToken.None)).Symbols;

        Assert.Equal(
            [
                ("Outer", "Namespace", null, "Kinds.cs:1:11-1:16"),
                ("Inner", "Namespace", "Outer", "Kinds.cs:3:15-3:20"),
                ("Handler", "Delegate", "Inner", "Kinds.cs:5:30-5:37"),
                ("IShape", "Interface", "Inner", "Kinds.cs:7:26-7:32"),
                ("Area", "Property", "IShape", "Kinds.cs:7:42-7:46"),
                ("Point", "Record", "Inner", "Kinds.cs:9:23-9:28"),
                ("Vector", "Struct", "Inner", "Kinds.cs:11:23-11:29"),
                ("x", "Field", "Vector", "Kinds.cs:13:25-13:26"),
                ("y", "Field", "Vector", "Kinds.cs:13:28-13:29"),
                ("Moved", "Event", "Vector", "Kinds.cs:14:41-14:46"),
                ("Resized", "Event", "Vector", "Kinds.cs:14:48-14:55"),
                ("Changed", "Event", "Vector", "Kinds.cs:15:40-15:47"),
                ("this[]", "Property", "Vector", "Kinds.cs:16:24-16:28"),
                ("op_Addition", "Operator", "Vector", "Kinds.cs:17:43-17:44"),
                ("op_Implicit", "Operator", "Vector", "Kinds.cs:18:45-18:48"),
                ("Vector", "Constructor", "Vector", "Kinds.cs:19:20-19:26"),
                ("Sum", "Method", "Vector", "Kinds.cs:20:24-20:27"),
                ("Add", "LocalFunction", "Sum", "Kinds.cs:20:54-20:57"),
                ("Resource", "Class", "Inner", "Kinds.cs:23:22-23:30"),
                ("~Resource", "Destructor", "Resource", "Kinds.cs:23:34-23:42"),
            ],
            symbols.Select(s => (s.Name, s.Kind, s.Container, SpanText.Of(s.Selection, AdhocSolutions.Root))));
        // Each variable of a field declaration ranges over the whole declaration.
        Assert.Equal(["Kinds.cs:13:13-13:30"], symbols.Where(s => s.Kind == "Field").Select(s => SpanText.Of(s.Range, AdhocSolutions.Root)).Distinct());
        Assert.Equal("Outer.Inner.Vector.operator +(Outer.Inner.Vector, Outer.Inner.Vector)", symbols[13].Detail);
    }

    [Fact]
    public async Task AFileOutsideTheSolutionIsRefused()
    {
        var error = await shop.ErrAsync(new RequestBody.DocumentSymbols(new DocumentRequest(shop.PathOf("src/Shop.Core/Missing.cs"))));

        Assert.Equal(ErrorCode.SourceNotInWorkspace, error.Code);
    }

    private async Task<ValueList<DocumentSymbol>> SymbolsOfAsync(string file) =>
        (await shop.OkAsync<ResponseBody.DocumentSymbols>(new RequestBody.DocumentSymbols(new DocumentRequest(shop.PathOf(file))))).Value.Symbols;

    private string Where(Span span) => SpanText.Of(span, shop.Root);
}
