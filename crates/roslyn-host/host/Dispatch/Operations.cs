using RoslynMcp.Host.Features.Actions;
using RoslynMcp.Host.Features.Api;
using RoslynMcp.Host.Features.CheckEdits;
using RoslynMcp.Host.Features.Delete;
using RoslynMcp.Host.Features.Diagnostics;
using RoslynMcp.Host.Features.Files;
using RoslynMcp.Host.Features.FindReplace;
using RoslynMcp.Host.Features.Format;
using RoslynMcp.Host.Features.Graph;
using RoslynMcp.Host.Features.Moves;
using RoslynMcp.Host.Features.Namespaces;
using RoslynMcp.Host.Features.Navigation;
using RoslynMcp.Host.Features.Rename;
using RoslynMcp.Host.Features.Signature;
using RoslynMcp.Host.Features.Sources;
using RoslynMcp.Host.Features.TestDiscovery;
using RoslynMcp.Host.Features.Unused;
using RoslynMcp.Host.Features.Usings;
using RoslynMcp.Host.Protocol;
using RoslynMcp.Host.Semantics.Sources;
using RoslynMcp.Host.Workspace;

namespace RoslynMcp.Host.Dispatch;

/// <summary>
/// Every operation of the host, each by its feature's handler, on one request's view of the solution: the
/// snapshot current when the request arrived (none before the first load). <see cref="Version"/> is the
/// workspace version its answer is of. A request without its method here does not build.
/// </summary>
internal sealed class Operations(SolutionHost host, SolutionSnapshot? snapshot) : IHostOperations
{
    public ulong Version { get; private set; } = snapshot?.Version ?? 0;

    private SolutionSnapshot Loaded => snapshot ?? throw SolutionHost.NotLoaded();

    private Microsoft.CodeAnalysis.Solution Solution => Loaded.Solution;

    public async Task<WorkspaceSummary> LoadAsync(LoadRequest request, CancellationToken cancellationToken)
    {
        var loaded = await host.LoadAsync(request.SolutionPath, cancellationToken);
        Version = loaded.Version;
        return WorkspaceSummaries.Describe(loaded);
    }

    public async Task<WorkspaceSummary> ApplyFileChangesAsync(FileChanges request, CancellationToken cancellationToken)
    {
        var updated = await host.ApplyFileChangesAsync(request, cancellationToken);
        Version = updated.Version;
        return WorkspaceSummaries.Describe(updated);
    }

    public async Task<WorkspaceSummary> UseGeneratorsAsync(UseGeneratorsRequest request, CancellationToken cancellationToken)
    {
        var updated = await host.UseGeneratorsAsync(request, cancellationToken);
        Version = updated.Version;
        return WorkspaceSummaries.Describe(updated);
    }

    public async Task<HostState> PingAsync(PingRequest request, CancellationToken cancellationToken)
    {
        await Task.Delay(TimeSpan.FromMilliseconds(request.DelayMs), cancellationToken);
        Version = host.CurrentVersion;
        return new HostState(host.ProjectsLoaded);
    }

    public Task<WarmedUp> WarmUpAsync(WarmUpRequest request, CancellationToken cancellationToken) =>
        WarmUpHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<TypeInfo> TypeAtPositionAsync(Position request, CancellationToken cancellationToken) =>
        TypeAtPositionHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<DefinitionInfo> SymbolDefinitionAsync(Position request, CancellationToken cancellationToken) =>
        DefinitionHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<ReferenceList> ReferencesAsync(ReferencesRequest request, CancellationToken cancellationToken) =>
        ReferencesHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<DiagnosticList> CompilationDiagnosticsAsync(DiagnosticsRequest request, CancellationToken cancellationToken) =>
        DiagnosticsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<MovePlan> PlanMoveAsync(MoveRequest request, CancellationToken cancellationToken) =>
        MoveHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<MemberList> MembersAsync(MembersRequest request, CancellationToken cancellationToken) =>
        MembersHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<ImplementationList> ImplementationsAsync(ImplementationsRequest request, CancellationToken cancellationToken) =>
        ImplementationsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<OverloadList> OverloadsAsync(Position request, CancellationToken cancellationToken) =>
        OverloadsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<TypeHierarchy> TypeHierarchyAsync(SymbolTarget request, CancellationToken cancellationToken) =>
        TypeHierarchyHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<CallHierarchy> CallHierarchyAsync(CallHierarchyRequest request, CancellationToken cancellationToken) =>
        CallHierarchyHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<DocumentSymbolList> DocumentSymbolsAsync(DocumentRequest request, CancellationToken cancellationToken) =>
        DocumentSymbolsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<SymbolMatches> SearchSymbolsAsync(SymbolSearchRequest request, CancellationToken cancellationToken) =>
        SymbolSearchHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<CodeAnalysis> AnalyzeCodeAsync(CodeBlock request, CancellationToken cancellationToken) =>
        CodeAnalysisHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<RenamePlan> PlanRenameAsync(RenameRequest request, CancellationToken cancellationToken) =>
        RenameHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<OrganizeUsingsPlan> PlanOrganizeUsingsAsync(OrganizeUsingsRequest request, CancellationToken cancellationToken) =>
        OrganizeUsingsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<CodeActionList> CodeActionsAsync(CodeActionsRequest request, CancellationToken cancellationToken) =>
        CodeActionsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<EditPlan> PlanCodeActionAsync(CodeActionRequest request, CancellationToken cancellationToken) =>
        CodeActionPlanHandler.HandleAsync(Loaded, request, cancellationToken);

    public Task<EditPlan> PlanFormatAsync(FormatRequest request, CancellationToken cancellationToken) =>
        FormatHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<RemoveUnusedPlan> PlanRemoveUnusedAsync(RemoveUnusedRequest request, CancellationToken cancellationToken) =>
        RemoveUnusedHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<FindReplacePlan> PlanFindReplaceAsync(FindReplaceRequest request, CancellationToken cancellationToken) =>
        FindReplaceHandler.HandleAsync(Solution, Loaded.SolutionPath, request, cancellationToken);

    public Task<FoundTests> FindTestsAsync(FindTestsRequest request, CancellationToken cancellationToken) =>
        FindTestsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<ChangeSignaturePlan> PlanChangeSignatureAsync(ChangeSignatureRequest request, CancellationToken cancellationToken) =>
        ChangeSignatureHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<SafeDeletePlan> PlanSafeDeleteAsync(SafeDeleteRequest request, CancellationToken cancellationToken) =>
        SafeDeleteHandler.HandleAsync(Solution, request, ChangeSignatureHandler.HandleAsync, cancellationToken);

    public Task<RenameFilePlan> PlanRenameFileAsync(RenameFileRequest request, CancellationToken cancellationToken) =>
        RenameFileHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<SyncNamespacesPlan> PlanSyncNamespacesAsync(SyncNamespacesRequest request, CancellationToken cancellationToken) =>
        SyncNamespacesHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<PublicApi> PublicApiAsync(PublicApiRequest request, CancellationToken cancellationToken) =>
        PublicApiHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<ProjectGraph> ProjectGraphAsync(ProjectGraphRequest request, CancellationToken cancellationToken) =>
        ProjectGraphHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<MoveFilesPlan> PlanMoveFilesAsync(MoveFilesRequest request, CancellationToken cancellationToken) =>
        MoveFilesHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<SourceDocument> ReadSourceAsync(ReadSourceRequest request, CancellationToken cancellationToken) =>
        ReadSourceHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<GeneratedDocumentList> GeneratedDocumentsAsync(ProjectRequest request, CancellationToken cancellationToken) =>
        GeneratedDocumentsHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<SymbolSourceList> SymbolSourcesAsync(SymbolSourcesRequest request, CancellationToken cancellationToken) =>
        SymbolSourcesHandler.HandleAsync(Solution, request, cancellationToken);

    public Task<uint> CheckEditsAsync(CheckEditsRequest request, CancellationToken cancellationToken) =>
        CheckEditsHandler.HandleAsync(Solution, request, cancellationToken);
}
