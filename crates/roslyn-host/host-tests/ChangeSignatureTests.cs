using System.Reflection;
using System.Text.Json.Nodes;
using RoslynMcp.Host.Features.Signature;
using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>change_signature plans on the Signature fixture (positions from its FIXTURE.md).</summary>
[Collection(SignatureCollection.Name)]
public sealed class ChangeSignatureTests(SignatureSolution fixture, ITestOutputHelper output)
{
    private const string Pricing = "Lib/Pricing.cs";
    private const string Shipping = "Lib/Shipping.cs";
    private const string Orders = "Lib/Orders.cs";
    private const string Printer = "Lib/Printer.cs";
    private const string Discounted = "App/Discounted.cs";
    private const string Program = "App/Program.cs";

    private static SignatureParameter Keep(string name, string newName = "", string newType = "") => new(name, newName, newType, null);

    private static SignatureParameter Add(string name, string type, string defaultValue = "", string argument = "", bool named = false) =>
        new(name, "", "", new AddedParameter(type, defaultValue, argument, named));

    private RequestBody Change(string file, uint line, uint column, params SignatureParameter[] parameters) =>
        new RequestBody.PlanChangeSignature(new ChangeSignatureRequest(fixture.At(file, line, column), [.. parameters]));

    private async Task<ChangeSignaturePlan> PlanAsync(RequestBody request)
    {
        var plan = (await fixture.OkAsync<ResponseBody.ChangeSignaturePlan>(request)).Value;
        output.WriteLine(string.Join("\n", plan.Edits.Select(e => $"--- {e.Path}\n{e.NewText}").Append(string.Join("\n", plan.Warnings))));
        return plan;
    }

    private string TextOf(ChangeSignaturePlan plan, string relative) => Assert.Single(plan.Edits, e => e.Path == fixture.PathOf(relative)).NewText;

    [Fact]
    public void TheEngineHasTheShapeThisDriverExpects()
    {
        var features = typeof(Microsoft.CodeAnalysis.Completion.CompletionItem).Assembly;
        foreach (var name in RoslynChangeSignature.Types)
        {
            Assert.NotNull(features.GetType("Microsoft.CodeAnalysis.ChangeSignature." + name));
        }
        Type T(string name) => features.GetType("Microsoft.CodeAnalysis.ChangeSignature." + name)!;
        const BindingFlags all = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
        string Shape(ConstructorInfo c) => string.Join(", ", c.GetParameters().Select(p => p.ParameterType.Name));
        Assert.Contains("ITypeSymbol, String, String, CallSiteKind, String, Boolean, String, Boolean", T("AddedParameter").GetConstructors(all).Select(Shape));
        Assert.Contains("SignatureChange, Boolean", T("ChangeSignatureOptionsResult").GetConstructors(all).Select(Shape));
        Assert.Contains("ParameterConfiguration, ParameterConfiguration", T("SignatureChange").GetConstructors(all).Select(Shape));
        Assert.Equal(["Value", "ValueWithName", "Todo", "Omitted", "Inferred"], Enum.GetNames(T("CallSiteKind")));
        var create = T("ParameterConfiguration").GetMethod("Create", all)!;
        Assert.Equal(["ImmutableArray`1", "Boolean", "Int32"], create.GetParameters().Select(p => p.ParameterType.Name));
        var service = T("AbstractChangeSignatureService");
        Assert.Equal(
            ["Document", "Int32", "Boolean", "CancellationToken"],
            service.GetMethod("GetChangeSignatureContextAsync", all)!.GetParameters().Select(p => p.ParameterType.Name));
        Assert.Equal(
            ["ChangeSignatureAnalyzedContext", "ChangeSignatureOptionsResult", "CancellationToken"],
            service.GetMethod("ChangeSignatureWithContextAsync", all)!.GetParameters().Select(p => p.ParameterType.Name));
        Assert.NotNull(T("ChangeSignatureAnalysisSucceededContext").GetField("Symbol", all));
        Assert.NotNull(T("ChangeSignatureAnalysisSucceededContext").GetField("ParameterConfiguration", all));
        Assert.NotNull(T("CannotChangeSignatureAnalyzedContext").GetField("CannotChangeSignatureReason", all));
        Assert.NotNull(T("ExistingParameter").GetProperty("Symbol", all));
    }

    [Fact]
    public async Task AReorderRenameAndAddReachOverridesCallsTagsAndEveryFramework()
    {
        var plan = await PlanAsync(Change(Pricing, 10, 28,
            Keep("unitPrice", newName: "price"), Keep("quantity"), Keep("label", newName: "caption"), Add("currency", "string", defaultValue: "\"EUR\"")));

        Assert.Equal("Signature.Lib.Pricing.Price(int, decimal, string)", plan.Display);
        Assert.Equal("Signature.Lib.Pricing.Price(decimal, int, string, string)", plan.NewDisplay);
        Assert.Equal(fixture.At(Pricing, 10, 28), plan.Location);
        Assert.Equal(2u, plan.Declarations);
        var pricing = TextOf(plan, Pricing);
        Assert.Contains("public virtual decimal Price(decimal price, int quantity, string caption = \"item\", string currency = \"EUR\")", pricing);
        Assert.Contains("return quantity * price;", pricing);
        Assert.Contains("/// <param name=\"price\">The price of one.</param>\n    /// <param name=\"quantity\">How many units.</param>", pricing);
        Assert.Contains("Price(2m, quantity, caption: \"twice\");", pricing);   // net10.0's branch
        Assert.Contains("Price(2m, quantity);", pricing);                      // net9.0's branch
        Assert.Contains("total += Price(1m, quantity, label);", pricing);       // Sum's own label is not renamed
        Assert.Contains("pricing.Price(unitPrice, quantity);", pricing);        // the extension method's call
        Assert.Contains(
            "public override decimal Price(decimal price, int quantity, string caption = \"item\", string currency = \"EUR\") => base.Price(price, quantity, caption) * 0.9m;",
            TextOf(plan, Discounted));
        var program = TextOf(plan, Program);
        Assert.Contains("pricing.Price(4m, 3)", program);
        Assert.Contains("caption: \"named\"", program);
        Assert.DoesNotContain("unitPrice", program);
        Assert.Contains("Renamed parameter label to caption", plan.Warnings);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task ACallOfTheOverrideChangesTheWholeHierarchyInEveryFramework()
    {
        var plan = await PlanAsync(Change(Program, 11, 35, Keep("quantity"), Keep("unitPrice")));

        Assert.Equal("Signature.App.Discounted.Price(int, decimal, string)", plan.Display);
        Assert.Equal(2u, plan.Declarations);
        var pricing = TextOf(plan, Pricing);
        Assert.Contains("public virtual decimal Price(int quantity, decimal unitPrice)\n", pricing);
        Assert.Contains("Price(quantity, 2m);\n#else", pricing);                 // net10.0's branch loses its label
        Assert.Contains("Price(quantity, 2m);\n#endif", pricing);                // net9.0's branch as it was
        Assert.Contains("base.Price(quantity, unitPrice) * 0.9m", TextOf(plan, Discounted));
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task AnExtensionMethodKeepsItsReceiverFirstAndItsCallsFollow()
    {
        var plan = await PlanAsync(Change(Pricing, 34, 27, Keep("pricing"), Keep("unitPrice"), Keep("quantity")));

        Assert.Contains("public static decimal Total(this Pricing pricing, decimal unitPrice, int quantity)", TextOf(plan, Pricing));
        Assert.Contains("pricing.Total(3m, 2)", TextOf(plan, Program));
        await fixture.Solution.AssertCompilesAsync(plan.Edits);

        var moved = await fixture.ErrAsync(Change(Pricing, 34, 27, Keep("quantity"), Keep("pricing"), Keep("unitPrice")));
        Assert.Equal(ErrorCode.InvalidParameter, moved.Code);
        Assert.Contains("must stay first", moved.Message);
    }

    [Fact]
    public async Task RemovingAnUnusedConstructorParameterUpdatesChainsAndCreations()
    {
        var plan = await PlanAsync(Change(Program, 15, 25, Keep("id"), Keep("lines")));

        Assert.Equal("Signature.Lib.Order.Order(string, int)", plan.NewDisplay);
        var orders = TextOf(plan, Orders);
        Assert.Contains("public Order(string id, int lines)\n", orders);
        Assert.Contains(": this(id, 1)", orders);
        Assert.Contains(": base(id, lines)", orders);
        Assert.Contains("new Order(\"a\", 2)", TextOf(plan, Program));
        Assert.Equal(3u, plan.CallSites);
        await fixture.Solution.AssertCompilesAsync(plan.Edits);
    }

    [Fact]
    public async Task ARemovedParameterTheBodyUsesIsRefused()
    {
        var error = await fixture.ErrAsync(Change(Shipping, 12, 20, Keep("weight")));

        Assert.Equal(ErrorCode.ParameterInUse, error.Code);
        var uses = JsonNode.Parse(error.DetailsJson)!["uses"]!.AsArray();
        Assert.Equal([12], uses.Select(u => (int)u!["line"]!));
        Assert.Equal("zone", (string)uses[0]!["name"]!);
    }

    [Fact]
    public async Task ArgumentsWithSideEffectsThatWouldTradePlacesAreRefused()
    {
        var error = await fixture.ErrAsync(Change(Shipping, 5, 13, Keep("weight"), Keep("zone")));

        Assert.Equal(ErrorCode.EvaluationOrderChanged, error.Code);
        var calls = JsonNode.Parse(error.DetailsJson)!["calls"]!.AsArray();
        Assert.Equal("18", string.Join(",", calls.Select(c => (int)c!["line"]!)));
        Assert.Contains("Weigh() would run before NextZone()", error.Message);
    }

    [Fact]
    public async Task AnAddedParameterNamedAsALocalIsRefused()
    {
        var error = await fixture.ErrAsync(Change(Pricing, 21, 20, Keep("label"), Add("total", "decimal", defaultValue: "0m"), Keep("quantities")));

        Assert.Equal(ErrorCode.NameCollision, error.Code);
        Assert.Contains("total is already declared in Sum", error.Message);
    }

    [Fact]
    public async Task ATypeChangeThatMovesACallToAnotherOverloadIsRefused()
    {
        var error = await fixture.ErrAsync(Change(Printer, 5, 26, Keep("value", newType: "double")));

        Assert.Equal(ErrorCode.BindingChanged, error.Code);
        var details = JsonNode.Parse(error.DetailsJson)!;
        Assert.Equal(fixture.PathOf(Printer), (string)details["file"]!);
    }

    [Fact]
    public async Task AnAddedParameterAMethodGroupCannotTakeIsRefusedBeforeTheChange()
    {
        var error = await fixture.ErrAsync(Change(Shipping, 5, 13, Keep("zone"), Keep("weight"), Add("express", "bool", defaultValue: "false")));

        Assert.Equal(ErrorCode.BindingChanged, error.Code);
        Assert.Contains("Program.cs:19", error.Message);
        Assert.Equal("System.Func<string, int, decimal>", (string)JsonNode.Parse(error.DetailsJson)!["delegate"]!);
    }

    [Fact]
    public async Task RenamedParametersKeepAMethodGroupsDelegate()
    {
        var plan = await PlanAsync(Change(Shipping, 5, 13, Keep("zone", newName: "area"), Keep("weight")));

        Assert.Contains("Cost(string area, int weight)", TextOf(plan, Shipping));
    }

    [Fact]
    public async Task NothingToChangeAndUnknownParametersAreRefused()
    {
        Assert.Equal(ErrorCode.InvalidParameter, (await fixture.ErrAsync(Change(Shipping, 12, 20, Keep("zone"), Keep("weight")))).Code);
        var unknown = await fixture.ErrAsync(Change(Shipping, 12, 20, Keep("zone"), Keep("height")));
        Assert.Equal(ErrorCode.InvalidParameter, unknown.Code);
        Assert.Equal(["zone", "weight"], JsonNode.Parse(unknown.DetailsJson)!["parameters"]!.AsArray().Select(p => (string)p!));
        Assert.Equal(ErrorCode.SymbolNotFound, (await fixture.ErrAsync(Change(Shipping, 10, 17, Keep("x")))).Code);
    }
}
