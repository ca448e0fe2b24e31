using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>The read handlers against the Shop fixture; expected positions are those of its FIXTURE.md.</summary>
[Collection(ShopCollection.Name)]
public sealed class ShopHandlerTests(ShopSolution shop)
{
    private const string Program = "src/Shop.App/Program.cs";

    [Fact]
    public void LoadSummarizesTheProjects()
    {
        var summary = shop.Summary;
        Assert.Equal(shop.SolutionPath, summary.SolutionPath);
        Assert.DoesNotContain(summary.WorkspaceDiagnostics, d => d.Kind == WorkspaceDiagnosticKind.Failure);
        Assert.Equal(["Shop.App", "Shop.Core", "Shop.Data"], summary.Projects.Select(p => p.Name));

        var app = summary.Projects[0];
        Assert.Equal(shop.PathOf("src/Shop.App/Shop.App.csproj"), app.FilePath);
        Assert.Equal("Shop.App", app.AssemblyName);
        Assert.Equal(["Shop.Core", "Shop.Data"], app.ProjectReferences);
        Assert.Equal(["Shop.Core"], summary.Projects[2].ProjectReferences);
        Assert.Empty(summary.Projects[1].ProjectReferences);
        Assert.All(summary.Projects, p => Assert.Equal(["net10.0"], p.TargetFrameworks));
        Assert.All(summary.Projects, p => Assert.True(p.DocumentCount > 0));
    }

    [Fact]
    public async Task TypeOfALocalIsItsInferredType()
    {
        var type = await TypeAtAsync(Program, 17, 17);
        Assert.Equal(
            new SymbolSummary("names", "Local", "names", null, null, "Shop.App", false, $"Local|names|{shop.PathOf(Program)}:17:17"),
            type.Symbol);
        Assert.Equal("List<string>", type.TypeName);
        Assert.Equal("System.Collections.Generic.List<System.String>", type.FullTypeName);
        Assert.Equal("Class", type.Kind);
        Assert.Equal("System.Collections.Generic", type.Namespace);
        Assert.True(type.IsGeneric);
        Assert.Equal(["System.String"], type.TypeArguments);
        Assert.Equal("System.Object", type.BaseType);
        Assert.Contains("System.Collections.Generic.IList<System.String>", type.Interfaces);
        Assert.Equal(type.Interfaces.Order(StringComparer.Ordinal), type.Interfaces);
        Assert.Empty(type.Declarations);
    }

    [Fact]
    public async Task TypeOfVarIsTheInferredType()
    {
        var type = await TypeAtAsync(Program, 17, 13);
        Assert.Equal("List<string>", type.TypeName);
        Assert.Equal("System.Collections.Generic.List<System.String>", type.FullTypeName);
    }

    [Fact]
    public async Task TypeOfACustomerUsageIsTheSourceClass()
    {
        var type = await TypeAtAsync(Program, 15, 13);
        Assert.Equal("Customer", type.TypeName);
        Assert.Equal("Shop.Core.Models.Customer", type.FullTypeName);
        Assert.Equal("Class", type.Kind);
        Assert.Equal("Shop.Core", type.Assembly);
        Assert.Equal("Shop.Core.Models", type.Namespace);
        Assert.Equal("A customer who can place orders in the shop.", type.Documentation);
        Assert.False(type.IsGeneric);
        Assert.Equal("System.Object", type.BaseType);
        Assert.Equal([new SourceLocation(Span("src/Shop.Core/Models/Customer.cs", 6, 14, 22), "public class Customer")], type.Declarations);
        Assert.Equal("Shop.Core.Models.Customer", type.Symbol.Display);
        Assert.False(type.Symbol.IsMetadata);
    }

    [Fact]
    public async Task DefinitionOfCustomerIsItsOneDeclaration()
    {
        var definition = await DefinitionAtAsync(Program, 14, 32);
        Assert.Equal(
            new SymbolSummary(
                "Customer",
                "Class",
                "Shop.Core.Models.Customer",
                null,
                "Shop.Core.Models",
                "Shop.Core",
                false,
                "T:Shop.Core.Models.Customer"),
            definition.Symbol);
        var location = Assert.Single(definition.Locations);
        Assert.Equal(Span("src/Shop.Core/Models/Customer.cs", 6, 14, 22), location.Span);
        Assert.Equal("public class Customer", location.LineText);
    }

    [Fact]
    public async Task DefinitionOfAPartialClassHasEveryPart()
    {
        var definition = await DefinitionAtAsync(Program, 27, 29);
        Assert.Equal("Shop.Core.Models.Order", definition.Symbol.Display);
        Assert.Equal(
            [Span("src/Shop.Core/Models/Order.Lines.cs", 5, 22, 27), Span("src/Shop.Core/Models/Order.cs", 6, 22, 27)],
            definition.Locations.Select(l => l.Span));
        Assert.All(definition.Locations, l => Assert.Equal("public partial class Order", l.LineText));
    }

    [Fact]
    public async Task TypeOfAPartialClassIsDeclaredInEveryPart()
    {
        var type = await TypeAtAsync(Program, 27, 29);
        Assert.Equal(
            [
                new SourceLocation(Span("src/Shop.Core/Models/Order.Lines.cs", 5, 22, 27), "public partial class Order"),
                new SourceLocation(Span("src/Shop.Core/Models/Order.cs", 6, 22, 27), "public partial class Order"),
            ],
            type.Declarations);
    }

    [Fact]
    public async Task TypeOfANullableLocalKeepsItsAnnotation()
    {
        var type = await TypeAtAsync(Program, 15, 23);
        Assert.Equal("found", type.Symbol.Name);
        Assert.Equal("Customer?", type.TypeName);
        Assert.Equal("Shop.Core.Models.Customer", type.FullTypeName);
    }

    [Fact]
    public async Task TypeOfARecordStructConstruction()
    {
        var type = await TypeAtAsync(Program, 30, 29);
        Assert.Equal("Money", type.TypeName);
        Assert.Equal("RecordStruct", type.Kind);
        Assert.Equal("System.ValueType", type.BaseType);
        Assert.Contains("System.IEquatable<Shop.Core.Models.Money>", type.Interfaces);
    }

    [Fact]
    public async Task TypeOfALiteralIsItsExpressionType()
    {
        var type = await TypeAtAsync(Program, 21, 51);
        Assert.Equal("decimal", type.TypeName);
        Assert.Equal("System.Decimal", type.FullTypeName);
        Assert.Equal("Struct", type.Kind);
    }

    [Fact]
    public async Task DefinitionOfAMethodShowsItsSignature()
    {
        var definition = await DefinitionAtAsync(Program, 21, 41);
        Assert.Equal(
            KnownSymbols.Calculate,
            definition.Symbol);
        Assert.Equal(Span("src/Shop.Core/Services/PriceCalculator.cs", 11, 24, 33), Assert.Single(definition.Locations).Span);
    }

    [Fact]
    public async Task DefinitionOfAReducedExtensionCallIsTheStaticMethod()
    {
        var definition = await DefinitionAtAsync(Program, 18, 29);
        Assert.Equal("Shout", definition.Symbol.Name);
        Assert.Equal(Span("src/Shop.Core/Extensions/StringExtensions.cs", 5, 26, 31), Assert.Single(definition.Locations).Span);
    }

    [Fact]
    public async Task DefinitionOfStringIsMetadata()
    {
        var definition = await DefinitionAtAsync(Program, 32, 38);
        Assert.Equal("String", definition.Symbol.Name);
        Assert.Equal("string", definition.Symbol.Display);
        Assert.True(definition.Symbol.IsMetadata);
        Assert.Equal("System", definition.Symbol.ContainingNamespace);
        Assert.Empty(definition.Locations);
    }

    [Fact]
    public async Task ReferencesOfCustomerAreExactlyItsUses()
    {
        var references = await ReferencesAtAsync(Program, 15, 13, includeDeclaration: true);
        Assert.Equal("Shop.Core.Models.Customer", references.Symbol.Display);
        Assert.Equal(
            [
                ("src/Shop.App/Program.cs", 14u, 32u, "ObjectCreation"),
                ("src/Shop.App/Program.cs", 15u, 13u, "TypeReference"),
                ("src/Shop.App/Reporting/Report.cs", 9u, 34u, "TypeReference"),
                ("src/Shop.App/Reporting/Report.cs", 12u, 31u, "TypeReference"),
                ("src/Shop.App/Reporting/Report.cs", 20u, 18u, "TypeReference"),
                ("src/Shop.Core/Models/Customer.cs", 6u, 14u, "Declaration"),
                ("src/Shop.Core/Models/Order.cs", 10u, 12u, "TypeReference"),
                ("src/Shop.Data/CustomerRepository.cs", 7u, 54u, "TypeReference"),
                ("src/Shop.Data/CustomerRepository.cs", 9u, 21u, "TypeReference"),
                ("src/Shop.Data/CustomerRepository.cs", 14u, 12u, "TypeReference"),
            ],
            references.References.Select(r => (Relative(r.Span.File), r.Span.StartLine, r.Span.StartColumn, r.Kind.ToString())));
        Assert.All(references.References, r => Assert.Equal(r.Span.StartColumn + "Customer".Length, r.Span.EndColumn));

        var creation = references.References[0];
        Assert.Equal("repository.Add(new Customer { Id = 1, Name = \"Ada\" });", creation.LineText);
        Assert.Equal("Shop.App", creation.Project);

        var usesOnly = await ReferencesAtAsync(Program, 15, 13, includeDeclaration: false);
        Assert.Equal(9, usesOnly.References.Count);
        Assert.DoesNotContain(usesOnly.References, r => r.Kind == ReferenceKind.Declaration);
    }

    [Fact]
    public async Task ReferencesOfOneOverloadExcludeTheOthers()
    {
        var references = await ReferencesAtAsync("src/Shop.Core/Services/PriceCalculator.cs", 11, 24, includeDeclaration: true);
        Assert.Equal("Shop.Core.Services.PriceCalculator.Calculate(decimal)", references.Symbol.Display);
        Assert.Equal(
            [
                ("src/Shop.App/Program.cs", 21u, 41u, "Invocation"),
                ("src/Shop.Core/Services/PriceCalculator.cs", 11u, 24u, "Declaration"),
            ],
            references.References.Select(r => (Relative(r.Span.File), r.Span.StartLine, r.Span.StartColumn, r.Kind.ToString())));
        Assert.Equal("decimal single = calculator.Calculate(10m);", references.References[0].LineText);
    }

    [Fact]
    public async Task ReferencesOfAnInterfaceMethodCascadeToItsImplementations()
    {
        // As the IDE shows them: the direct use, and the implementations with their own uses.
        var references = await ReferencesAtAsync("src/Shop.Core/Services/IGreeter.cs", 5, 16, includeDeclaration: true);
        Assert.Equal(
            [
                ("src/Shop.App/Program.cs", 25u, 39u, "Invocation"),
                ("src/Shop.App/Reporting/Report.cs", 22u, 41u, "Invocation"),
                ("src/Shop.Core/Services/Greeter.cs", 5u, 27u, "Declaration"),
                ("src/Shop.Core/Services/Greeter.cs", 13u, 28u, "Declaration"),
                ("src/Shop.Core/Services/Greeter.cs", 21u, 21u, "Declaration"),
                ("src/Shop.Core/Services/IGreeter.cs", 5u, 16u, "Declaration"),
            ],
            references.References.Select(r => (Relative(r.Span.File), r.Span.StartLine, r.Span.StartColumn, r.Kind.ToString())));
    }

    [Fact]
    public async Task ReferencesOfAMetadataMethodAreFoundInSource()
    {
        var references = await ReferencesAtAsync(Program, 32, 45, includeDeclaration: true);
        Assert.StartsWith("string.Join(", references.Symbol.Display);
        Assert.True(references.Symbol.IsMetadata);
        var use = Assert.Single(references.References);
        Assert.Equal(("src/Shop.App/Program.cs", 32u, 45u, "Invocation"), (Relative(use.Span.File), use.Span.StartLine, use.Span.StartColumn, use.Kind.ToString()));
    }

    [Fact]
    public async Task ReferencesClassifyWritesAndReads()
    {
        // `Customer = found` in an object initializer writes the property Order.Customer.
        var references = await ReferencesAtAsync("src/Shop.Core/Models/Order.cs", 10, 22, includeDeclaration: false);
        Assert.Contains(references.References, r => (Relative(r.Span.File), r.Span.StartLine, r.Span.StartColumn, r.Kind.ToString()) == (Program, 27u, 45u, "Write"));
    }

    [Fact]
    public async Task SolutionDiagnosticsHaveNoErrors()
    {
        var diagnostics = (await shop.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(null, null, Severity.Warning, false)))).Value.Diagnostics;
        Assert.Empty(diagnostics);

        var hidden = (await shop.OkAsync<ResponseBody.CompilationDiagnostics>(
            new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(shop.PathOf(Program), null, Severity.Hidden, false)))).Value.Diagnostics;
        Assert.DoesNotContain(hidden, d => d.Severity == Severity.Error);
    }

    [Fact]
    public async Task MissingDocumentIsNotInTheWorkspace()
    {
        var error = await shop.ErrAsync(new RequestBody.TypeAtPosition(shop.At("src/Shop.App/Nope.cs", 1, 1)));
        Assert.Equal(ErrorCode.SourceNotInWorkspace, error.Code);
        Assert.Contains("\"file\":", error.DetailsJson);
        Assert.NotEmpty(error.Suggestions);
    }

    [Fact]
    public async Task LineZeroIsInvalid()
    {
        var error = await shop.ErrAsync(new RequestBody.SymbolDefinition(shop.At(Program, 0, 1)));
        Assert.Equal(ErrorCode.InvalidLineNumber, error.Code);
    }

    [Fact]
    public async Task LinePastTheEndIsInvalid()
    {
        var lineCount = File.ReadAllText(shop.PathOf(Program)).Split('\n').Length;
        var error = await shop.ErrAsync(new RequestBody.SymbolDefinition(shop.At(Program, (uint)lineCount + 1, 1)));
        Assert.Equal(ErrorCode.InvalidLineNumber, error.Code);
        Assert.Equal($$"""{"line":{{lineCount + 1}},"lineCount":{{lineCount}}}""", error.DetailsJson);
    }

    [Fact]
    public async Task ColumnPastTheEndOfTheLineIsInvalid()
    {
        // Line 7 is `namespace Shop.App` (18 characters): column 19 is just after it, 20 is past it.
        var after = await shop.OkAsync<ResponseBody.SymbolDefinition>(new RequestBody.SymbolDefinition(shop.At(Program, 7, 19)));
        Assert.Equal("Shop.App", after.Value.Symbol.Display);

        var error = await shop.ErrAsync(new RequestBody.SymbolDefinition(shop.At(Program, 7, 20)));
        Assert.Equal(ErrorCode.InvalidPosition, error.Code);
        Assert.Equal("""{"line":7,"column":20,"lineLength":18}""", error.DetailsJson);
    }

    [Fact]
    public async Task WhitespaceHasNoSymbol()
    {
        var error = await shop.ErrAsync(new RequestBody.References(new ReferencesRequest(shop.At(Program, 13, 3), true)));
        Assert.Equal(ErrorCode.SymbolNotFound, error.Code);
        Assert.Contains($"{shop.PathOf(Program)}:13:3", error.Message);
        Assert.Contains("\"tokenText\":\"\"", error.DetailsJson);
        Assert.Contains(error.Suggestions, s => s.Contains("identifier"));
    }

    [Fact]
    public async Task CancelledPingStopsPromptly()
    {
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(
            () => shop.Dispatcher.HandleAsync(new RequestBody.Ping(new PingRequest(30_000)), cancel.Token));
        // Well before the ping would have ended by itself.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(15), $"took {clock.Elapsed}");
    }

    [Fact]
    public async Task CancelledReferencesEndInCancellationNotAnError()
    {
        using var cancel = new CancellationTokenSource();
        await cancel.CancelAsync();
        var request = new RequestBody.References(new ReferencesRequest(shop.At(Program, 15, 13), true));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => shop.Dispatcher.HandleAsync(request, cancel.Token));
    }

    private Span Span(string relative, uint line, uint column, uint endColumn) => new(shop.PathOf(relative), line, column, line, endColumn);

    private string Relative(string path) => Path.GetRelativePath(shop.Root, path).Replace(Path.DirectorySeparatorChar, '/');

    private async Task<TypeInfo> TypeAtAsync(string file, uint line, uint column) =>
        (await shop.OkAsync<ResponseBody.TypeAtPosition>(new RequestBody.TypeAtPosition(shop.At(file, line, column)))).Value;

    private async Task<DefinitionInfo> DefinitionAtAsync(string file, uint line, uint column) =>
        (await shop.OkAsync<ResponseBody.SymbolDefinition>(new RequestBody.SymbolDefinition(shop.At(file, line, column)))).Value;

    private async Task<ReferenceList> ReferencesAtAsync(string file, uint line, uint column, bool includeDeclaration) =>
        (await shop.OkAsync<ResponseBody.References>(
            new RequestBody.References(new ReferencesRequest(shop.At(file, line, column), includeDeclaration)))).Value;
}
