using System.Text.Json.Nodes;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Implementations and type hierarchies on the Shop fixture; positions are those of its FIXTURE.md.</summary>
[Collection(ShopCollection.Name)]
public sealed class HierarchyTests(ShopSolution shop)
{
    private const string Greeters = "src/Shop.Core/Services/Greeter.cs";

    [Fact]
    public async Task ImplementationsOfIGreeterIncludeTheDerivedFormalGreeter()
    {
        var list = await ImplementationsAsync(At("src/Shop.Core/Services/IGreeter.cs", 3, 22));

        Assert.Equal("Shop.Core.Services.IGreeter", list.Symbol.Display);
        Assert.Equal(
            [
                ("Shop.Core.Services.ExplicitGreeter", "Implements", true, $"{Greeters}:19:21"),
                ("Shop.Core.Services.FormalGreeter", "Implements", false, $"{Greeters}:11:14"),
                ("Shop.Core.Services.Greeter", "Implements", true, $"{Greeters}:3:14"),
            ],
            Rows(list.Implementations));
    }

    [Fact]
    public async Task ImplementationsOfIGreeterGreetIncludeTheExplicitOneAndTheOverride()
    {
        var list = await ImplementationsAsync(At("src/Shop.Core/Services/IGreeter.cs", 5, 16));

        Assert.Equal("Shop.Core.Services.IGreeter.Greet(string)", list.Symbol.Display);
        Assert.Equal(
            [
                ("Shop.Core.Services.ExplicitGreeter.Shop.Core.Services.IGreeter.Greet(string)", "Implements", true, $"{Greeters}:21:21"),
                ("Shop.Core.Services.FormalGreeter.Greet(string)", "Implements", false, $"{Greeters}:13:28"),
                ("Shop.Core.Services.Greeter.Greet(string)", "Implements", true, $"{Greeters}:5:27"),
            ],
            Rows(list.Implementations));
    }

    [Fact]
    public async Task ImplementationsOfAVirtualMethodAreItsOverrides()
    {
        var target = At(Greeters, 5, 27);
        var list = await ImplementationsAsync(target);
        var withoutDerived = await ImplementationsAsync(target, derived: false);

        Assert.Equal(
            [("Shop.Core.Services.FormalGreeter.Greet(string)", "Overrides", true, $"{Greeters}:13:28")],
            Rows(list.Implementations));
        Assert.Empty(withoutDerived.Implementations);
    }

    [Theory]
    [InlineData("Shop.Core.Services.IRepository<T>")]
    [InlineData("Shop.Core.Services.IRepository`1")]
    public async Task ImplementationsOfTheGenericRepositoryByName(string name)
    {
        var list = await ImplementationsAsync(new SymbolTarget.Named(name));

        Assert.Equal("Shop.Core.Services.IRepository<T>", list.Symbol.Display);
        Assert.Equal("T:Shop.Core.Services.IRepository`1", list.Symbol.Key);
        Assert.Equal(
            [
                ("Shop.Data.CustomerRepository", "Implements", false, "src/Shop.Data/CustomerRepository.cs:7:14"),
                ("Shop.Data.InMemoryRepository<T>", "Implements", true, "src/Shop.Data/InMemoryRepository.cs:6:14"),
            ],
            Rows(list.Implementations));
    }

    [Fact]
    public async Task ImplementationsOfAnInterfaceMethodFollowOverridesInGenericTypes()
    {
        // IRepository<T>.Find, implemented by InMemoryRepository<T>.Find and overridden in CustomerRepository.
        var list = await ImplementationsAsync(At("src/Shop.Core/Services/IRepository.cs", 7, 12));
        Assert.Equal(
            [
                ("Shop.Data.CustomerRepository.Find(int)", "Implements", false, "src/Shop.Data/CustomerRepository.cs:9:31"),
                ("Shop.Data.InMemoryRepository<T>.Find(int)", "Implements", true, "src/Shop.Data/InMemoryRepository.cs:10:23"),
            ],
            Rows(list.Implementations));
    }

    [Fact]
    public async Task OnlyTheAskedRelationsAreListed()
    {
        var greeterType = new SymbolTarget.Named("Shop.Core.Services.Greeter");
        var derived = await ImplementationsAsync(greeterType);
        Assert.Equal([("Shop.Core.Services.FormalGreeter", "Derives", true, $"{Greeters}:11:14")], Rows(derived.Implementations));

        var iGreeter = At("src/Shop.Core/Services/IGreeter.cs", 3, 22);
        Assert.Empty((await ImplementationsAsync(iGreeter, implementations: false)).Implementations);
    }

    [Fact]
    public async Task AStructHasNoImplementations()
    {
        var list = await ImplementationsAsync(new SymbolTarget.Named("Shop.Core.Models.Money"));
        Assert.Equal("RecordStruct", list.Symbol.Kind);
        Assert.Empty(list.Implementations);
    }

    [Fact]
    public async Task HierarchyOfCustomerRepositoryKeepsConstructedBaseTypes()
    {
        var hierarchy = await HierarchyAsync(At("src/Shop.Data/CustomerRepository.cs", 7, 14));

        Assert.Equal("Shop.Data.CustomerRepository", hierarchy.Symbol.Symbol.Display);
        Assert.Equal(
            [
                ("Shop.Data.InMemoryRepository<Shop.Core.Models.Customer>", "BaseType", true, "src/Shop.Data/InMemoryRepository.cs:6:14"),
                ("object", "BaseType", false, null),
            ],
            Rows(hierarchy.BaseTypes));
        Assert.Equal("T:System.Object", hierarchy.BaseTypes[1].Symbol.Symbol.Key);
        Assert.Empty(hierarchy.DerivedTypes);
        Assert.Equal(
            [("Shop.Core.Services.IRepository<Shop.Core.Models.Customer>", "Interface", false, "src/Shop.Core/Services/IRepository.cs:5:22")],
            Rows(hierarchy.Interfaces));
    }

    [Fact]
    public async Task HierarchyOfGreeterHasItsDerivedClassAndInterface()
    {
        var hierarchy = await HierarchyAsync(At(Greeters, 3, 14));

        Assert.Equal([("object", "BaseType", true, null)], Rows(hierarchy.BaseTypes));
        Assert.Equal([("Shop.Core.Services.FormalGreeter", "DerivedType", true, $"{Greeters}:11:14")], Rows(hierarchy.DerivedTypes));
        Assert.Equal(
            [("Shop.Core.Services.IGreeter", "Interface", true, "src/Shop.Core/Services/IGreeter.cs:3:22")],
            Rows(hierarchy.Interfaces));
    }

    [Fact]
    public async Task HierarchyOfAFieldIsThatOfItsType()
    {
        // `_customers`, an IRepository<Customer>: the interface's implementations are its derived types.
        var hierarchy = await HierarchyAsync(At("src/Shop.App/Reporting/Report.cs", 9, 44));

        Assert.Equal("Shop.Core.Services.IRepository<Shop.Core.Models.Customer>", hierarchy.Symbol.Symbol.Display);
        Assert.Empty(hierarchy.BaseTypes);
        Assert.Equal(
            [
                ("Shop.Data.CustomerRepository", "DerivedType", false, "src/Shop.Data/CustomerRepository.cs:7:14"),
                ("Shop.Data.InMemoryRepository<T>", "DerivedType", true, "src/Shop.Data/InMemoryRepository.cs:6:14"),
            ],
            Rows(hierarchy.DerivedTypes));
    }

    [Fact]
    public async Task HierarchyOfAMetadataTypeByName()
    {
        var list = await HierarchyAsync(new SymbolTarget.Named("System.Collections.Generic.List<T>"));

        Assert.Equal("System.Collections.Generic.List<T>", list.Symbol.Symbol.Display);
        Assert.True(list.Symbol.Symbol.IsMetadata);
        Assert.Null(list.Symbol.Location);
        Assert.Equal([("object", "BaseType", true, null)], Rows(list.BaseTypes));
        Assert.Contains(("System.Collections.Generic.IList<T>", "Interface", true, null), Rows(list.Interfaces));
        // Only the solution's types count as derived, not the framework's.
        Assert.Empty(list.DerivedTypes);

        var disposable = await HierarchyAsync(new SymbolTarget.Named("System.IDisposable"));
        Assert.Equal("Interface", disposable.Symbol.Symbol.Kind);
        Assert.Empty(disposable.BaseTypes);
        Assert.Empty(disposable.DerivedTypes);
    }

    [Fact]
    public async Task ANestedTypeIsFoundByItsDottedName()
    {
        var hierarchy = await HierarchyAsync(new SymbolTarget.Named("Shop.Core.Models.Order.Line"));
        Assert.Equal("src/Shop.Core/Models/Order.Lines.cs:10:18", shop.Where(hierarchy.Symbol));
    }

    [Theory]
    [InlineData("Shop.Customer", "Did you mean Shop.Core.Models.Customer?")]
    [InlineData("Shop.Core.Services.IRepository", "Did you mean Shop.Core.Services.IRepository<T>?")]
    public async Task AnUnknownNameSuggestsTypesWithItsSimpleName(string name, string suggestion)
    {
        var error = await shop.ErrAsync(new RequestBody.TypeHierarchy(new SymbolTarget.Named(name)));

        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
        Assert.Equal(name, JsonNode.Parse(error.DetailsJson)!["name"]!.GetValue<string>());
        Assert.Equal([suggestion], error.Suggestions);
    }

    [Fact]
    public async Task AMethodHasNoTypeHierarchy()
    {
        var error = await shop.ErrAsync(new RequestBody.TypeHierarchy(At("src/Shop.App/Program.cs", 21, 41)));
        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
        Assert.Equal("Method", JsonNode.Parse(error.DetailsJson)!["kind"]!.GetValue<string>());
    }

    private SymbolTarget At(string file, uint line, uint column) => new SymbolTarget.At(shop.At(file, line, column));

    private IEnumerable<(string Display, string Relation, bool IsDirect, string? Where)> Rows(IEnumerable<Related> related) =>
        related.Select(r => (r.Symbol.Symbol.Display, r.Relation.ToString(), r.IsDirect, shop.Where(r.Symbol)));

    private async Task<ImplementationList> ImplementationsAsync(SymbolTarget target, bool derived = true, bool implementations = true) =>
        (await shop.OkAsync<ResponseBody.Implementations>(
            new RequestBody.Implementations(new ImplementationsRequest(target, derived, implementations)))).Value;

    private async Task<TypeHierarchy> HierarchyAsync(SymbolTarget target) =>
        (await shop.OkAsync<ResponseBody.TypeHierarchy>(new RequestBody.TypeHierarchy(target))).Value;
}
