using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>Code actions listed and planned on the Actions fixture (places from its FIXTURE.md).</summary>
[Collection(ActionsCollection.Name)]
public sealed class CodeActionTests(ActionsSolution fixture)
{
    private const string Pricing = "Actions.Core/Pricing.cs";
    private const string Order = "Actions.Core/Order.cs";
    private const string Counters = "Actions.Core/Counters.cs";

    private Span At(string file, uint line, uint column, uint endLine, uint endColumn) => new(fixture.PathOf(file), line, column, endLine, endColumn);

    private async Task<CodeActionList> ListAsync(Span span) =>
        (await fixture.OkAsync<ResponseBody.CodeActions>(new RequestBody.CodeActions(new CodeActionsRequest(span)))).Value;

    private async Task<CodeActionRequest> RequestAsync(Span span, string title, FixAllScope? fixAll = null, ActionOptions? options = null)
    {
        var action = (await ListAsync(span)).Actions.First(a => a.Path[^1] == title);
        return new CodeActionRequest(span, fixture.Dispatcher.CurrentVersion, action.Kind, action.Provider, action.Path, action.Diagnostic?.Id ?? "", fixAll, options ?? new ActionOptions.None());
    }

    private async Task<EditPlan> PlanAsync(Span span, string title, FixAllScope? fixAll = null, ActionOptions? options = null) =>
        (await fixture.OkAsync<ResponseBody.CodeActionPlan>(new RequestBody.PlanCodeAction(await RequestAsync(span, title, fixAll, options)))).Value;

    [Fact]
    public async Task Refactorings_and_fixes_are_listed_flat_with_their_paths_fixes_first()
    {
        var atCounter = (await ListAsync(At(Counters, 5, 17, 5, 17))).Actions;
        var readonlyFix = atCounter[0];
        Assert.Equal((CodeActionKind.Fix, "IDE0044"), (readonlyFix.Kind, readonlyFix.Diagnostic?.Id));
        Assert.Equal([FixAllScope.Document, FixAllScope.Project, FixAllScope.Solution], readonlyFix.FixAllScopes);
        Assert.Contains(atCounter, a => a.Path.SequenceEqual(["Convert number", "Convert to hex"]) && a.Kind == CodeActionKind.Refactoring);

        var atOrder = (await ListAsync(At(Order, 3, 14, 3, 14))).Actions;
        var extract = Assert.Single(atOrder, a => a.Provider == "ExtractInterfaceCodeRefactoringProvider");
        var options = Assert.IsType<ActionOptions.ExtractInterface>(extract.Options).Value;
        Assert.Equal(("IOrder", "IOrder.cs", false), (options.InterfaceName, options.FileName, options.SameFile));
        Assert.Equal(["Id", "Amount", "Ship", "Describe"], options.Members);
        // Generate overrides needs its dialog: never listed.
        Assert.DoesNotContain(atOrder, a => a.Path[^1].StartsWith("Generate overrides", StringComparison.Ordinal));
        Assert.Equal(atOrder, (await ListAsync(At(Order, 3, 14, 3, 14))).Actions);
    }

    [Fact]
    public async Task Extract_method_and_inline_temporary_rewrite_one_method()
    {
        var extracted = Assert.Single((await PlanAsync(At(Pricing, 8, 21, 8, 30), "Extract method")).Edits);
        Assert.Contains("var total = GetTotal(net, tax);", extracted.NewText);
        Assert.Contains("private static decimal GetTotal(decimal net, decimal tax)", extracted.NewText);
        var inlined = Assert.Single((await PlanAsync(At(Pricing, 8, 13, 8, 13), "Inline temporary variable")).Edits);
        Assert.Contains("        return net + tax;\n", inlined.NewText);
        Assert.DoesNotContain("var total", inlined.NewText);
    }

    [Fact]
    public async Task Extract_interface_takes_its_dialogs_choices_as_options()
    {
        var options = new ActionOptions.ExtractInterface(new ExtractInterfaceOptions("IShippable", "IShippable.cs", false, ["Ship", "Describe"]));
        var plan = await PlanAsync(At(Order, 3, 14, 3, 14), "Extract interface...", options: options);
        var created = Assert.Single(plan.Edits, e => e.Kind == EditKind.Create);
        Assert.Equal(fixture.PathOf("Actions.Core/IShippable.cs"), created.Path);
        Assert.Contains("public interface IShippable", created.NewText);
        Assert.Contains("void Ship();", created.NewText);
        Assert.DoesNotContain("Amount", created.NewText);
        Assert.Contains("public class Order : IShippable", Assert.Single(plan.Edits, e => e.Kind == EditKind.Modify).NewText);

        var unknown = await fixture.ErrAsync(new RequestBody.PlanCodeAction(await RequestAsync(
            At(Order, 3, 14, 3, 14),
            "Extract interface...",
            options: new ActionOptions.ExtractInterface(new ExtractInterfaceOptions("IShippable", "IShippable.cs", false, ["Cancel"])))));
        Assert.Equal(ErrorCode.InvalidParameter, unknown.Code);
    }

    [Fact]
    public async Task An_action_that_would_break_the_build_is_refused()
    {
        var clash = new ActionOptions.ExtractInterface(new ExtractInterfaceOptions("Customer", "CustomerContract.cs", false, []));
        var error = await fixture.ErrAsync(new RequestBody.PlanCodeAction(await RequestAsync(At(Order, 3, 14, 3, 14), "Extract interface...", options: clash)));
        Assert.Equal(ErrorCode.CompilationError, error.Code);
        Assert.Contains("CS0101", error.Message);
    }

    [Fact]
    public async Task Fixes_add_a_using_implement_an_interface_and_fix_all_in_a_project()
    {
        var import = Assert.Single((await PlanAsync(At("Actions.Fixes/Report.cs", 9, 24, 9, 24), "using System.Text;")).Edits);
        Assert.StartsWith("using System.Text;\nusing Actions.Core;\n", import.NewText);
        var implemented = Assert.Single((await PlanAsync(At("Actions.Fixes/Shapes.cs", 10, 23, 10, 23), "Implement interface")).Edits);
        Assert.Contains("public double Area()", implemented.NewText);
        var fixedAll = await PlanAsync(At(Counters, 5, 17, 5, 17), "Add readonly modifier", FixAllScope.Project);
        var counters = Assert.Single(fixedAll.Edits);
        Assert.Contains("private readonly int start = 1;", counters.NewText);
        Assert.Contains("private readonly int count = 0;", counters.NewText);
        Assert.Equal(2u, fixedAll.Changes);
        var one = await PlanAsync(At(Counters, 5, 17, 5, 17), "Add readonly modifier");
        Assert.Contains("private int count = 0;", Assert.Single(one.Edits).NewText);
    }

    [Fact]
    public async Task A_stale_or_no_longer_offered_action_is_refused()
    {
        var request = await RequestAsync(At(Pricing, 8, 13, 8, 13), "Inline temporary variable");
        var stale = await fixture.ErrAsync(new RequestBody.PlanCodeAction(request with { WorkspaceVersion = request.WorkspaceVersion + 1 }));
        Assert.Equal(ErrorCode.CodeActionStale, stale.Code);
        var gone = await fixture.ErrAsync(new RequestBody.PlanCodeAction(request with { Span = At(Pricing, 1, 1, 1, 1) }));
        Assert.Equal(ErrorCode.CodeActionNotFound, gone.Code);
        var noFixAll = await fixture.ErrAsync(new RequestBody.PlanCodeAction(request with { FixAll = FixAllScope.Project }));
        Assert.Equal(ErrorCode.InvalidParameter, noFixAll.Code);
    }

    [Fact]
    public async Task A_project_analyzer_references_fixes_apply_to_its_diagnostics()
    {
        var ship = At(Order, 9, 17, 9, 17);
        var fix = Assert.Single((await ListAsync(ship)).Actions, a => a.Diagnostic?.Id == "CA1822");
        Assert.Equal(CodeActionKind.Fix, fix.Kind);
        var plan = await PlanAsync(ship, fix.Path[^1]);
        Assert.Contains("public static void Ship()", Assert.Single(plan.Edits).NewText);
    }
}
