using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>format plans on the Textual fixture (files and expected texts from its FIXTURE.md).</summary>
[Collection(TextualCollection.Name)]
public sealed class FormatTests(TextualSolution fixture, ITestOutputHelper output)
{
    private const string Orders = "Textual/Orders/OrderService.cs";
    private const string Customers = "Textual/Customers/CustomerService.cs";
    private const string Reports = "Textual/Reports/ReportBuilder.cs";

    private const string OrdersFormatted = """
        using System.Threading.Tasks;

        namespace Textual.Orders;

        public class OrderService
        {
            private readonly Customers.CustomerService customers = new Customers.CustomerService();

            // todo: cache orders
            public async Task<Order> GetOrderAsync(int id)
            {
                var customer = await customers.GetCustomerAsync(id);
                return new Order(id, customer.Id, (decimal) id * 2);
            }
        }

        """;

    private const string CustomersFormatted = """
        using System.Threading.Tasks;

        namespace Textual.Customers;

        public class CustomerService
        {
            // TODO: read customers from a store
            public Task<Customer> GetCustomerAsync(int id)
            {
                var name = "Customer " + id;
                return Task.FromResult(new Customer(id, name));
            }

            public int Count()
            {
                return 0;
            }
        }

        """;

    private RequestBody Format(string? file = null, string? project = null, LineRange? lines = null) =>
        new RequestBody.PlanFormat(new FormatRequest(file is null ? null : fixture.PathOf(file), project, lines));

    private async Task<EditPlan> PlanAsync(RequestBody request)
    {
        var plan = (await fixture.OkAsync<ResponseBody.FormatPlan>(request)).Value;
        output.WriteLine(string.Join("\n", plan.Edits.Select(e => $"--- {e.Path}: {e.Description}\n{e.NewText}").Prepend($"{plan.Title}: {plan.Documents} documents, {plan.Changes} changes")));
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
        return plan;
    }

    private async Task<string> OriginalAsync(string relative) =>
        (await PositionResolver.FindDocument(fixture.Solution, fixture.PathOf(relative)).GetTextAsync()).ToString();

    [Fact]
    public async Task OneFileFollowsTheEditorConfig()
    {
        var plan = await PlanAsync(Format(Orders));

        Assert.Equal("Format 1 file", plan.Title);
        Assert.Equal(1u, plan.Documents);
        Assert.Equal(8u, plan.Changes);
        var edit = Assert.Single(plan.Edits);
        Assert.Equal((EditKind.Modify, "Format"), (edit.Kind, edit.Description));
        Assert.Equal(OrdersFormatted, edit.NewText);
    }

    [Fact]
    public async Task OnlyTheGivenLinesAreFormatted()
    {
        var plan = await PlanAsync(Format(Customers, lines: new LineRange(9, 11)));

        var edit = Assert.Single(plan.Edits);
        Assert.Equal("Format lines 9-11", edit.Description);
        var original = (await OriginalAsync(Customers)).Split('\n');
        var expected = CustomersFormatted.Split('\n')[..11].Concat(original[11..]);
        Assert.Equal(string.Join('\n', expected), edit.NewText);
        Assert.Contains("    public  int   Count( ) {\n        return 0; }\n", edit.NewText);
    }

    [Theory]
    [InlineData(0u, 3u)]
    [InlineData(5u, 4u)]
    [InlineData(10u, 18u)]
    public async Task LinesOutsideTheFileAreRefused(uint start, uint end)
    {
        var error = await fixture.ErrAsync(Format(Customers, lines: new LineRange(start, end)));
        Assert.Equal(ErrorCode.InvalidLineNumber, error.Code);
    }

    [Fact]
    public async Task LinesWithoutAFileAreRefused()
    {
        var error = await fixture.ErrAsync(Format(project: "Textual", lines: new LineRange(1, 2)));
        Assert.Equal(ErrorCode.InvalidParameter, error.Code);
    }

    [Fact]
    public async Task AWellFormattedFileGetsNoEdit()
    {
        var plan = await PlanAsync(Format(Reports));

        Assert.Equal("Format 0 files", plan.Title);
        Assert.Equal(1u, plan.Documents);
        Assert.Equal(0u, plan.Changes);
        Assert.Empty(plan.Edits);
    }

    [Fact]
    public async Task TheProjectsBadlyFormattedFilesAreFormatted()
    {
        var plan = await PlanAsync(Format(project: "Textual"));

        Assert.Equal("Format 2 files", plan.Title);
        Assert.Equal(4u, plan.Documents);
        Assert.Equal(14u, plan.Changes);
        Assert.Equal([fixture.PathOf(Customers), fixture.PathOf(Orders)], plan.Edits.Select(e => e.Path));
        Assert.Equal([CustomersFormatted, OrdersFormatted], plan.Edits.Select(e => e.NewText));

        var solution = await PlanAsync(Format());
        Assert.Equal(plan.Edits, solution.Edits);
    }

    [Fact]
    public async Task AnUnknownProjectIsRefused()
    {
        var error = await fixture.ErrAsync(Format(project: "Nope"));
        Assert.Equal(ErrorCode.ProjectNotFound, error.Code);
    }
}
