using System.Text.Json.Nodes;
using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Members and overloads on the Shop fixture; positions are those of its FIXTURE.md and sources.</summary>
[Collection(ShopCollection.Name)]
public sealed class MemberTests(ShopSolution shop)
{
    private const string Program = "src/Shop.App/Program.cs";
    private const string Report = "src/Shop.App/Reporting/Report.cs";

    /// <summary>What every object has, as listed from another type (MemberwiseClone is protected).</summary>
    private static readonly string[] ObjectMembers =
    [
        "Type GetType()",
        "bool Equals(object? obj)",
        "bool Equals(object? objA, object? objB)",
        "bool ReferenceEquals(object? objA, object? objB)",
        "int GetHashCode()",
        "string? ToString()",
    ];

    [Fact]
    public async Task MembersOfACustomerAreItsPropertiesAndObjectMembers()
    {
        // `customer` in `_greeter.Greet(customer.Name)`.
        var list = await MembersAsync(Report, 22, 47);

        Assert.Equal("Shop.Core.Models.Customer", list.Receiver.Display);
        Assert.Equal(
            new[] { "int Id { get; set; }", "string Name { get; set; }", "string? Email { get; set; }" }
                .Concat(ObjectMembers)
                .Order(StringComparer.Ordinal),
            list.Members.Select(m => m.Signature).Order(StringComparer.Ordinal));

        var name = Assert.Single(list.Members, m => m.Symbol.Symbol.Name == "Name");
        Assert.Equal("P:Shop.Core.Models.Customer.Name", name.Symbol.Symbol.Key);
        Assert.Equal("src/Shop.Core/Models/Customer.cs:16:19", shop.Where(name.Symbol));
        Assert.Equal("Shop.Core.Models.Customer", name.DeclaringType);
        Assert.Equal(Accessibility.Public, name.Accessibility);
        Assert.Equal("The display name of the customer.", name.Documentation);
        Assert.Equal("string", name.ReturnType);
        Assert.Empty(name.Parameters);
        Assert.False(name.IsStatic || name.IsExtension || name.IsAsync);

        var equals = Assert.Single(list.Members, m => m.Signature == "bool Equals(object? objA, object? objB)");
        Assert.True(equals.IsStatic);
        Assert.Equal("object", equals.DeclaringType);
        Assert.Null(equals.Symbol.Location);
        Assert.Equal(["objA", "objB"], equals.Parameters.Select(p => p.Name));
        Assert.Equal("object?", equals.Parameters[0].TypeName);
        Assert.Equal("The first object to compare.", equals.Parameters[0].Documentation);
    }

    [Fact]
    public async Task AnUnfilteredListIsStableAcrossRequests()
    {
        var first = await MembersAsync(Report, 22, 47);
        var second = await MembersAsync(Report, 22, 47);
        Assert.Equal(9, first.Members.Count);
        Assert.Equal(first.Members, second.Members);
    }

    [Fact]
    public async Task ExtensionMethodsOfAStringAppearOnlyWhenAsked()
    {
        // `greeting`, a string, where `using Shop.Core.Extensions` is in scope.
        var with = await MembersAsync(Program, 25, 20);
        var without = await MembersAsync(Program, 25, 20, extensions: false);

        Assert.Equal("string", with.Receiver.Display);
        var shout = Assert.Single(with.Members, m => m.Symbol.Symbol.Name == "Shout");
        Assert.Equal("string Shout()", shout.Signature);
        Assert.Equal("M:Shop.Core.Extensions.StringExtensions.Shout(System.String)", shout.Symbol.Symbol.Key);
        Assert.Equal("src/Shop.Core/Extensions/StringExtensions.cs:5:26", shop.Where(shout.Symbol));
        Assert.Equal("Shop.Core.Extensions.StringExtensions", shout.DeclaringType);
        Assert.Empty(shout.Parameters);
        Assert.Equal("string", shout.ReturnType);
        Assert.True(shout.IsExtension);
        Assert.False(shout.IsStatic);
        Assert.Contains(with.Members, m => m.Signature == "bool IsBlank()" && m.IsExtension);

        Assert.DoesNotContain(without.Members, m => m.IsExtension);
        Assert.Equal(with.Members.Count - 2, without.Members.Count);
        Assert.Contains(without.Members, m => m.Signature == "int Length { get; }");
    }

    [Fact]
    public async Task WithoutStaticMembersATypeNameListsInstanceMembersOnly()
    {
        // `PriceCalculator` in `PriceCalculator.Round(amount)`.
        var all = await MembersAsync(Report, 25, 28);
        var instance = await MembersAsync(Report, 25, 28, statics: false);

        var round = Assert.Single(all.Members, m => m.Symbol.Symbol.Name == "Round");
        Assert.Equal("decimal Round(decimal value)", round.Signature);
        Assert.True(round.IsStatic);
        Assert.Equal(
            [
                "Type GetType()",
                "bool Equals(object? obj)",
                "decimal Calculate(Order order)",
                "decimal Calculate(decimal price)",
                "decimal Calculate(decimal price, int quantity)",
                "int GetHashCode()",
                "string? ToString()",
            ],
            instance.Members.Select(m => m.Signature).Order(StringComparer.Ordinal));
        Assert.Equal(all.Members.Count - 3, instance.Members.Count);
    }

    [Fact]
    public async Task AnOverrideHidesTheMemberItOverrides()
    {
        // `repository`, a CustomerRepository whose Find overrides InMemoryRepository<Customer>.Find.
        var list = await MembersAsync(Program, 13, 17);

        var find = Assert.Single(list.Members, m => m.Symbol.Symbol.Name == "Find");
        Assert.Equal("Shop.Data.CustomerRepository", find.DeclaringType);
        Assert.Equal("Customer? Find(int id)", find.Signature);
        var add = Assert.Single(list.Members, m => m.Symbol.Symbol.Name == "Add");
        Assert.Equal("void Add(Customer item)", add.Signature);
        Assert.Equal("Shop.Data.InMemoryRepository<Shop.Core.Models.Customer>", add.DeclaringType);
        Assert.Null(add.ReturnType);
        Assert.Equal(10, list.Members.Count);
    }

    [Fact]
    public async Task ANamespaceHasNoMembersToList()
    {
        var error = await shop.ErrAsync(new RequestBody.Members(new MembersRequest(shop.At(Program, 7, 11), true, true)));
        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
        Assert.Equal("Namespace", JsonNode.Parse(error.DetailsJson)!["kind"]!.GetValue<string>());
        Assert.NotEmpty(error.Suggestions);
    }

    [Fact]
    public async Task OverloadsOfCalculateAreItsThreeDeclarations()
    {
        var list = await OverloadsAsync(Program, 21, 41);

        Assert.Equal("Shop.Core.Services.PriceCalculator.Calculate(decimal)", list.Method.Display);
        Assert.Equal(
            ["decimal Calculate(decimal price)", "decimal Calculate(decimal price, int quantity)", "decimal Calculate(Order order)"],
            list.Overloads.Select(o => o.Signature));
        Assert.Equal(
            ["src/Shop.Core/Services/PriceCalculator.cs:11:24", "src/Shop.Core/Services/PriceCalculator.cs:16:24", "src/Shop.Core/Services/PriceCalculator.cs:21:24"],
            list.Overloads.Select(o => shop.Where(o.Symbol)));
        Assert.Equal("Calculates the price of several identical items.", list.Overloads[1].Documentation);
        Assert.Equal([("price", "decimal"), ("quantity", "int")], list.Overloads[1].Parameters.Select(p => (p.Name, p.TypeName)));
        Assert.All(list.Overloads, o => Assert.Equal("decimal", o.ReturnType));
    }

    [Fact]
    public async Task OverloadsFromTheDeclarationEqualThoseFromACall()
    {
        var fromCall = await OverloadsAsync(Program, 21, 41);
        var fromDeclaration = await OverloadsAsync("src/Shop.Core/Services/PriceCalculator.cs", 11, 24);
        Assert.Equal(fromCall, fromDeclaration);
    }

    [Fact]
    public async Task OverloadsOfAConstructorAreTheTypesConstructors()
    {
        var list = await OverloadsAsync(Report, 12, 12);

        Assert.Equal("Constructor", list.Method.Kind);
        var constructor = Assert.Single(list.Overloads);
        Assert.Equal("Report(IRepository<Customer> customers)", constructor.Signature);
        Assert.Equal("IRepository<Customer>", Assert.Single(constructor.Parameters).TypeName);
        Assert.Null(constructor.ReturnType);
    }

    [Fact]
    public async Task OverloadsOfAReducedCallAreTheStaticExtensionMethods()
    {
        var list = await OverloadsAsync(Program, 18, 29);

        Assert.Equal("Shop.Core.Extensions.StringExtensions.Shout(this string)", list.Method.Display);
        var shout = Assert.Single(list.Overloads);
        Assert.Equal("string Shout(this string value)", shout.Signature);
        Assert.True(shout.IsStatic && shout.IsExtension);
    }

    [Fact]
    public async Task AnOverriddenBaseMethodIsNotAnotherOverload()
    {
        // CustomerRepository.Find overrides InMemoryRepository<Customer>.Find.
        var list = await OverloadsAsync("src/Shop.Data/CustomerRepository.cs", 9, 31);
        Assert.Equal("Shop.Data.CustomerRepository", Assert.Single(list.Overloads).DeclaringType);
    }

    [Fact]
    public async Task OverloadsOfALocalAreRefused()
    {
        var error = await shop.ErrAsync(new RequestBody.Overloads(shop.At(Program, 13, 17)));
        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
        Assert.Contains("method", error.Message);
        Assert.Equal("Local", JsonNode.Parse(error.DetailsJson)!["kind"]!.GetValue<string>());
    }

    private async Task<MemberList> MembersAsync(string file, uint line, uint column, bool extensions = true, bool statics = true) =>
        (await shop.OkAsync<ResponseBody.Members>(
            new RequestBody.Members(new MembersRequest(shop.At(file, line, column), extensions, statics)))).Value;

    private async Task<OverloadList> OverloadsAsync(string file, uint line, uint column) =>
        (await shop.OkAsync<ResponseBody.Overloads>(new RequestBody.Overloads(shop.At(file, line, column)))).Value;
}
