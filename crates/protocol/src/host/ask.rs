//! Which answer each request to the host expects. A request is made as an [`Ask<R>`], `R` being the payload
//! of the one [`ResponseBody`] variant that answers it: a caller receives that payload, and an answer of
//! another kind is one error where requests are sent, never a match arm in every caller.

use super::messages::*;

/// A request and the kind of answer it expects.
pub struct Ask<R> {
    pub body: RequestBody,
    pub answer: Answer<R>,
}

/// Reads the payload of the expected answer; any other answer comes back as it was.
pub type Answer<R> = fn(ResponseBody) -> Result<R, Box<ResponseBody>>;

/// One constructor per request: `name(input) -> Ask<payload of its answer>`.
macro_rules! asks {
    ($($name:ident: $request:ident($input:ty) => $response:ident($output:ty);)*) => {
        $(asks!(@fn $name, $request, $input, $output, ResponseBody::$response(output) => output);)*

        // Does not compile while a request has no constructor here.
        const _: fn(&RequestBody) = |body| match body {
            $(RequestBody::$request(_))|* => {}
        };
    };
    (@fn $name:ident, $request:ident, $input:ty, $output:ty, $expected:pat => $payload:expr) => {
        pub fn $name(input: $input) -> Ask<$output> {
            Ask {
                body: RequestBody::$request(input),
                answer: |body| match body {
                    $expected => Ok($payload),
                    other => Err(Box::new(other)),
                },
            }
        }
    };
}

asks! {
    load: Load(LoadRequest) => Loaded(WorkspaceSummary);
    apply_file_changes: ApplyFileChanges(FileChanges) => FileChangesApplied(WorkspaceSummary);
    type_at_position: TypeAtPosition(Position) => TypeAtPosition(Box<TypeInfo>);
    symbol_definition: SymbolDefinition(Position) => SymbolDefinition(DefinitionInfo);
    references: References(ReferencesRequest) => References(ReferenceList);
    compilation_diagnostics: CompilationDiagnostics(DiagnosticsRequest) => CompilationDiagnostics(DiagnosticList);
    plan_move: PlanMove(MoveRequest) => MovePlan(Box<MovePlan>);
    members: Members(MembersRequest) => Members(MemberList);
    implementations: Implementations(ImplementationsRequest) => Implementations(ImplementationList);
    overloads: Overloads(Position) => Overloads(OverloadList);
    type_hierarchy: TypeHierarchy(SymbolTarget) => TypeHierarchy(Box<TypeHierarchy>);
    call_hierarchy: CallHierarchy(CallHierarchyRequest) => CallHierarchy(Box<CallHierarchy>);
    document_symbols: DocumentSymbols(DocumentRequest) => DocumentSymbols(DocumentSymbolList);
    search_symbols: SearchSymbols(SymbolSearchRequest) => SearchSymbols(SymbolMatches);
    analyze_code: AnalyzeCode(CodeBlock) => CodeAnalysis(CodeAnalysis);
    plan_rename: PlanRename(RenameRequest) => RenamePlan(Box<RenamePlan>);
    plan_organize_usings: PlanOrganizeUsings(OrganizeUsingsRequest) => OrganizeUsingsPlan(OrganizeUsingsPlan);
    code_actions: CodeActions(CodeActionsRequest) => CodeActions(CodeActionList);
    plan_code_action: PlanCodeAction(Box<CodeActionRequest>) => CodeActionPlan(EditPlan);
    plan_format: PlanFormat(FormatRequest) => FormatPlan(EditPlan);
    plan_find_replace: PlanFindReplace(FindReplaceRequest) => FindReplacePlan(FindReplacePlan);
    plan_remove_unused: PlanRemoveUnused(RemoveUnusedRequest) => RemoveUnusedPlan(RemoveUnusedPlan);
    warm_up: WarmUp(WarmUpRequest) => WarmedUp(WarmedUp);
    find_tests: FindTests(FindTestsRequest) => FoundTests(FoundTests);
    plan_change_signature: PlanChangeSignature(ChangeSignatureRequest) => ChangeSignaturePlan(Box<ChangeSignaturePlan>);
    plan_safe_delete: PlanSafeDelete(SafeDeleteRequest) => SafeDeletePlan(SafeDeletePlan);
    plan_rename_file: PlanRenameFile(RenameFileRequest) => RenameFilePlan(Box<RenameFilePlan>);
    plan_sync_namespaces: PlanSyncNamespaces(SyncNamespacesRequest) => SyncNamespacesPlan(SyncNamespacesPlan);
    plan_move_files: PlanMoveFiles(MoveFilesRequest) => MoveFilesPlan(Box<MoveFilesPlan>);
    project_graph: ProjectGraph(ProjectGraphRequest) => ProjectGraph(ProjectGraph);
    public_api: PublicApi(PublicApiRequest) => PublicApi(PublicApi);
    read_source: ReadSource(ReadSourceRequest) => Source(SourceDocument);
    generated_documents: GeneratedDocuments(ProjectRequest) => GeneratedDocuments(GeneratedDocumentList);
    symbol_sources: SymbolSources(SymbolSourcesRequest) => SymbolSources(SymbolSourceList);
    check_edits: CheckEdits(CheckEditsRequest) => EditsChecked(u32);
    use_generators: UseGenerators(UseGeneratorsRequest) => GeneratorsUsed(WorkspaceSummary);
    ping: Ping(PingRequest) => Pong(HostState);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_takes_its_own_answer_and_gives_any_other_back() {
        let asked = symbol_definition(Position { file: "A.cs".into(), line: 1, column: 1 });
        assert!(matches!(asked.body, RequestBody::SymbolDefinition(_)));
        let pong = || ResponseBody::Pong(HostState { projects_loaded: 0 });
        assert!((ping(PingRequest { delay_ms: 0 }).answer)(pong()).is_ok());
        assert_eq!((asked.answer)(pong()), Err(Box::new(pong())));
    }
}
