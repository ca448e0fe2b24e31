using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Features.TestDiscovery;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

public sealed class TestedSolution() : LoadedSolution("Tested", "Tested.slnx");

[CollectionDefinition(Name)]
public sealed class TestedCollection : ICollectionFixture<TestedSolution>
{
    public const string Name = "Tested";
}

[Collection(TestedCollection.Name)]
public sealed class FindTestsTests(TestedSolution tested)
{
    private async Task<FoundTests> AtAsync(string file, string needle, string? project = null)
    {
        var text = await File.ReadAllTextAsync(tested.PathOf(file));
        var request = new FindTestsRequest(new ChangeOrigin.Symbol(PositionOf(tested.PathOf(file), text, needle)), project);
        return (await tested.OkAsync<ResponseBody.FoundTests>(new RequestBody.FindTests(request))).Value;
    }

    /// <summary>Where <paramref name="needle"/> first stands in <paramref name="text"/>, the text of <paramref name="file"/>.</summary>
    private static Position PositionOf(string file, string text, string needle)
    {
        var offset = text.IndexOf(needle, StringComparison.Ordinal);
        Assert.True(offset >= 0, needle);
        var line = (uint)text[..offset].Count(c => c == '\n') + 1;
        var column = (uint)(offset - (text.LastIndexOf('\n', Math.Max(offset - 1, 0)) + 1)) + 1;
        return new Position(file, line, column);
    }

    private static List<string> Names(FoundTests found) => [.. found.Tests.Select(t => t.FullyQualifiedName)];

    [Fact]
    public async Task AnImplementationIsReachedThroughItsInterface()
    {
        var found = await AtAsync("Pricing/Pricer.cs", "Price(int quantity)\n    {");

        Assert.Contains("Pricing.XunitTests.CartTests.TotalAsksThePricer", Names(found));
        var viaInterface = found.Tests.Single(t => t.FullyQualifiedName.EndsWith("TotalAsksThePricer", StringComparison.Ordinal));
        Assert.Equal(
            ["Pricing.Pricer.Price(int)", "Pricing.IPricer.Price(int)", "Pricing.Cart.Total()", "Pricing.XunitTests.CartTests.TotalAsksThePricer()"],
            viaInterface.Reason);
        Assert.Equal(TestFramework.XUnit, viaInterface.Framework);
        // Tests calling it directly, in NUnit and MSTest, parametrized ones included.
        Assert.Contains("Pricing.NunitTests.DiscountTests.PricesEveryQuantity", Names(found));
        Assert.Contains("Pricing.MstestTests.CatalogTests.PricesByQuantity", Names(found));
        var tunit = found.Tests.Single(t => t.FullyQualifiedName == "Pricing.TunitTests.QuoteTests.QuotesEachQuantity");
        Assert.Equal(TestFramework.TUnit, tunit.Framework);
        // A cart priced by another IPricer reaches IPricer.Price too, but not through Cart.Total.
        Assert.DoesNotContain("Pricing.XunitTests.CartTests.CountsWhatWasAdded", Names(found));
        Assert.DoesNotContain("Pricing.XunitTests.LabelTests.AddsMoney", Names(found));
    }

    [Fact]
    public async Task AnOverrideIsReachedThroughTheVirtualMember()
    {
        var found = await AtAsync("Pricing/Discounts.cs", "Apply(decimal amount)\n    {");

        Assert.Equal(
            ["Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice", "Pricing.NunitTests.DiscountTests.StandardDiscountTakesTenPercentOfLargeAmounts"],
            Names(found));
        Assert.Equal(TestFramework.NUnit, found.Tests[0].Framework);
    }

    [Fact]
    public async Task SetUpReachesEveryTestOfItsClass()
    {
        var found = await AtAsync("Pricing/Money.cs", "Load()");

        Assert.Equal(
            [
                "Pricing.MstestTests.CatalogTests.ApplesCostOne",
                "Pricing.MstestTests.CatalogTests.ExitsWhenAsked",
                "Pricing.MstestTests.CatalogTests.PricesByQuantity",
                "Pricing.XunitTests.LabelTests.KnownBroken",
            ],
            Names(found));
        var exits = found.Tests.Single(t => t.FullyQualifiedName.EndsWith("ExitsWhenAsked", StringComparison.Ordinal));
        Assert.Equal(TestFramework.MSTest, exits.Framework);
        Assert.Contains("Pricing.MstestTests.CatalogTests.ReadPrices()", exits.Reason);
    }

    [Fact]
    public async Task OperatorsAndExtensionMethodsAreUses()
    {
        Assert.Equal(
            ["Pricing.TunitTests.QuoteTests.AddsUpWrong", "Pricing.XunitTests.LabelTests.AddsMoney"],
            Names(await AtAsync("Pricing/Money.cs", "+(Money left")));
        var shout = await AtAsync("Pricing/Money.cs", "Shout(this");
        Assert.Equal(["Pricing.XunitTests.LabelTests.Shouts"], Names(shout));
    }

    [Fact]
    public async Task StaticInitializersAndDataSourcesNamedByStringsReachTheirTests()
    {
        // Packs.Parse runs only in Packs' static constructor, which the first use of Packs runs.
        var found = await AtAsync("Pricing/Packs.cs", "Parse(string list)");

        Assert.Equal(
            [
                "Pricing.NunitTests.DiscountTests.PricesEveryQuantity",
                "Pricing.XunitTests.CartTests.CountsWhatWasAdded",
                "Pricing.XunitTests.CartTests.TotalAsksThePricer",
            ],
            Names(found));
        // NUnit reads the cases from the source its attribute names by a string.
        var source = found.Tests.Single(t => t.FullyQualifiedName.EndsWith("PricesEveryQuantity", StringComparison.Ordinal));
        Assert.Equal(
            ["Pricing.Packs.Parse(string)", "Pricing.Packs.Packs()", "Pricing.Packs", "Pricing.NunitTests.DiscountTests.Quantities()", "Pricing.NunitTests.DiscountTests.PricesEveryQuantity(int)"],
            source.Reason);
        // This test never reads the sizes; its class's static field does, before any test of the class runs.
        var initializer = found.Tests.Single(t => t.FullyQualifiedName.EndsWith("TotalAsksThePricer", StringComparison.Ordinal));
        Assert.Equal(
            ["Pricing.Packs.Parse(string)", "Pricing.Packs.Packs()", "Pricing.Packs", "Pricing.XunitTests.CartTests.LargestPack", "Pricing.XunitTests.CartTests", "Pricing.XunitTests.CartTests.TotalAsksThePricer()"],
            initializer.Reason);
    }

    [Fact]
    public async Task AnInheritedTestIsTheDerivedClassesOwnOnTheCasesItHolds()
    {
        // DiscountTests runs SmallAmountsKeepTheirPrice, declared in the abstract DiscountTestBase, on its Amounts.
        var found = await AtAsync("Pricing.NunitTests/DiscountTests.cs", "Amounts = [");

        var inherited = found.Tests.Single(t => t.FullyQualifiedName == "Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice");
        Assert.Equal(["Pricing.NunitTests.DiscountTests.Amounts", "Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice(int)"], inherited.Reason);
        Assert.EndsWith("DiscountTestBase.cs", inherited.Method.Location?.Span.File);
        // The abstract class runs nothing by itself.
        Assert.DoesNotContain(found.Tests, t => t.FullyQualifiedName.Contains("DiscountTestBase", StringComparison.Ordinal));
        var inBase = await AtAsync("Pricing.NunitTests/DiscountTestBase.cs", "SmallAmountsKeepTheirPrice(int");
        Assert.Equal(["Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice"], Names(inBase));
    }

    [Fact]
    public async Task MstestInheritsIntoATestClassAndTunitWhereItIsAsked()
    {
        // The frameworks' attributes are recognized by their names: declared here, as the packages declare them.
        var found = await FromValueAsync("""
            namespace Microsoft.VisualStudio.TestTools.UnitTesting
            {
                public class TestMethodAttribute : System.Attribute { }
                public class TestClassAttribute : System.Attribute { }
            }
            namespace TUnit.Core
            {
                public class TestAttribute : System.Attribute { }
                public class InheritsTestsAttribute : System.Attribute { }
            }
            namespace Suite
            {
                public static class Code { public static int Value() => 1; }
                public abstract class MstestBase { [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethod] public void Checks() => Code.Value(); }
                [Microsoft.VisualStudio.TestTools.UnitTesting.TestClass] public class MstestRun : MstestBase { }
                public class MstestNotATestClass : MstestBase { }
                public abstract class TunitBase { [TUnit.Core.Test] public void Checks() => Code.Value(); }
                [TUnit.Core.InheritsTests] public class TunitRun : TunitBase { }
                public class TunitNotAsked : TunitBase { }
                [TUnit.Core.InheritsTests] public class TunitHides : TunitBase { public new void Checks() { } }
            }
            """);

        Assert.Equal(["Suite.MstestRun.Checks", "Suite.TunitRun.Checks"], Names(found));
        Assert.Equal([TestFramework.MSTest, TestFramework.TUnit], found.Tests.Select(t => t.Framework));
    }

    /// <summary>find_tests from <c>Code.Value</c>, in a one-file project of its own.</summary>
    private static async Task<FoundTests> FromValueAsync(string source)
    {
        // A test project is one with a project file.
        var solution = new AdhocWorkspace().CurrentSolution;
        AdhocSolutions.AddProject(ref solution, "Inherited", null, [("Inherited.cs", source)], _ => AdhocSolutions.PathOf("Inherited"), Path.Combine(AdhocSolutions.Root, "Inherited.csproj"));
        var request = new FindTestsRequest(new ChangeOrigin.Symbol(PositionOf(AdhocSolutions.PathOf("Inherited"), source, "Value()")), null);
        return await FindTestsHandler.HandleAsync(solution, request, CancellationToken.None);
    }

    [Fact]
    public async Task EveryTestProjectIsCountedAndOneCanBeAskedAlone()
    {
        var found = await AtAsync("Pricing/Pricer.cs", "Price(int quantity)\n    {", project: "Pricing.NunitTests");

        Assert.All(found.Tests, t => Assert.Equal("Pricing.NunitTests", t.Project));
        var project = Assert.Single(found.Projects);
        Assert.Equal(("Pricing.NunitTests", 4u), (project.Name, project.TestCount));
        Assert.Equal([TestFramework.NUnit], project.Frameworks);

        var all = await AtAsync("Pricing/Pricer.cs", "Price(int quantity)\n    {");
        Assert.Equal(
            [("Pricing.MstestTests", 3u), ("Pricing.NunitTests", 4u), ("Pricing.TunitTests", 4u), ("Pricing.XunitTests", 5u)],
            all.Projects.Select(p => (p.Name, p.TestCount)));
    }

    [Fact]
    public async Task TestsNamedAreFoundByThemselvesAndUnknownNamesAreLeftOut()
    {
        string[] names = ["Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice", "Pricing.XunitTests.CartTests.TotalAsksThePricer", "Pricing.Nowhere.Missing"];
        var request = new FindTestsRequest(new ChangeOrigin.Tests(ValueList.Create<string>(names)), null);
        var found = (await tested.OkAsync<ResponseBody.FoundTests>(new RequestBody.FindTests(request))).Value;

        Assert.Equal([names[0], names[1]], Names(found));
        Assert.Equal(["Pricing.XunitTests.CartTests.TotalAsksThePricer()"], found.Tests[1].Reason);
        Assert.Empty(found.Changed);
        Assert.Equal(4, found.Projects.Count);

        var none = new FindTestsRequest(new ChangeOrigin.Tests(ValueList<string>.Empty), "Pricing.MstestTests");
        var projects = (await tested.OkAsync<ResponseBody.FoundTests>(new RequestBody.FindTests(none))).Value;
        Assert.Empty(projects.Tests);
        Assert.Equal("Pricing.MstestTests", Assert.Single(projects.Projects).Name);
    }

    [Fact]
    public async Task ALibraryIsNotATestProject()
    {
        var request = new FindTestsRequest(new ChangeOrigin.Symbol(tested.At("Pricing/Pricer.cs", 3, 18)), "Pricing");
        var error = await tested.ErrAsync(new RequestBody.FindTests(request));

        Assert.Equal(ErrorCode.NotATestProject, error.Code);
        Assert.Contains("Pricing.XunitTests", error.DetailsJson);
    }

    [Fact]
    public async Task ChangedLinesStartFromTheMembersOnThem()
    {
        // Line 14 is Pricer.Price's body; a blank line changed in Cart.cs holds no declaration; a removal after
        // the field on line 5 of Cart.cs touches the lines around it; line 1 of Discounts.cs is its namespace:
        // every type of the file.
        var found = await OnLinesAsync(
            new ChangedLines(tested.PathOf("Pricing/Pricer.cs"), [new LineRange(14, 14)]),
            new ChangedLines(tested.PathOf("Pricing/Cart.cs"), [new LineRange(6, 6)]));
        Assert.Equal(["Pricing.Pricer.Price(int)"], found.Changed.Select(s => s.Symbol.Display));
        Assert.Contains("Pricing.XunitTests.CartTests.TotalAsksThePricer", Names(found));

        var removal = await OnLinesAsync(new ChangedLines(tested.PathOf("Pricing/Cart.cs"), [new LineRange(6, 5)]));
        Assert.Equal(["Pricing.Cart._quantities"], removal.Changed.Select(s => s.Symbol.Display));
        // The field's initializer runs in Cart's constructor, which both cart tests call.
        Assert.Equal(["Pricing.XunitTests.CartTests.CountsWhatWasAdded", "Pricing.XunitTests.CartTests.TotalAsksThePricer"], Names(removal));

        var usings = await OnLinesAsync(new ChangedLines(tested.PathOf("Pricing/Discounts.cs"), [new LineRange(1, 1)]));
        Assert.Equal(["Pricing.BulkDiscount", "Pricing.Discount", "Pricing.Discounts"], usings.Changed.Select(s => s.Symbol.Display));
    }

    private async Task<FoundTests> OnLinesAsync(params ChangedLines[] files)
    {
        var request = new FindTestsRequest(new ChangeOrigin.Lines([.. files]), null);
        return (await tested.OkAsync<ResponseBody.FoundTests>(new RequestBody.FindTests(request))).Value;
    }
}
