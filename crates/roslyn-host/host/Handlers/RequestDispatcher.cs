using System.Globalization;
using RoslynMcp.Host.Handlers.Actions;
using RoslynMcp.Host.Handlers.FindReplace;
using RoslynMcp.Host.Handlers.Format;
using RoslynMcp.Host.Handlers.Moves;
using RoslynMcp.Host.Handlers.Rename;
using RoslynMcp.Host.Handlers.Unused;
using RoslynMcp.Host.Handlers.Usings;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Handlers;

/// <summary>
/// Routes each request to its handler against the solution snapshot current when it started. A positive
/// <paramref name="readDelay"/> makes every request but Load, ApplyFileChanges, WarmUp and Ping wait that long first, so that
/// tests can observe slow, cancelled and timed-out reads; an armed <paramref name="crash"/> kills the process on
/// its snippet; an armed <paramref name="loadHold"/> keeps every load waiting for its release, an armed
/// <paramref name="warmUpHold"/> every warm-up. <paramref name="computeSlots"/> bounds the computations at once; <paramref name="heapTrim"/>
/// gives back the heap a burst of them grew.
/// </summary>
public sealed class RequestDispatcher(
    SolutionHost host,
    TimeSpan readDelay = default,
    CrashFault? crash = null,
    ReleaseHold? loadHold = null,
    ReleaseHold? warmUpHold = null,
    int? computeSlots = null,
    HeapTrim? heapTrim = null) : IRequestHandler
{
    /// <summary>
    /// Roslyn computations (reads and plans) run at most this many at once; the rest wait their turn. A burst
    /// from many sessions then queues instead of growing the heap by one working set per call in flight, and
    /// work bound by the CPU gains nothing from running on more threads than there are cores.
    /// </summary>
    public static int DefaultComputeSlots => Math.Max(4, Environment.ProcessorCount);

    private readonly SemaphoreSlim computing = new(computeSlots ?? DefaultComputeSlots);

    private readonly HeapTrim trim = heapTrim ?? new HeapTrim(HeapTrim.DefaultIdle);

    public const string ReadDelayVariable = "ROSLYN_MCP_FAULT_READ_DELAY_MS";

    public static TimeSpan ReadDelayFromEnvironment() => ParseReadDelay(Environment.GetEnvironmentVariable(ReadDelayVariable));

    /// <summary>A positive whole number of milliseconds; anything else means no delay.</summary>
    public static TimeSpan ParseReadDelay(string? milliseconds) =>
        int.TryParse(milliseconds, NumberStyles.None, CultureInfo.InvariantCulture, out var ms) && ms > 0
            ? TimeSpan.FromMilliseconds(ms)
            : TimeSpan.Zero;

    public ulong CurrentVersion => host.CurrentVersion;

    public async Task<(Outcome Outcome, ulong WorkspaceVersion)> HandleAsync(RequestBody body, CancellationToken cancellationToken)
    {
        // Reads see this one immutable snapshot, whatever loads or changes meanwhile.
        var snapshot = host.Current;
        var version = snapshot?.Version ?? 0;
        try
        {
            var (response, usedVersion) = await DispatchAsync(body, snapshot, cancellationToken);
            return (new Outcome.Ok(response), usedVersion);
        }
        catch (HostErrorException e)
        {
            return (new Outcome.Err(e.Error), version);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception e)
        {
            Log.Error($"{body.GetType().Name} failed: {e}");
            return (new Outcome.Err(new HostError(ErrorCode.RoslynError, e.Message, "", [])), version);
        }
    }

    private async Task<(ResponseBody Response, ulong Version)> DispatchAsync(
        RequestBody body,
        SolutionSnapshot? snapshot,
        CancellationToken cancellationToken)
    {
        switch (body)
        {
            case RequestBody.Ping { Value.DelayMs: var delay }:
                await Task.Delay(TimeSpan.FromMilliseconds(delay), cancellationToken);
                return (new ResponseBody.Pong(new HostState(host.ProjectsLoaded)), host.CurrentVersion);
            case RequestBody.Load { Value.SolutionPath: var path }:
            {
                if (loadHold is not null)
                {
                    await loadHold.WaitAsync(cancellationToken);
                }
                var loaded = await host.LoadAsync(path, cancellationToken);
                return (new ResponseBody.Loaded(WorkspaceSummaries.Describe(loaded)), loaded.Version);
            }
            case RequestBody.ApplyFileChanges { Value: var changes }:
            {
                var updated = await host.ApplyFileChangesAsync(changes, cancellationToken);
                return (new ResponseBody.FileChangesApplied(WorkspaceSummaries.Describe(updated)), updated.Version);
            }
        }

        // Warm-up is the service's own work, not a read a test slows down.
        if (body is RequestBody.WarmUp { Value: var warmUp })
        {
            if (warmUpHold is not null)
            {
                await warmUpHold.WaitAsync(cancellationToken);
            }
            var loaded = snapshot ?? throw SolutionHost.NotLoaded();
            var warmed = await TrimmedAfterAsync(() => WarmUpHandler.HandleAsync(loaded.Solution, warmUp, cancellationToken));
            return (new ResponseBody.WarmedUp(warmed), loaded.Version);
        }
        if (readDelay > TimeSpan.Zero)
        {
            await Task.Delay(readDelay, cancellationToken);
        }
        crash?.Check(body);
        if (snapshot is null)
        {
            throw SolutionHost.NotLoaded();
        }
        // Loads, file changes and the warm-up do not queue here: they are not a session's computation.
        await computing.WaitAsync(cancellationToken);
        try
        {
            return (await TrimmedAfterAsync(() => AnswerAsync(body, snapshot, cancellationToken)), snapshot.Version);
        }
        finally
        {
            computing.Release();
        }
    }

    /// <summary>Runs one computation counted by the heap trim, which looks for a burst to give back once none runs.</summary>
    private async Task<T> TrimmedAfterAsync<T>(Func<Task<T>> compute)
    {
        trim.Began();
        try
        {
            return await compute();
        }
        finally
        {
            trim.Ended();
        }
    }

    private static async Task<ResponseBody> AnswerAsync(RequestBody body, SolutionSnapshot snapshot, CancellationToken cancellationToken)
    {
        var solution = snapshot.Solution;
        Sources.GeneratedDocuments.Answering(solution);
        return body switch
        {
            RequestBody.TypeAtPosition { Value: var position } =>
                new ResponseBody.TypeAtPosition(await TypeAtPositionHandler.HandleAsync(solution, position, cancellationToken)),
            RequestBody.SymbolDefinition { Value: var position } =>
                new ResponseBody.SymbolDefinition(await DefinitionHandler.HandleAsync(solution, position, cancellationToken)),
            RequestBody.References { Value: var request } =>
                new ResponseBody.References(await ReferencesHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.CompilationDiagnostics { Value: var request } =>
                new ResponseBody.CompilationDiagnostics(await DiagnosticsHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanMove { Value: var request } =>
                new ResponseBody.MovePlan(await MoveHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.Members { Value: var request } =>
                new ResponseBody.Members(await MembersHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.Implementations { Value: var request } =>
                new ResponseBody.Implementations(await ImplementationsHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.Overloads { Value: var position } =>
                new ResponseBody.Overloads(await OverloadsHandler.HandleAsync(solution, position, cancellationToken)),
            RequestBody.TypeHierarchy { Value: var target } =>
                new ResponseBody.TypeHierarchy(await TypeHierarchyHandler.HandleAsync(solution, target, cancellationToken)),
            RequestBody.CallHierarchy { Value: var request } =>
                new ResponseBody.CallHierarchy(await CallHierarchyHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.DocumentSymbols { Value: var request } =>
                new ResponseBody.DocumentSymbols(await DocumentSymbolsHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.SearchSymbols { Value: var request } =>
                new ResponseBody.SearchSymbols(await SymbolSearchHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.AnalyzeCode { Value: var block } =>
                new ResponseBody.CodeAnalysis(await CodeAnalysisHandler.HandleAsync(solution, block, cancellationToken)),
            RequestBody.PlanRename { Value: var request } =>
                new ResponseBody.RenamePlan(await RenameHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanOrganizeUsings { Value: var request } =>
                new ResponseBody.OrganizeUsingsPlan(await OrganizeUsingsHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.CodeActions { Value: var request } =>
                new ResponseBody.CodeActions(await CodeActionsHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanCodeAction { Value: var request } =>
                new ResponseBody.CodeActionPlan(await CodeActionPlanHandler.HandleAsync(snapshot, request, cancellationToken)),
            RequestBody.PlanFormat { Value: var request } =>
                new ResponseBody.FormatPlan(await FormatHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanRemoveUnused { Value: var request } =>
                new ResponseBody.RemoveUnusedPlan(await RemoveUnusedHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanFindReplace { Value: var request } =>
                new ResponseBody.FindReplacePlan(await FindReplaceHandler.HandleAsync(solution, snapshot.SolutionPath, request, cancellationToken)),
            RequestBody.FindTests { Value: var request } =>
                new ResponseBody.FoundTests(await Tests.FindTestsHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanChangeSignature { Value: var request } =>
                new ResponseBody.ChangeSignaturePlan(await Signature.ChangeSignatureHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanSafeDelete { Value: var request } =>
                new ResponseBody.SafeDeletePlan(await Delete.SafeDeleteHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanRenameFile { Value: var request } =>
                new ResponseBody.RenameFilePlan(await RenameFileHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanSyncNamespaces { Value: var request } =>
                new ResponseBody.SyncNamespacesPlan(await Namespaces.SyncNamespacesHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PublicApi { Value: var request } =>
                new ResponseBody.PublicApi(await Api.PublicApiHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.ProjectGraph { Value: var request } =>
                new ResponseBody.ProjectGraph(await Graph.ProjectGraphHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.PlanMoveFiles { Value: var request } =>
                new ResponseBody.MoveFilesPlan(await Files.MoveFilesHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.ReadSource { Value: var request } =>
                new ResponseBody.Source(await Sources.ReadSourceHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.GeneratedDocuments { Value: var request } =>
                new ResponseBody.GeneratedDocuments(await Sources.GeneratedDocuments.ListAsync(solution, request, cancellationToken)),
            RequestBody.SymbolSources { Value: var request } =>
                new ResponseBody.SymbolSources(await Sources.SymbolSourcesHandler.HandleAsync(solution, request, cancellationToken)),
            RequestBody.CheckEdits { Value: var request } =>
                new ResponseBody.EditsChecked(await Plans.CheckEditsHandler.HandleAsync(solution, request, cancellationToken)),
            _ => throw new InvalidOperationException($"Unhandled request {body.GetType().Name}"),
        };
    }
}
