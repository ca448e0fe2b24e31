using Microsoft.CodeAnalysis;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Tests;

/// <summary>Symbol keys (documentation comment ids, else kind, display and declaration) and symbol references.</summary>
[Collection(ShopCollection.Name)]
public sealed class SymbolKeyTests(ShopSolution shop)
{
    [Fact]
    public async Task DeclaredSymbolsAreKeyedByTheirDocumentationCommentId()
    {
        var calculator = await TypeAsync("Shop.Core.Services.PriceCalculator");
        Assert.Equal("T:Shop.Core.Services.PriceCalculator", SymbolFormat.Summarize(calculator).Key);
        Assert.Equal(
            [
                "M:Shop.Core.Services.PriceCalculator.Calculate(System.Decimal)",
                "M:Shop.Core.Services.PriceCalculator.Calculate(System.Decimal,System.Int32)",
                "M:Shop.Core.Services.PriceCalculator.Calculate(Shop.Core.Models.Order)",
            ],
            calculator.GetMembers("Calculate").Select(m => SymbolFormat.Summarize(m).Key));
        var find = (await TypeAsync("Shop.Core.Services.IRepository`1")).GetMembers("Find").Single();
        Assert.Equal("M:Shop.Core.Services.IRepository`1.Find(System.Int32)", SymbolFormat.Summarize(find).Key);
        Assert.Equal("N:Shop.Core.Services", SymbolFormat.Summarize(calculator.ContainingNamespace).Key);
    }

    [Fact]
    public async Task MetadataSymbolsAreKeyedByTheirDocumentationCommentId()
    {
        var text = await TypeAsync("System.String");
        Assert.Equal("T:System.String", SymbolFormat.Summarize(text).Key);
    }

    [Fact]
    public async Task ConstructedSymbolsAreKeyedWithTheirTypeArguments()
    {
        var list = (await TypeAsync("System.Collections.Generic.List`1")).Construct(await TypeAsync("System.String"));
        Assert.Equal("T:System.Collections.Generic.List{System.String}", SymbolFormat.Summarize(list).Key);
        Assert.Equal(
            "M:System.Collections.Generic.List{System.String}.Add(System.String)",
            SymbolFormat.Summarize(list.GetMembers("Add").Single()).Key);
    }

    [Fact]
    public async Task TypeParametersAreKeyedByTheirDeclaration()
    {
        // Their documentation comment id (`!:T`) would be the same for every `T`.
        var parameter = (await TypeAsync("Shop.Core.Services.IRepository`1")).TypeParameters.Single();
        Assert.Equal(
            $"TypeParameter|T|{shop.PathOf("src/Shop.Core/Services/IRepository.cs")}:5:34",
            SymbolFormat.Summarize(parameter).Key);
    }

    [Fact]
    public async Task ParametersAreKeyedByTheirDeclaration()
    {
        var calculate = (await TypeAsync("Shop.Core.Services.PriceCalculator")).GetMembers("Calculate").OfType<IMethodSymbol>()
            .Single(m => m.Parameters.Length == 2);
        var file = shop.PathOf("src/Shop.Core/Services/PriceCalculator.cs");
        Assert.Equal(
            [$"Parameter|decimal price|{file}:16:42", $"Parameter|int quantity|{file}:16:53"],
            calculate.Parameters.Select(p => SymbolFormat.Summarize(p).Key));
    }

    [Fact]
    public async Task MetadataParametersAreKeyedByTheirAssembly()
    {
        var join = (await TypeAsync("System.String")).GetMembers("Join").OfType<IMethodSymbol>()
            .First(m => m.Parameters is [{ Type.SpecialType: SpecialType.System_String }, { IsParams: true }]);
        Assert.Equal("Parameter|string separator|System.Runtime", SymbolFormat.Summarize(join.Parameters[0]).Key);
    }

    [Fact]
    public async Task AReferenceIsAtTheFirstDeclarationByPath()
    {
        var order = await SymbolFormat.RefAsync(await TypeAsync("Shop.Core.Models.Order"), CancellationToken.None);
        Assert.Equal("T:Shop.Core.Models.Order", order.Symbol.Key);
        Assert.Equal(
            new SourceLocation(
                new Span(shop.PathOf("src/Shop.Core/Models/Order.Lines.cs"), 5, 22, 5, 27),
                "public partial class Order"),
            order.Location);
    }

    [Fact]
    public async Task AReferenceToAMethodIsAtItsIdentifier()
    {
        var calculate = (await TypeAsync("Shop.Core.Services.PriceCalculator")).GetMembers("Calculate").First();
        var reference = await SymbolFormat.RefAsync(calculate, CancellationToken.None);
        Assert.Equal(KnownSymbols.Calculate, reference.Symbol);
        Assert.Equal(
            new SourceLocation(
                new Span(shop.PathOf("src/Shop.Core/Services/PriceCalculator.cs"), 11, 24, 11, 33),
                "public decimal Calculate(decimal price) => Round(price);"),
            reference.Location);
    }

    [Fact]
    public async Task AReferenceToAMetadataSymbolHasNoLocation()
    {
        var reference = await SymbolFormat.RefAsync(await TypeAsync("System.String"), CancellationToken.None);
        Assert.True(reference.Symbol.IsMetadata);
        Assert.Null(reference.Location);
    }

    /// <summary>A type as Shop.App, which sees every project, binds it.</summary>
    private async Task<INamedTypeSymbol> TypeAsync(string metadataName)
    {
        var app = shop.Solution.Projects.Single(p => p.Name == "Shop.App");
        var compilation = await app.GetCompilationAsync();
        return compilation!.GetTypeByMetadataName(metadataName) ?? throw new InvalidOperationException($"no {metadataName}");
    }
}
