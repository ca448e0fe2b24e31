using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;
using static RoslynMcp.Host.Tests.RenamePlans;

namespace RoslynMcp.Host.Tests;

/// <summary>rename plans on the Rename fixture (positions from its FIXTURE.md).</summary>
[Collection(RenameCollection.Name)]
public sealed class RenameTests(RenameSolution fixture, ITestOutputHelper output)
{
    private const string Invoice = "Core/Models/Invoice.cs";
    private const string Pricing = "Core/Services/IPricing.cs";
    private const string Formatter = "Core/Services/Formatter.cs";
    private const string Program = "App/Program.cs";
    private const string Store = "Data/InvoiceStore.cs";

    [Fact]
    public async Task ClassRenamesInAllThreeProjectsAndItsFile()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Program, 13, 23, "Bill", renameFile: true));
        output.WriteLine(Dump(plan));

        Assert.Equal(
            new RenamedSymbol("Invoice", "Bill", "Class", "Rename.Core.Models.Invoice", "Rename.Core.Models.Bill", fixture.At(Invoice, 4, 14)),
            plan.Symbol);
        Assert.Equal(
            [fixture.PathOf("App/Program.cs"), fixture.PathOf("Core/Models/Bill.cs"), fixture.PathOf(Invoice), fixture.PathOf(Pricing), fixture.PathOf(Store)],
            plan.Edits.Select(e => e.Path));
        Assert.Equal(EditKind.Delete, plan.Edit(fixture, Invoice).Kind);
        Assert.Equal("Renamed to Bill.cs", plan.Edit(fixture, Invoice).Description);
        var created = plan.Edit(fixture, "Core/Models/Bill.cs");
        Assert.Equal(EditKind.Create, created.Kind);
        Assert.Equal("Renamed from Invoice.cs; 3 edits", created.Description);
        Assert.Contains("public class Bill\n", created.NewText);
        Assert.Contains("    public Bill(decimal amount)\n", created.NewText);
        Assert.Contains("public class RecurringInvoice : Bill\n", created.NewText);
        // Comments and strings keep the old name unless asked.
        Assert.Contains("/// <summary>An Invoice to a customer.</summary>", created.NewText);
        Assert.Contains("\"Invoice of \"", created.NewText);
        var program = plan.Edit(fixture, Program).NewText;
        Assert.Contains("store.Add(new Bill(10m));", program);
        Assert.Contains("foreach (Bill invoice in store.All())", program);
        Assert.Contains("// Prints the Invoice totals.", program);
        Assert.Contains("List<Bill> invoices", plan.Edit(fixture, Store).NewText);
        Assert.Contains("Renamed Invoice.cs to Bill.cs", plan.Warnings);
        // Declaration, constructor, base list; 3 parameters in IPricing.cs; 3 in Data; 2 in App.
        Assert.Equal(11u, plan.References);
        Assert.Equal(11u, plan.TotalEdits);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task AStructWhoseConstructorsDocumentationNamesItRenames()
    {
        const string reader = "Core/Traps/LineReader.cs";
        var plan = await fixture.RenamePlanAsync(Rename(fixture, reader, 4, 15, "TextLineReader"));

        var text = plan.Edit(fixture, reader).NewText;
        Assert.Contains("public struct TextLineReader\n", text);
        Assert.Contains("/// Initializes a new instance of the <see cref=\"TextLineReader\"/> struct.", text);
        Assert.Contains("    public TextLineReader(string text)\n", text);
        Assert.Equal(3u, plan.References);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task ClassKeepsItsFileWhenNotAsked()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Invoice, 6, 12, "Bill"));

        Assert.Equal("Invoice", plan.Symbol.Name);
        Assert.Equal(EditKind.Modify, plan.Edit(fixture, Invoice).Kind);
        Assert.DoesNotContain(plan.Edits, e => e.Kind != EditKind.Modify);
        Assert.Empty(plan.Warnings);
    }

    [Fact]
    public async Task CommentsAndStringsAreRenamedWhenAsked()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Invoice, 4, 14, "Bill", comments: true, strings: true));
        output.WriteLine(Dump(plan));

        var invoice = plan.Edit(fixture, Invoice).NewText;
        Assert.Contains("/// <summary>An Bill to a customer.</summary>", invoice);
        Assert.Contains("\"Bill of \"", invoice);
        var program = plan.Edit(fixture, Program).NewText;
        Assert.Contains("// Prints the Bill totals.", program);
        Assert.Contains("\"Bill count: \"", program);
        Assert.Equal(11u, plan.References);
        Assert.Equal(15u, plan.TotalEdits);
        Assert.Contains("Renamed in 4 comments/strings", plan.Warnings);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task InterfaceMemberRenamesItsImplementations()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Program, 17, 37, "CostOf"));
        output.WriteLine(Dump(plan));

        Assert.Equal("Rename.Core.Services.IPricing.PriceOf(Rename.Core.Models.Invoice)", plan.Symbol.Display);
        Assert.Equal("Rename.Core.Services.IPricing.CostOf(Rename.Core.Models.Invoice)", plan.Symbol.NewDisplay);
        var pricing = plan.Edit(fixture, Pricing).NewText;
        Assert.DoesNotContain("PriceOf", pricing);
        Assert.Equal(3, pricing.Split("CostOf(Invoice invoice)").Length - 1);
        Assert.Contains("pricing.CostOf(invoice)", plan.Edit(fixture, Program).NewText);
        Assert.Equal(4u, plan.References);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task OverrideRenamesItsBase()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Invoice, 22, 28, "Summary"));

        var invoice = plan.Edit(fixture, Invoice).NewText;
        Assert.Contains("public virtual string Summary() =>", invoice);
        Assert.Contains("public override string Summary() => \"Recurring \" + base.Summary();", invoice);
        Assert.Contains("invoice.Summary()", plan.Edit(fixture, Program).NewText);
        Assert.Equal(4u, plan.References);
    }

    [Fact]
    public async Task OneOverloadAloneOrAllOfThem()
    {
        var one = await fixture.RenamePlanAsync(Rename(fixture, Formatter, 7, 26, "Money"));
        output.WriteLine(Dump(one));
        var text = one.Edit(fixture, Formatter).NewText;
        Assert.Contains("public static string Money(decimal value)", text);
        Assert.Contains("public static string Format(int value)", text);
        Assert.Contains("var text = Money(amount);", text);
        Assert.Contains("return Format(text, width) + Format(width);", text);
        Assert.Equal(2u, one.References);
        Assert.Empty(one.Warnings);

        var all = await fixture.RenamePlanAsync(Rename(fixture, Formatter, 7, 26, "Money", overloads: true));
        Assert.DoesNotContain("Format(", all.Edit(fixture, Formatter).NewText);
        Assert.Equal(6u, all.References);
        Assert.Contains("Also renamed 2 overloads", all.Warnings);
        await fixture.Solution.AssertCompilesAsync(all.Edits);
    }

    [Fact]
    public async Task ParameterRenamesItsUsesAndNamedArguments()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Program, 19, 54, "multiplier"));

        Assert.Equal("Parameter", plan.Symbol.Kind);
        Assert.Equal(fixture.At(Formatter, 17, 57), plan.Symbol.Location);
        var text = plan.Edit(fixture, Formatter).NewText;
        Assert.DoesNotContain("factor", text);
        Assert.Equal(5, text.Split("multiplier").Length - 1);
        Assert.Contains("Formatter.Scale(price, multiplier: 2m)", plan.Edit(fixture, Program).NewText);
        Assert.Equal(6u, plan.References);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task LocalRenamesItsUses()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Formatter, 19, 13, "scaled"));

        Assert.Equal("Local", plan.Symbol.Kind);
        var edit = Assert.Single(plan.Edits);
        Assert.Contains("scaled = scaled - factor;", edit.NewText);
        Assert.Contains("return scaled + factor;", edit.NewText);
        Assert.Equal(4u, plan.References);
        Assert.Equal(4u, plan.TotalEdits);
    }

    [Fact]
    public async Task MemberOfTheNewNameIsACollision()
    {
        var error = await fixture.ErrAsync(Rename(fixture, "Core/Traps/Totals.cs", 7, 16, "Total"));
        output.WriteLine(error.DetailsJson);
        Assert.Equal(["Core/Traps/Totals.cs:5:16"], fixture.Conflicts(error));
    }

    [Fact]
    public async Task ParameterOfTheNewNameIsACollision()
    {
        var error = await fixture.ErrAsync(Rename(fixture, "Core/Traps/Counter.cs", 7, 13, "limit"));
        Assert.Equal(["Core/Traps/Counter.cs:5:37"], fixture.Conflicts(error));
    }

    [Fact]
    public async Task LocalThatWouldShadowAFieldIsACollision()
    {
        var error = await fixture.ErrAsync(Rename(fixture, "Core/Traps/Labeler.cs", 9, 16, "name"));
        output.WriteLine(error.Message);
        Assert.Equal(["Core/Traps/Labeler.cs:10:31"], fixture.Conflicts(error));
    }

    [Fact]
    public async Task MetadataSymbolIsRefused()
    {
        var error = await fixture.ErrAsync(Rename(fixture, Program, 18, 21, "Print"));
        Assert.Equal(ErrorCode.SymbolNotInSource, error.Code);
        Assert.Contains("System.Console", error.Message);
    }

    [Theory]
    [InlineData("2fast")]
    [InlineData("class")]
    [InlineData("a-b")]
    public async Task InvalidNamesAreRefused(string newName)
    {
        var error = await fixture.ErrAsync(Rename(fixture, Formatter, 19, 13, newName));
        Assert.Equal(ErrorCode.InvalidSymbolName, error.Code);
        Assert.Equal($$"""{"newName":"{{newName}}"}""", error.DetailsJson);
    }

    [Fact]
    public async Task EscapedKeywordIsAName()
    {
        var plan = await fixture.RenamePlanAsync(Rename(fixture, Formatter, 19, 13, "@class"));
        Assert.Contains("return @class + factor;", Assert.Single(plan.Edits).NewText);
    }

    [Fact]
    public async Task SameNameIsRefused()
    {
        var error = await fixture.ErrAsync(Rename(fixture, Formatter, 19, 13, "result"));
        Assert.Equal(ErrorCode.InvalidParameter, error.Code);
        Assert.Equal("""{"field":"newName"}""", error.DetailsJson);
    }

    [Fact]
    public async Task NoSymbolIsSymbolNotFound()
    {
        var error = await fixture.ErrAsync(Rename(fixture, Formatter, 2, 1, "Anything"));
        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
    }
}
