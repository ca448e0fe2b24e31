using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis.Text;
using RoslynMcp.Host.Features.FindReplace;
using RoslynMcp.Host.Protocol;
using Xunit.Abstractions;

namespace RoslynMcp.Host.Tests;

/// <summary>find/replace plans on the Textual fixture (files, matches and counts from its FIXTURE.md).</summary>
[Collection(TextualCollection.Name)]
public sealed class FindReplaceTests(TextualSolution fixture, ITestOutputHelper output)
{
    private const string GetAsync = @"Get(\w+)Async";

    private static RequestBody Replace(
        string pattern,
        string replacement,
        bool regex = false,
        bool caseSensitive = true,
        bool wholeWord = false,
        string? include = null,
        string? project = null,
        bool otherFiles = false) =>
        new RequestBody.PlanFindReplace(new FindReplaceRequest(pattern, replacement, regex, caseSensitive, wholeWord, include, project, otherFiles));

    private async Task<FindReplacePlan> PlanAsync(RequestBody request)
    {
        var result = (await fixture.OkAsync<ResponseBody.FindReplacePlan>(request)).Value;
        var plan = result.Plan;
        output.WriteLine($"{plan.Title}: {plan.Documents} files, {plan.Changes} changes; {string.Join("; ", plan.Warnings)}");
        output.WriteLine(string.Join("\n", result.Matches.Select(m => $"{Relative(m.Span.File)}:{m.Span.StartLine}:{m.Span.StartColumn}-{m.Span.EndLine}:{m.Span.EndColumn} '{m.Text}' -> '{m.Replacement}' | {m.LineBefore} | {m.LineAfter}")));
        output.WriteLine(string.Join("\n", plan.Edits.Select(e => $"--- {Relative(e.Path)}: {e.Description}\n{e.NewText}")));
        Assert.Equal(plan.Edits.OrderBy(e => e.Path, StringComparer.Ordinal).Select(e => e.Path), plan.Edits.Select(e => e.Path).Distinct());
        await fixture.Solution.AssertCompilesAsync([.. plan.Edits.Where(e => fixture.Solution.GetDocumentIdsWithFilePath(e.Path).Any())]);
        return result;
    }

    private string Relative(string path) => Path.GetRelativePath(fixture.Root, path).Replace('\\', '/');

    private string NewText(FindReplacePlan result, string relative) =>
        Assert.Single(result.Plan.Edits, e => e.Path == fixture.PathOf(relative)).NewText;

    private async Task<HostError> RefusedAsync(RequestBody request, ErrorCode code)
    {
        var error = await fixture.ErrAsync(request);
        output.WriteLine($"{error.Code}: {error.Message}");
        Assert.Equal(code, error.Code);
        return error;
    }

    [Fact]
    public async Task RegexWithGroupsRenamesEveryMethodConsistently()
    {
        var result = await PlanAsync(Replace(GetAsync, "Fetch$1Async", regex: true));

        Assert.Equal("Replace 5 matches in 3 files", result.Plan.Title);
        Assert.Equal(4u, result.Plan.Documents);
        Assert.Equal(5u, result.Plan.Changes);
        Assert.Equal(
            [
                "Textual/Customers/CustomerService.cs:8:27-8:43 GetCustomerAsync -> FetchCustomerAsync",
                "Textual/Orders/OrderService.cs:9:28-9:41 GetOrderAsync -> FetchOrderAsync",
                "Textual/Orders/OrderService.cs:10:38-10:54 GetCustomerAsync -> FetchCustomerAsync",
                "Textual/Reports/ReportBuilder.cs:17:34-17:47 GetOrderAsync -> FetchOrderAsync",
                "Textual/Reports/ReportBuilder.cs:18:40-18:56 GetCustomerAsync -> FetchCustomerAsync",
            ],
            result.Matches.Select(m => $"{Relative(m.Span.File)}:{m.Span.StartLine}:{m.Span.StartColumn}-{m.Span.EndLine}:{m.Span.EndColumn} {m.Text} -> {m.Replacement}"));
        var first = result.Matches[1];
        Assert.Equal("  public async Task<Order> GetOrderAsync(int id) {", first.LineBefore);
        Assert.Equal("  public async Task<Order> FetchOrderAsync(int id) {", first.LineAfter);
        Assert.Contains("        var customer = await customers.FetchCustomerAsync(order.CustomerId);\n", NewText(result, "Textual/Reports/ReportBuilder.cs"));
        Assert.All(result.Plan.Edits, e => Assert.Equal("Replace " + (e.Path.EndsWith("CustomerService.cs", StringComparison.Ordinal) ? "1 match" : "2 matches"), e.Description));
    }

    [Fact]
    public async Task OtherFilesAreSearchedOnlyWhenAsked()
    {
        var result = await PlanAsync(Replace(GetAsync, "Fetch$1Async", regex: true, otherFiles: true));

        Assert.Equal("Replace 10 matches in 5 files", result.Plan.Title);
        Assert.Equal(10u, result.Plan.Documents);
        Assert.Equal(
            ["README.md", "Textual/Customers/CustomerService.cs", "Textual/Orders/OrderService.cs", "Textual/Reports/ReportBuilder.cs", "notes.txt"],
            result.Plan.Edits.Select(e => Relative(e.Path)));
        Assert.Equal(
            "`OrderService.FetchOrderAsync` returns an order; `CustomerService.FetchCustomerAsync` returns its customer.",
            result.Matches.First(m => Relative(m.Span.File) == "README.md").LineAfter);
        Assert.Equal(
            [$"Skipped {fixture.PathOf("big.log")}: over 1 MiB", $"Skipped {fixture.PathOf("link.md")}: a symbolic link"],
            result.Plan.Warnings);
    }

    [Fact]
    public async Task AFileWithAByteOrderMarkIsHashedAndRewrittenWithoutIt()
    {
        var result = await PlanAsync(Replace("GetOrderAsync", "FindOrder", include: "*.txt", otherFiles: true));

        var edit = Assert.Single(result.Plan.Edits);
        var withoutMark = "Notes: GetOrderAsync calls GetCustomerAsync for every order.\nTodo: page the results of GetOrderAsync.\n";
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(withoutMark))), edit.BaseSha256);
        Assert.Equal("Notes: FindOrder calls GetCustomerAsync for every order.\nTodo: page the results of FindOrder.\n", edit.NewText);
        Assert.Equal(2, result.Matches.Count);
        Assert.Equal((1u, 8u), (result.Matches[0].Span.StartLine, result.Matches[0].Span.StartColumn));
    }

    [Fact]
    public async Task IncludeGlobNarrowsTheFiles()
    {
        var readme = await PlanAsync(Replace(GetAsync, "Fetch$1Async", regex: true, include: "*.md", otherFiles: true));
        Assert.Equal(["README.md"], readme.Plan.Edits.Select(e => Relative(e.Path)));
        Assert.Equal(1u, readme.Plan.Documents);

        var customers = await PlanAsync(Replace("todo", "NOTE", caseSensitive: false, include: "**/Customers/*.cs"));
        Assert.Equal(["Textual/Customers/CustomerService.cs"], customers.Plan.Edits.Select(e => Relative(e.Path)));
        Assert.Equal(1u, customers.Plan.Documents);
    }

    [Fact]
    public async Task CaseSensitivityDecidesWhatMatches()
    {
        var insensitive = await PlanAsync(Replace("todo", "NOTE", caseSensitive: false));
        Assert.Equal(["TODO", "todo"], insensitive.Matches.Select(m => m.Text));
        Assert.Contains("    // NOTE: read customers from a store\n", NewText(insensitive, "Textual/Customers/CustomerService.cs"));

        var sensitive = await PlanAsync(Replace("todo", "NOTE"));
        Assert.Equal(["todo"], sensitive.Matches.Select(m => m.Text));
        Assert.Equal(["Textual/Orders/OrderService.cs"], sensitive.Plan.Edits.Select(e => Relative(e.Path)));
    }

    [Fact]
    public async Task WholeWordLeavesLongerNamesAlone()
    {
        var result = await PlanAsync(Replace("Order", "Purchase", wholeWord: true));

        Assert.Equal(4, result.Matches.Count);
        Assert.Equal(
            ["Textual/Models.cs", "Textual/Orders/OrderService.cs", "Textual/Reports/ReportBuilder.cs"],
            result.Plan.Edits.Select(e => Relative(e.Path)));
        Assert.Equal(
            "public sealed record Purchase(int Id, int CustomerId, decimal Total);",
            result.Matches[0].LineAfter);
        Assert.Contains("public async Task<Purchase> GetOrderAsync(int id) {", NewText(result, "Textual/Orders/OrderService.cs"));

        var anywhere = await PlanAsync(Replace("Order", "Order", caseSensitive: true));
        Assert.Equal(11, anywhere.Matches.Count);
        Assert.Empty(anywhere.Plan.Edits);
    }

    [Fact]
    public async Task LiteralReplacementIsTakenAsIs()
    {
        var result = await PlanAsync(Replace("todo", "$1 cost: $$", include: "Textual/Orders/*.cs"));
        Assert.Contains("  // $1 cost: $$: cache orders\n", NewText(result, "Textual/Orders/OrderService.cs"));
    }

    [Fact]
    public async Task NoMatchIsAnEmptyPlan()
    {
        var result = await PlanAsync(Replace("NoSuchText", "x"));

        Assert.Empty(result.Matches);
        Assert.Empty(result.Plan.Edits);
        Assert.Equal(4u, result.Plan.Documents);
        Assert.Equal("Replace 0 matches in 0 files", result.Plan.Title);
    }

    [Fact]
    public async Task ABuildBreakingReplacementIsRefused()
    {
        var error = await RefusedAsync(Replace("Task<Order> GetOrderAsync(", "Task<Order> LoadOrderAsync("), ErrorCode.CompilationError);
        Assert.StartsWith("The replacement of 'Task<Order> GetOrderAsync(' with 'Task<Order> LoadOrderAsync(' would add 1 compiler error; the first: CS1061", error.Message);
        Assert.StartsWith("Every plan must compile", error.Suggestions[0]);
    }

    [Fact]
    public async Task AnInvalidRegexIsRefusedWithTheParserMessage()
    {
        var error = await RefusedAsync(Replace(@"Get(\w+Async", "x", regex: true), ErrorCode.InvalidParameter);
        Assert.StartsWith(@"'Get(\w+Async' is not a valid .NET regular expression: ", error.Message);
        Assert.Contains("Not enough )'s", error.Message);
    }

    [Fact]
    public async Task ACatastrophicPatternTimesOut()
    {
        var error = await RefusedAsync(Replace("(=+)+#", "x", regex: true), ErrorCode.InvalidParameter);
        Assert.Equal($"The pattern '(=+)+#' took over 2 s to match in {fixture.PathOf("Textual/Reports/ReportBuilder.cs")}: it backtracks too much", error.Message);
    }

    [Theory]
    [InlineData("src/**.cs")]
    [InlineData("/Textual/*.cs")]
    [InlineData("**/*.{cs,md}")]
    [InlineData("Textual/")]
    public async Task AnInvalidGlobIsRefused(string glob)
    {
        var error = await RefusedAsync(Replace("todo", "x", include: glob), ErrorCode.InvalidParameter);
        Assert.StartsWith($"The include glob '{glob}' is invalid: ", error.Message);
    }

    [Fact]
    public async Task AnUnknownProjectIsRefused()
    {
        await RefusedAsync(Replace("todo", "x", project: "Nope"), ErrorCode.ProjectNotFound);
    }

    [Fact]
    public async Task TooManyMatchesAreRefused()
    {
        var solution = fixture.Solution;
        var id = solution.GetDocumentIdsWithFilePath(fixture.PathOf("Textual/Models.cs")).Single();
        var crowded = solution.WithDocumentText(id, SourceText.From("// " + new string('x', FindReplaceHandler.MaxMatches + 5)));

        var error = await Assert.ThrowsAsync<Protocol.HostErrorException>(() => FindReplaceHandler.HandleAsync(
            crowded, fixture.SolutionPath, new FindReplaceRequest("x", "y", false, true, false, null, null, false), CancellationToken.None));

        Assert.Equal(ErrorCode.CapExceeded, error.Error.Code);
        Assert.Equal(FindReplaceHandler.MaxMatches + 1, (int)JsonNode.Parse(error.Error.DetailsJson)!["matches"]!);
    }

    [Fact]
    public async Task DocumentsAreReadFromTheSnapshot()
    {
        var solution = fixture.Solution;
        var id = solution.GetDocumentIdsWithFilePath(fixture.PathOf("Textual/Models.cs")).Single();
        var changed = solution.WithDocumentText(id, SourceText.From("namespace Textual;\n\n// todo: more models\npublic sealed record Order(int Id, int CustomerId, decimal Total);\n\npublic sealed record Customer(int Id, string Name);\n"));

        var result = await FindReplaceHandler.HandleAsync(
            changed, fixture.SolutionPath, new FindReplaceRequest("todo", "NOTE", false, true, false, "Textual/Models.cs", null, false), CancellationToken.None);

        Assert.Equal("// NOTE: more models", Assert.Single(result.Matches).LineAfter);
    }
}
