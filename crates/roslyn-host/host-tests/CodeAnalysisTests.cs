using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics;

namespace RoslynMcp.Host.Tests;

[Collection(ShopCollection.Name)]
public sealed class CodeAnalysisTests(ShopSolution shop)
{
    private const string Program = "src/Shop.App/Program.cs";

    [Fact]
    public async Task ACorrectStatementDeclaresItsLocalAndUsesRealDeclarations()
    {
        // Line 31 of Program.cs is empty, inside Main after `calculator` and `single` are declared.
        var analysis = await AnalyzeAsync(Program, 31, 1, "decimal doubled = calculator.Calculate(single * 2);");

        Assert.Empty(analysis.Diagnostics);
        var declared = Assert.Single(analysis.Declared);
        Assert.Equal(("doubled", "Local"), (declared.Name, declared.Kind));
        Assert.Equal(
            [
                ("calculator", "Local", $"{Program}:20:17-20:27"),
                ("Shop.Core.Services.PriceCalculator.Calculate(decimal)", "Method", "src/Shop.Core/Services/PriceCalculator.cs:11:24-11:33"),
                ("single", "Local", $"{Program}:21:21-21:27"),
            ],
            analysis.Used.Select(u => (u.Symbol.Display, u.Symbol.Kind, Where(u.Location!.Span))));
        Assert.Equal("var calculator = new PriceCalculator();", analysis.Used[0].Location!.LineText);
        Assert.Equal("M:Shop.Core.Services.PriceCalculator.Calculate(System.Decimal)", analysis.Used[1].Symbol.Key);

        // The snippet never reaches the workspace.
        var document = shop.Solution.GetDocumentIdsWithFilePath(shop.PathOf(Program)).Select(shop.Solution.GetDocument).Single()!;
        Assert.DoesNotContain("doubled", (await document.GetTextAsync()).ToString());
    }

    [Fact]
    public async Task DiagnosticsArePlacedRelativeToTheSnippet()
    {
        // Inserted at column 13 of line 32: the snippet's first line counts columns from its own start.
        var analysis = await AnalyzeAsync(Program, 32, 13, "int x = 1;\n            var y = nothere;\n");

        Assert.Equal(
            [
                ("CS0219", Severity.Warning, $"{Program}:1:5-1:6", "The variable 'x' is assigned but its value is never used"),
                ("CS0103", Severity.Error, $"{Program}:2:21-2:28", "The name 'nothere' does not exist in the current context"),
            ],
            analysis.Diagnostics.Select(d => (d.Id, d.Severity, Where(d.Location!), d.Message)));
        Assert.All(analysis.Diagnostics, d => Assert.Equal(
            ("Shop.App", shop.PathOf("src/Shop.App/Shop.App.csproj")), (d.Project, d.ProjectPath)));
        Assert.Equal(["x", "y"], analysis.Declared.Select(d => d.Name));
        Assert.Empty(analysis.Used);
    }

    [Fact]
    public async Task ALocalDeclaredAfterTheSnippetKeepsItsRealPosition()
    {
        // `names` is declared on line 17, after the inserted line: in the compiled text it moves down by one.
        var analysis = await AnalyzeAsync(Program, 16, 1, "var n = names.Count;\n");

        var diagnostic = Assert.Single(analysis.Diagnostics);
        Assert.Equal(("CS0841", $"{Program}:1:9-1:14"), (diagnostic.Id, Where(diagnostic.Location!)));
        var used = Assert.Single(analysis.Used);
        Assert.Equal(("names", $"{Program}:17:17-17:22"), (used.Symbol.Display, Where(used.Location!.Span)));
        Assert.Equal($"Local|names|{shop.PathOf(Program)}:17:17", used.Symbol.Key);
    }

    [Fact]
    public async Task PatternsOutVariablesDeconstructionAndLocalFunctionsAreDeclared()
    {
        var analysis = await AnalyzeAsync(Program, 31, 1,
            "foreach (var c in names) { if (int.TryParse(c, out var k) && c is { Length: > 2 } s2) { var (p, q) = (k, s2); Local(p); } }\n" +
            "void Local(int v) => System.Console.WriteLine(v + args.Length);");

        Assert.Empty(analysis.Diagnostics);
        Assert.Equal(
            [("c", "Local"), ("k", "Local"), ("s2", "Local"), ("p", "Local"), ("q", "Local"), ("Local", "LocalFunction")],
            analysis.Declared.Select(d => (d.Name, d.Kind)));
        Assert.Equal(
            [
                ("names", $"{Program}:17:17-17:22"),
                ("int.TryParse(string, out int)", null),
                ("string.Length", null),
                ("System.Console", null),
                ("System.Console.WriteLine(int)", null),
                ("string[] args", $"{Program}:11:42-11:46"),
                ("System.Array.Length", null),
            ],
            analysis.Used.Select(u => (u.Symbol.Display, u.Location is { } location ? Where(location.Span) : null)));
    }

    [Fact]
    public async Task MembersInsertedIntoATypeUseMembersDeclaredAroundThem()
    {
        const string report = "src/Shop.App/Reporting/Report.cs";
        // Line 16 is the empty line between the constructor and Render.
        var analysis = await AnalyzeAsync(report, 16, 1, "    public string Twice(decimal amount) => Render(amount) + _customers.All().Count;\n");

        Assert.Empty(analysis.Diagnostics);
        var declared = Assert.Single(analysis.Declared);
        Assert.Equal(("Shop.App.Reporting.Report.Twice(decimal)", "Method"), (declared.Display, declared.Kind));
        Assert.Equal(
            [
                ("Shop.App.Reporting.Report.Render(decimal)", $"{report}:17:19-17:25"),
                ("Shop.App.Reporting.Report._customers", $"{report}:9:44-9:54"),
                ("Shop.Core.Services.IRepository<T>.All()", "src/Shop.Core/Services/IRepository.cs:9:26-9:29"),
                ("System.Collections.Generic.IReadOnlyCollection<T>.Count", null),
            ],
            analysis.Used.Select(u => (u.Symbol.Display, u.Location is { } location ? Where(location.Span) : null)));
    }

    [Fact]
    public async Task EmptyCodeIsRefused()
    {
        var error = await shop.ErrAsync(new RequestBody.AnalyzeCode(new CodeBlock(shop.At(Program, 31, 1), " \n")));

        Assert.Equal(ErrorCode.InvalidParameter, error.Code);
    }

    [Fact]
    public async Task ASnippetNestedBeyondTheLimitIsRefusedBeforeBinding()
    {
        var lambdas = string.Concat(Enumerable.Repeat("() => ", SyntaxDepth.SnippetLimit + 10));
        var error = await shop.ErrAsync(new RequestBody.AnalyzeCode(new CodeBlock(shop.At(Program, 31, 1), $"var f = {lambdas}0;")));

        Assert.Equal(ErrorCode.InvalidParameter, error.Code);
        Assert.Contains($"at most {SyntaxDepth.SnippetLimit} levels", error.Message);
        var details = System.Text.Json.Nodes.JsonNode.Parse(error.DetailsJson)!;
        Assert.Equal(("code", SyntaxDepth.SnippetLimit), ((string?)details["parameter"], (int?)details["limit"]));
        Assert.True((int?)details["depth"] > SyntaxDepth.SnippetLimit + 10, error.DetailsJson);
    }

    [Fact]
    public async Task ASnippetJustUnderTheLimitIsAnalyzed()
    {
        var depth = SyntaxDepth.SnippetLimit - 10;
        var analysis = await AnalyzeAsync(Program, 31, 1, $"var b = {new string('!', depth)}true;");

        Assert.Equal(["b"], analysis.Declared.Select(d => d.Name));
    }

    [Fact]
    public async Task APositionOutsideTheFileIsRefused()
    {
        var error = await shop.ErrAsync(new RequestBody.AnalyzeCode(new CodeBlock(shop.At(Program, 99, 1), "int x = 1;")));

        Assert.Equal(ErrorCode.InvalidLineNumber, error.Code);
    }

    private async Task<CodeAnalysis> AnalyzeAsync(string file, uint line, uint column, string code) =>
        (await shop.OkAsync<ResponseBody.CodeAnalysis>(new RequestBody.AnalyzeCode(new CodeBlock(shop.At(file, line, column), code)))).Value;

    private string Where(Span span) => SpanText.Of(span, shop.Root);
}
