using RoslynMcp.Host.Protocol;

namespace RoslynMcp.Host.Tests;

/// <summary>
/// The byte vectors `crates/protocol/tests/golden.rs` writes: the same values built here must encode to the
/// same bytes, and the bytes must decode to the same values.
/// </summary>
public sealed class GoldenVectorTests
{
    private static readonly Position UnicodePosition = new("/w/Ünïcode.cs", 70_000, 12);

    private static Span LineSpan(string file, uint line, uint column, uint endColumn) => new(file, line, column, line, endColumn);

    private static BrokerMessage Request(ulong id, RequestBody body) => new BrokerMessage.Request(new HostRequest(new RequestId(id), body));

    private static HostMessage Response(ulong id, Outcome outcome) =>
        new HostMessage.Response(new HostResponse(new RequestId(id), 1234, 3, outcome));

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
            Request(5_000_000_000, new RequestBody.CompilationDiagnostics(new DiagnosticsRequest("/w/a.cs", Severity.Warning)))
        },
        {
            "broker_diagnostics_solution",
            Request(ulong.MaxValue, new RequestBody.CompilationDiagnostics(new DiagnosticsRequest(null, Severity.Hidden)))
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
        { "broker_cancel", new BrokerMessage.Cancel(new RequestId(7)) },
        { "broker_shutdown", new BrokerMessage.Shutdown() },
    };

    public static TheoryData<string, HostMessage> HostVectors()
    {
        var summary = new WorkspaceSummary(
            "/work/Shop/Shop.sln",
            [new ProjectSummary("Shop.Core", "/work/Shop/src/Shop.Core/Shop.Core.csproj", "Shop.Core", ["net10.0"], 11, [])],
            [new WorkspaceDiagnostic("Warning", "Found project reference without a matching metadata reference")]);
        var typeInfo = new TypeInfo(
            new SymbolSummary("names", "Local", "names", null, null, "Shop.App", false),
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
            []);
        var definition = new DefinitionInfo(
            KnownSymbols.Calculate,
            [new SourceLocation(
                LineSpan("/work/Shop/src/Shop.Core/Services/PriceCalculator.cs", 12, 24, 33),
                "public decimal Calculate(decimal price)")]);
        var references = new ReferenceList(
            KnownSymbols.Calculate,
            [new Reference(
                LineSpan("/work/Shop/src/Shop.App/Program.cs", 20, 40, 49),
                "var total = new PriceCalculator().Calculate(10m);",
                "Invocation",
                "Shop.App")]);
        var diagnostics = new DiagnosticList(
        [
            new Diagnostic("CS8021", Severity.Info, "No value for RuntimeMetadataVersion found.", "Broken", null),
            new Diagnostic(
                "CS0029",
                Severity.Error,
                "Cannot implicitly convert type 'string' to 'int'",
                "Broken",
                LineSpan("/w/Broken.cs", 7, 21, 28)),
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
        var error = new HostError("SYMBOL_NOT_FOUND", "No symbol at /w/a.cs:3:1", """{"line":3}""", ["Check the line and column"]);
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
            { "host_loaded", Response(1, new Outcome.Ok(new ResponseBody.Loaded(summary))) },
            { "host_file_changes_applied", Response(2, new Outcome.Ok(new ResponseBody.FileChangesApplied(summary))) },
            { "host_type_info", Response(250, new Outcome.Ok(new ResponseBody.TypeAtPosition(typeInfo))) },
            { "host_definition", Response(251, new Outcome.Ok(new ResponseBody.SymbolDefinition(definition))) },
            { "host_references", Response(65_536, new Outcome.Ok(new ResponseBody.References(references))) },
            { "host_diagnostics", Response(5_000_000_000, new Outcome.Ok(new ResponseBody.CompilationDiagnostics(diagnostics))) },
            { "host_error", Response(9, new Outcome.Err(error)) },
            { "host_cancelled", Response(10, new Outcome.Cancelled()) },
            { "host_pong", Response(3, new Outcome.Ok(new ResponseBody.Pong())) },
            { "host_move_plan", Response(8, new Outcome.Ok(new ResponseBody.MovePlan(movePlan))) },
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
