using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// The byte vectors `crates/protocol/tests/golden.rs` writes: the same values built here must encode to the
/// same bytes, and the bytes must decode to the same values.
/// </summary>
public sealed class GoldenVectorTests
{
    private static readonly Position UnicodePosition = new("/w/Ünïcode.cs", 70_000, 12);

    private static readonly SymbolRef CalculateRef = new(
        KnownSymbols.Calculate,
        new SourceLocation(
            LineSpan("/work/Shop/src/Shop.Core/Services/PriceCalculator.cs", 12, 24, 33),
            "public decimal Calculate(decimal price)"));

    private static readonly SymbolRef ObjectRef = new(
        new SymbolSummary("Object", "Class", "object", null, "System", "System.Runtime", true, "T:System.Object"),
        null);

    private static readonly Member CalculateMember = new(
        CalculateRef,
        "decimal Calculate(decimal price)",
        "Shop.Core.Services.PriceCalculator",
        Accessibility.ProtectedInternal,
        "Price with tax.",
        [new Parameter("price", "decimal", null)],
        "decimal",
        IsExtension: false,
        IsStatic: false,
        IsAsync: true);

    private static Span LineSpan(string file, uint line, uint column, uint endColumn) => new(file, line, column, line, endColumn);

    private static BrokerMessage Request(ulong id, RequestBody body) => new BrokerMessage.Request(new HostRequest(new RequestId(id), body));

    private static HostMessage Response(ulong id, Outcome outcome) =>
        new HostMessage.Response(new HostResponse(new RequestId(id), 1234, 3, outcome));

    private static HostMessage Answer(ulong id, ResponseBody body) => Response(id, new Outcome.Ok(body));

    public static TheoryData<string, BrokerMessage> BrokerVectors() => new()
    {
        { "broker_hello", new BrokerMessage.Hello(new BrokerHello(ProtocolVersion.Current)) },
        { "broker_load", Request(1, new RequestBody.Load(new LoadRequest("/work/Shop/Shop.sln"))) },
        { "broker_file_changes", Request(2, new RequestBody.ApplyFileChanges(new FileChanges(["/w/a.cs", "/w/b.csproj"], []))) },
        { "broker_type_at_position", Request(250, new RequestBody.TypeAtPosition(UnicodePosition)) },
        { "broker_symbol_definition", Request(251, new RequestBody.SymbolDefinition(UnicodePosition)) },
        { "broker_references", Request(65_536, new RequestBody.References(new ReferencesRequest(UnicodePosition, true))) },
        {
            "broker_diagnostics_file",
            Request(5_000_000_000, new RequestBody.CompilationDiagnostics(new DiagnosticsRequest("/w/a.cs", null, Severity.Warning, false)))
        },
        {
            "broker_diagnostics_solution",
            Request(ulong.MaxValue, new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(null, "Shop.Core", Severity.Hidden, true)))
        },
        { "broker_ping", Request(3, new RequestBody.Ping(new PingRequest(0))) },
        {
            "broker_plan_move_file",
            Request(8, new RequestBody.PlanMove(new MoveRequest(
                "/w/Models/Order.cs",
                "Shop.Core.Models.Order",
                12,
                new MoveDestination.File(new FileDestination("/w/Models/Ordering/Order.cs", true)))))
        },
        {
            "broker_plan_move_namespace",
            Request(9, new RequestBody.PlanMove(new MoveRequest(
                "/w/Money.cs",
                "Money",
                null,
                new MoveDestination.Namespace(new NamespaceDestination("Shop.Core.Pricing", false)))))
        },
        { "broker_members", Request(10, new RequestBody.Members(new MembersRequest(UnicodePosition, true, false))) },
        {
            "broker_implementations",
            Request(11, new RequestBody.Implementations(
                new ImplementationsRequest(new SymbolTarget.Named("Shop.Core.Services.IRepository<T>"), false, true)))
        },
        { "broker_overloads", Request(12, new RequestBody.Overloads(UnicodePosition)) },
        { "broker_type_hierarchy", Request(13, new RequestBody.TypeHierarchy(new SymbolTarget.At(UnicodePosition))) },
        { "broker_call_hierarchy", Request(14, new RequestBody.CallHierarchy(new CallHierarchyRequest(UnicodePosition, true, false))) },
        { "broker_document_symbols", Request(15, new RequestBody.DocumentSymbols(new DocumentRequest("/w/a.cs"))) },
        { "broker_search_symbols", Request(16, new RequestBody.SearchSymbols(new SymbolSearchRequest("Cust"))) },
        {
            "broker_analyze_code",
            Request(17, new RequestBody.AnalyzeCode(new CodeBlock(UnicodePosition, "var total = calculator.Calculate(10m);\n")))
        },
        {
            "broker_plan_rename",
            Request(18, new RequestBody.PlanRename(new RenameRequest(UnicodePosition, "Purchase", true, false, true, true)))
        },
        {
            "broker_plan_organize_usings",
            Request(19, new RequestBody.PlanOrganizeUsings(new OrganizeUsingsRequest(null, "Shop.Core", true, false)))
        },
        { "broker_code_actions", Request(20, new RequestBody.CodeActions(new CodeActionsRequest(LineSpan("/w/a.cs", 4, 9, 30)))) },
        {
            "broker_plan_code_action",
            Request(21, new RequestBody.PlanCodeAction(new CodeActionRequest(
                LineSpan("/w/a.cs", 4, 9, 9),
                300,
                CodeActionKind.Fix,
                "CSharpAddImportCodeFixProvider",
                ["using System.Text;"],
                "CS0246",
                FixAllScope.Project,
                new ActionOptions.None())))
        },
        {
            "broker_plan_extract_interface",
            Request(22, new RequestBody.PlanCodeAction(new CodeActionRequest(
                LineSpan("/w/Order.cs", 3, 14, 14),
                0,
                CodeActionKind.Refactoring,
                "ExtractInterfaceCodeRefactoringProvider",
                ["Extract interface..."],
                "",
                null,
                new ActionOptions.ExtractInterface(new ExtractInterfaceOptions("IOrder", "IOrder.cs", false, ["Total", "Add"])))))
        },
        { "broker_plan_format", Request(23, new RequestBody.PlanFormat(new FormatRequest("/w/a.cs", null, new LineRange(3, 40)))) },
        {
            "broker_plan_find_replace",
            Request(24, new RequestBody.PlanFindReplace(new FindReplaceRequest(@"Get(\w+)Async", "Fetch$1Async", true, true, false, "**/*.cs", null, true)))
        },
        {
            "broker_plan_remove_unused",
            Request(25, new RequestBody.PlanRemoveUnused(new RemoveUnusedRequest(null, "Shop.Core", [UnusedKind.Members, UnusedKind.Usings], false)))
        },
        {
            "broker_warm_up",
            Request(26, new RequestBody.WarmUp(new WarmUpRequest("Shop.Core")))
        },
        {
            "broker_find_tests_symbol",
            Request(27, new RequestBody.FindTests(new FindTestsRequest(new ChangeOrigin.Symbol(new Position("/w/Pricer.cs", 12, 20)), "Pricing.XunitTests")))
        },
        {
            "broker_find_tests_lines",
            Request(28, new RequestBody.FindTests(new FindTestsRequest(
                new ChangeOrigin.Lines([new ChangedLines("/w/Pricer.cs", [new LineRange(3, 5), new LineRange(9, 8)])]),
                null)))
        },
        {
            "broker_plan_change_signature",
            Request(30, new RequestBody.PlanChangeSignature(new ChangeSignatureRequest(
                new Position("/w/Pricing.cs", 10, 28),
                [
                    new SignatureParameter("unitPrice", "price", "double", null),
                    new SignatureParameter("currency", "", "", new AddedParameter("string", "\"EUR\"", "\"USD\"", true)),
                ])))
        },
        {
            "broker_plan_safe_delete_symbol",
            Request(31, new RequestBody.PlanSafeDelete(new SafeDeleteRequest(new DeleteTarget.Symbol(new Position("/w/Pricing.cs", 21, 20)), false)))
        },
        {
            "broker_plan_safe_delete_file",
            Request(32, new RequestBody.PlanSafeDelete(new SafeDeleteRequest(new DeleteTarget.File("/w/Old.cs"), true)))
        },
        {
            "broker_plan_rename_file",
            Request(33, new RequestBody.PlanRenameFile(new RenameFileRequest("/w/Order.cs", "Purchase.cs")))
        },
        {
            "broker_plan_sync_namespaces",
            Request(34, new RequestBody.PlanSyncNamespaces(new SyncNamespacesRequest("Lib", "/w/Lib/Models")))
        },
        {
            "broker_plan_move_files",
            Request(35, new RequestBody.PlanMoveFiles(new MoveFilesRequest([], "/w/Lib/Parsing", "/w/Tools/Parsing", false)))
        },
        {
            "broker_project_graph",
            Request(36, new RequestBody.ProjectGraph(new ProjectGraphRequest("Core", true)))
        },
        {
            "broker_public_api",
            Request(37, new RequestBody.PublicApi(new PublicApiRequest("Core", [new SourceFile("/w/Core/A.cs", "public class A {}")])))
        },
        {
            "broker_read_source",
            Request(38, new RequestBody.ReadSource(new ReadSourceRequest("roslyn-mcp://generated/App/Gen.Regex/R.g.cs")))
        },
        {
            "broker_generated_documents",
            Request(39, new RequestBody.GeneratedDocuments(new ProjectRequest("App")))
        },
        {
            "broker_symbol_sources",
            Request(40, new RequestBody.SymbolSources(new SymbolSourcesRequest(["Shop.Cart", "Shop.Nope"], true)))
        },
        {
            "broker_check_edits",
            Request(41, new RequestBody.CheckEdits(new CheckEditsRequest(
                [new FileEdit("/w/Cart.cs", EditKind.Modify, string.Concat(Enumerable.Repeat("9f", 32)), "class Cart { }", "Rename Basket to Cart")],
                ["Basket", "Cart"])))
        },
        {
            "broker_find_tests_named",
            Request(29, new RequestBody.FindTests(new FindTestsRequest(new ChangeOrigin.Tests(["Pricing.XunitTests.CartTests.TotalAsksThePricer"]), null)))
        },
        { "broker_cancel", new BrokerMessage.Cancel(new RequestId(7)) },
        { "broker_shutdown", new BrokerMessage.Shutdown() },
    };

    public static TheoryData<string, HostMessage> HostVectors()
    {
        var summary = new WorkspaceSummary(
            "/work/Shop/Shop.sln",
            [new ProjectSummary("Shop.Core", "/work/Shop/src/Shop.Core/Shop.Core.csproj", "Shop.Core", ["net10.0"], 11, [])],
            [new WorkspaceDiagnostic(WorkspaceDiagnosticKind.Warning, "Found project reference without a matching metadata reference")]);
        var typeInfo = new TypeInfo(
            new SymbolSummary("names", "Local", "names", null, null, "Shop.App", false, "Local|names|/w/Program.cs:12:22"),
            "List<string>",
            "System.Collections.Generic.List<System.String>",
            "Class",
            "System.Collections",
            "System.Collections.Generic",
            "Represents a strongly typed list of objects.",
            true,
            ["System.String"],
            "System.Object",
            ["System.Collections.Generic.IList<System.String>"],
            [new SourceLocation(LineSpan("/w/List.cs", 3, 14, 18), "public class List<T>")],
            null);
        var definition = new DefinitionInfo(
            KnownSymbols.Calculate,
            [new SourceLocation(
                LineSpan("/work/Shop/src/Shop.Core/Services/PriceCalculator.cs", 12, 24, 33),
                "public decimal Calculate(decimal price)")],
            new MetadataSource(
                LineSpan("roslyn-mcp://metadata/System.Text.Json/10.0.0.0/System.Text.Json.JsonSerializer.cs", 40, 23, 32),
                "public static string Serialize<TValue>(TValue value)",
                SourceOrigin.Decompiled));
        var references = new ReferenceList(
            KnownSymbols.Calculate,
            [new Reference(
                LineSpan("/work/Shop/src/Shop.App/Program.cs", 20, 40, 49),
                "var total = new PriceCalculator().Calculate(10m);",
                ReferenceKind.Invocation,
                "Shop.App",
                ["net10.0", "net9.0"])]);
        var diagnostics = new DiagnosticList(
        [
            new Diagnostic("CS8021", Severity.Info, "No value for RuntimeMetadataVersion found.", "Broken", "/w/Broken.csproj", null, "compiler"),
            new Diagnostic(
                "CS0029",
                Severity.Error,
                "Cannot implicitly convert type 'string' to 'int'",
                "Broken",
                "/w/Broken.csproj",
                LineSpan("/w/Broken.cs", 7, 21, 28),
                "Microsoft.CodeAnalysis.NetAnalyzers"),
        ]);
        var movePlan = new MovePlan(
            new MovedSymbol(
                "Money",
                "RecordStruct",
                "Shop.Core.Models.Money",
                "Shop.Core.Pricing.Money",
                "Shop.Core.Models",
                "Shop.Core.Pricing",
                new Position("/w/Money.cs", 5, 22),
                new Position("/w/Pricing/Money.cs", 300, 22)),
            [
                new FileEdit("/w/Money.cs", EditKind.Delete, string.Concat(Enumerable.Repeat("ab", 32)), "", "Delete the file, left without types"),
                new FileEdit(
                    "/w/Pricing/Money.cs",
                    EditKind.Create,
                    "",
                    "namespace Shop.Core.Pricing;\r\n\r\npublic record struct Money(decimal Amount);\n",
                    "Add declaration of Money"),
                new FileEdit("/w/Ünïcode.cs", EditKind.Modify, string.Concat(Enumerable.Repeat("0f", 32)), "using Shop.Core.Pricing;\n", "Update 2 references"),
            ],
            70_000,
            1,
            0);
        var members = new MemberList(ObjectRef.Symbol, [CalculateMember, CalculateMember with { Documentation = null, Parameters = [] }]);
        var implementations = new ImplementationList(KnownSymbols.Calculate, [new Related(CalculateRef, Relation.Implements, true)]);
        var hierarchy = new TypeHierarchy(
            CalculateRef,
            [new Related(ObjectRef, Relation.BaseType, true)],
            [],
            [new Related(CalculateRef, Relation.Interface, false)]);
        var calls = new CallHierarchy(
            CalculateRef,
            [new CallGroup(CalculateRef, [new SourceLocation(LineSpan("/w/a.cs", 4, 5, 14), "Calculate(1m);")])],
            [new CallGroup(ObjectRef, [])]);
        var documentSymbols = new DocumentSymbolList(
        [
            new DocumentSymbol(
                "Calculate",
                "Method",
                new Span("/w/a.cs", 11, 9, 14, 10),
                LineSpan("/w/a.cs", 11, 24, 33),
                "PriceCalculator",
                "Shop.Core.Services.PriceCalculator.Calculate(decimal)"),
        ]);
        var analysis = new CodeAnalysis(
            [
                new Diagnostic(
                    "CS0103",
                    Severity.Error,
                    "The name 'calculatr' does not exist in the current context",
                    "Shop.App",
                    "/w/Shop.App.csproj",
                    LineSpan("/w/Program.cs", 1, 13, 22),
                    "compiler"),
            ],
            [KnownSymbols.Calculate],
            [CalculateRef, ObjectRef]);
        var renamePlan = new RenamePlan(
            new RenamedSymbol("Order", "Purchase", "Class", "Shop.Core.Models.Order", "Shop.Core.Models.Purchase", new Position("/w/Order.cs", 3, 14)),
            [
                new FileEdit("/w/Order.cs", EditKind.Delete, string.Concat(Enumerable.Repeat("cd", 32)), "", "Renamed to Purchase.cs"),
                new FileEdit("/w/Purchase.cs", EditKind.Create, "", "public class Purchase { }\n", "Renamed from Order.cs; 1 edit"),
            ],
            300,
            299,
            ["Renamed Order.cs to Purchase.cs"]);
        var organizeUsingsPlan = new OrganizeUsingsPlan(
            [new FileEdit("/w/a.cs", EditKind.Modify, string.Concat(Enumerable.Repeat("0f", 32)), "using System;\n", "Remove 2 usings; sort")],
            12,
            2,
            []);
        var error = new HostError(ErrorCode.SymbolNotFound, "No symbol at /w/a.cs:3:1", """{"line":3}""", ["Check the line and column"]);
        return new()
        {
            {
                "host_hello",
                new HostMessage.Hello(new HostHello(
                    ProtocolVersion.Current,
                    "0.1.0",
                    "5.12.0",
                    "18.9.11",
                    "/usr/share/dotnet/sdk/10.0.401/",
                    "10.0.401",
                    "10.0.12",
                    4242))
            },
            { "host_loaded", Answer(1, new ResponseBody.Loaded(summary)) },
            { "host_file_changes_applied", Answer(2, new ResponseBody.FileChangesApplied(summary)) },
            { "host_type_info", Answer(250, new ResponseBody.TypeAtPosition(typeInfo)) },
            { "host_definition", Answer(251, new ResponseBody.SymbolDefinition(definition)) },
            { "host_references", Answer(65_536, new ResponseBody.References(references)) },
            { "host_diagnostics", Answer(5_000_000_000, new ResponseBody.CompilationDiagnostics(diagnostics)) },
            { "host_error", Response(9, new Outcome.Err(error)) },
            { "host_cancelled", Response(10, new Outcome.Cancelled()) },
            { "host_pong", Answer(3, new ResponseBody.Pong(new HostState(2))) },
            { "host_move_plan", Answer(8, new ResponseBody.MovePlan(movePlan)) },
            { "host_members", Answer(10, new ResponseBody.Members(members)) },
            { "host_implementations", Answer(11, new ResponseBody.Implementations(implementations)) },
            { "host_overloads", Answer(12, new ResponseBody.Overloads(new OverloadList(KnownSymbols.Calculate, [CalculateMember]))) },
            { "host_type_hierarchy", Answer(13, new ResponseBody.TypeHierarchy(hierarchy)) },
            { "host_call_hierarchy", Answer(14, new ResponseBody.CallHierarchy(calls)) },
            { "host_document_symbols", Answer(15, new ResponseBody.DocumentSymbols(documentSymbols)) },
            { "host_search_symbols", Answer(16, new ResponseBody.SearchSymbols(new SymbolMatches([CalculateRef]))) },
            { "host_code_analysis", Answer(17, new ResponseBody.CodeAnalysis(analysis)) },
            { "host_rename_plan", Answer(18, new ResponseBody.RenamePlan(renamePlan)) },
            { "host_organize_usings_plan", Answer(19, new ResponseBody.OrganizeUsingsPlan(organizeUsingsPlan)) },
            {
                "host_code_actions",
                Answer(20, new ResponseBody.CodeActions(new CodeActionList(
                [
                    new CodeAction(
                        CodeActionKind.Fix,
                        "CSharpAddImportCodeFixProvider",
                        ["using System.Text;"],
                        "using System.Text;",
                        new FixedDiagnostic(
                            "CS0246",
                            "The type or namespace name 'StringBuilder' could not be found",
                            Severity.Error,
                            LineSpan("/w/a.cs", 4, 9, 22)),
                        [FixAllScope.Document, FixAllScope.Project, FixAllScope.Solution],
                        new ActionOptions.None()),
                    new CodeAction(
                        CodeActionKind.Refactoring,
                        "ExtractInterfaceCodeRefactoringProvider",
                        ["Extract interface..."],
                        "",
                        null,
                        [],
                        new ActionOptions.ExtractInterface(new ExtractInterfaceOptions("IOrder", "IOrder.cs", false, []))),
                ])))
            },
            {
                "host_code_action_plan",
                Answer(21, new ResponseBody.CodeActionPlan(new EditPlan(
                    "Extract method",
                    [new FileEdit("/w/a.cs", EditKind.Modify, string.Concat(Enumerable.Repeat("1e", 32)), "class A { void M() { N(); } void N() { } }\n", "Extract method")],
                    1,
                    2,
                    ["Reformatted"])))
            },
            { "host_format_plan", Answer(23, new ResponseBody.FormatPlan(new EditPlan("Format 0 files", [], 7, 0, []))) },
            {
                "host_find_replace_plan",
                Answer(24, new ResponseBody.FindReplacePlan(new FindReplacePlan(
                    new EditPlan(
                        "Replace 1 match in 1 file",
                        [new FileEdit("/w/README.md", EditKind.Modify, string.Concat(Enumerable.Repeat("aa", 32)), "Call FetchOrderAsync.\n", "1 replacement")],
                        40,
                        1,
                        []),
                    [new TextMatch(LineSpan("/w/README.md", 1, 6, 19), "GetOrderAsync", "FetchOrderAsync", "Call GetOrderAsync.", "Call FetchOrderAsync.")])))
            },
            {
                "host_remove_unused_plan",
                Answer(25, new ResponseBody.RemoveUnusedPlan(new RemoveUnusedPlan(
                    new EditPlan("Remove 2 unused", [], 3, 2, ["Kept Helper: it has an attribute"]),
                    [
                        new RemovedItem(UnusedKind.Members, "cache", "IDE0052", new Position("/w/a.cs", 5, 20)),
                        new RemovedItem(UnusedKind.Parameters, "unused", "IDE0060", new Position("/w/a.cs", 9, 30)),
                    ])))
            },
            { "host_warmed_up", Answer(26, new ResponseBody.WarmedUp(new WarmedUp(11))) },
            {
                "host_change_signature_plan",
                Answer(30, new ResponseBody.ChangeSignaturePlan(new ChangeSignaturePlan(
                    "Shop.Pricing.Price(int, decimal)",
                    "Shop.Pricing.Price(double, string)",
                    "Method",
                    new Position("/w/Pricing.cs", 10, 28),
                    [],
                    2,
                    5,
                    9,
                    ["Renamed parameter unitPrice to price"])))
            },
            {
                "host_safe_delete_plan",
                Answer(31, new ResponseBody.SafeDeletePlan(new SafeDeletePlan(
                    [new DeletedSymbol("Sum", "Method", "Shop.Pricing.Sum(string, params int[])", new Position("/w/Pricing.cs", 21, 20))],
                    [],
                    1,
                    ["Deleted Old.cs"])))
            },
            {
                "host_rename_file_plan",
                Answer(33, new ResponseBody.RenameFilePlan(new RenameFilePlan(null, [], 1, ["Renamed Order.cs to Purchase.cs"])))
            },
            {
                "host_sync_namespaces_plan",
                Answer(34, new ResponseBody.SyncNamespacesPlan(new SyncNamespacesPlan(
                    new EditPlan("Sync the namespaces of 1 file", [], 4, 3, []),
                    [new NamespaceChange("/w/Lib/Models/Item.cs", "Shop.Lib", "Shop.Lib.Models")])))
            },
            {
                "host_project_graph",
                Answer(36, new ResponseBody.ProjectGraph(new ProjectGraph(
                    [new GraphProject(
                        "Core", "/w/Core/Core.csproj", "Core", ["net10.0"], "library", false,
                        ["/w/Extra/Extra.csproj"], [new PackageVersion("Humanizer", "2.14.1")],
                        ["Microsoft.CodeAnalysis.NetAnalyzers"], ["System.Text.RegularExpressions.Generator: RegexGenerator"],
                        ["/w/Extra/Extra.csproj"], ["/w/Tools/Tools.csproj"])],
                    [new UnusedReference("/w/Core/Core.csproj", "package", "Humanizer", "no code names a type of Humanizer")],
                    [])))
            },
            {
                "host_public_api",
                Answer(37, new ResponseBody.PublicApi(new PublicApi(
                    "/w/Core/Core.csproj", "net10.0",
                    [new ApiMember("M:Core.A.Run(System.Int32)", "abstract Core.A.Run(int times) -> void", "method", "Core.A", "Run", true)])))
            },
            {
                "host_source",
                Answer(38, new ResponseBody.Source(new SourceDocument(
                    "roslyn-mcp://generated/App/Gen.Regex/R.g.cs", SourceOrigin.Generated, "Gen.Regex", null, "// <auto-generated/>\nclass R {}\n")))
            },
            {
                "host_generated_documents",
                Answer(39, new ResponseBody.GeneratedDocuments(new GeneratedDocumentList(
                    [new GeneratedDocument("/w/App/App.csproj", "net10.0", "Gen.Regex", "Gen", "R.g.cs", "roslyn-mcp://generated/App/Gen.Regex/R.g.cs", 31, 3)])))
            },
            { "host_edits_checked", Answer(41, new ResponseBody.EditsChecked(2)) },
            {
                "host_symbol_sources",
                Answer(40, new ResponseBody.SymbolSources(new SymbolSourceList(
                [
                    new SymbolSourceEntry(
                        "Shop.Cart",
                        [new SymbolDeclaration(KnownSymbols.Calculate, LineSpan("/w/Cart.cs", 3, 1, 9), SourceOrigin.File, "public class Cart\n{\n    public void Add(int item);\n}")],
                        null),
                    new SymbolSourceEntry(
                        "Shop.Nope",
                        [],
                        new HostError(ErrorCode.SymbolNotFound, "No type or member is named 'Shop.Nope'", "{\"name\":\"Shop.Nope\"}", [])),
                ])))
            },
            {
                "host_move_files_plan",
                Answer(35, new ResponseBody.MoveFilesPlan(new MoveFilesPlan(
                    new EditPlan("Move 1 file to /w/Tools/Parsing", [], 1, 2, []),
                    [new MovedFile("/w/Lib/Parsing/Lexer.cs", "/w/Tools/Parsing/Lexer.cs")],
                    [new NamespaceChange("/w/Lib/Parsing/Lexer.cs", "Shop.Lib.Parsing", "Shop.Tools.Parsing")],
                    [new AddedReference("/w/Lib/Lib.csproj", "/w/Tools/Tools.csproj")])))
            },
            {
                "host_found_tests",
                Answer(27, new ResponseBody.FoundTests(new FoundTests(
                    [CalculateRef],
                    [
                        new FoundTest(
                            CalculateRef,
                            "Pricing.XunitTests.CartTests.TotalAsksThePricer",
                            "Pricing.XunitTests",
                            "/w/Pricing.XunitTests/Pricing.XunitTests.csproj",
                            TestFramework.XUnit,
                            [],
                            ["Pricing.Pricer.Price(int)", "Pricing.IPricer.Price(int)"]),
                    ],
                    [
                        new TestProject("Pricing.NunitTests", "/w/Pricing.NunitTests/Pricing.NunitTests.csproj", [TestFramework.NUnit], ["net10.0", "net9.0"], 4),
                        new TestProject("Pricing.Mixed", "/w/Pricing.Mixed/Pricing.Mixed.csproj", [TestFramework.MSTest, TestFramework.TUnit], [], 2),
                    ])))
            },
        };
    }

    [Theory]
    [MemberData(nameof(BrokerVectors))]
    public void BrokerMessageMatchesGoldenVector(string name, BrokerMessage message) => Check(name, message);

    [Theory]
    [MemberData(nameof(HostVectors))]
    public void HostMessageMatchesGoldenVector(string name, HostMessage message) => Check(name, message);

    [Fact]
    public void EveryGoldenFileIsChecked()
    {
        var files = Directory.GetFiles(TestPaths.GoldenDirectory, "*.bin").Select(Path.GetFileNameWithoutExtension).Order();
        var names = BrokerVectors().Select(row => (string)row[0]).Concat(HostVectors().Select(row => (string)row[0])).Order();
        Assert.Equal(files, names);
    }

    /// <summary>A variant added to any union of the protocol comes with a vector that uses it.</summary>
    [Fact]
    public void EveryVariantHasAGoldenVector()
    {
        var used = BrokerVectors().Concat(HostVectors()).SelectMany(row => Walk(row[1])).Select(v => v.GetType()).ToHashSet();
        var unions = typeof(RequestBody).Assembly.GetTypes()
            .Where(t => t.IsAbstract && t.Namespace == typeof(RequestBody).Namespace && t.GetNestedTypes().Any(n => n.IsSubclassOf(t)));
        var variants = unions.SelectMany(u => u.GetNestedTypes().Where(n => n.IsSubclassOf(u))).ToList();
        Assert.Contains(typeof(ResponseBody.Pong), variants);
        Assert.Empty(variants.Where(v => !used.Contains(v)).Select(v => v.FullName));
    }

    /// <summary>A value and every protocol value inside it.</summary>
    private static IEnumerable<object> Walk(object? value)
    {
        if (value is null or string || value.GetType().IsPrimitive || value.GetType().IsEnum)
        {
            return [];
        }
        if (value is System.Collections.IEnumerable items)
        {
            return items.Cast<object>().SelectMany(Walk);
        }
        var properties = value.GetType().GetProperties().Where(p => p.GetIndexParameters().Length == 0);
        return properties.SelectMany(p => Walk(p.GetValue(value))).Prepend(value);
    }

    private static void Check<T>(string name, T message)
        where T : IBincode<T>
    {
        var golden = File.ReadAllBytes(Path.Combine(TestPaths.GoldenDirectory, name + ".bin"));
        Assert.Equal(golden, Frames.Encode(message));
        Assert.Equal(golden.Length - Frames.HeaderBytes, Frames.PayloadLength(golden.AsSpan(0, Frames.HeaderBytes)));
        var decoded = Frames.DecodePayload<T>(golden.AsMemory(Frames.HeaderBytes));
        Assert.Equal(message, decoded);
    }
}
