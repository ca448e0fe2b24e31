//! Messages between the broker (Rust) and the Roslyn host (.NET).
//!
//! This file is the contract: the C# host's records and codec (`crates/roslyn-host/host/Protocol/Generated`)
//! are generated from it by `cargo xtask codegen`, with the error catalog's codes. Encoding is bincode 2 with the
//! standard configuration (little endian, variable-length integers); `tests/golden/host-protocol` holds byte
//! vectors both sides check. Changing a type here means bumping [`PROTOCOL_VERSION`], running the generator and
//! regenerating the golden files (`UPDATE_GOLDEN=1 cargo test -p protocol --test golden`).
//!
//! Positions are 1-based lines and columns; a column counts UTF-16 code units, as Roslyn does.
//! Paths are absolute.
//!
//! A type that is also a tool's answer as it is (`GraphProject`, `MovedFile`, ...) derives its JSON shape here
//! too, and the tool's module re-exports it: one type, not two copies and a conversion.

use crate::ErrorCode;
use bincode::{Decode, Encode};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Bumped on any change to the types in this module.
pub const PROTOCOL_VERSION: u32 = 22;

/// Correlates a response with its request; unique per connection, chosen by the broker.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub u64);

/// Everything the broker sends.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum BrokerMessage {
    /// Answer to the host's [`HostMessage::Hello`]; the host exits on a version it does not speak.
    Hello(BrokerHello),
    Request(HostRequest),
    /// Cancel the request with this id; the host answers it with [`Outcome::Cancelled`] if still running.
    Cancel(RequestId),
    /// Finish nothing more and exit.
    Shutdown,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct BrokerHello {
    pub protocol_version: u32,
}

/// Everything the host sends.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum HostMessage {
    /// First frame after connecting.
    Hello(HostHello),
    Response(HostResponse),
    /// How far a running request's work has come, sent as it goes (a whole project's write, file by file),
    /// at most a few times a second; a request that says nothing has no such count.
    Progress(WorkProgress),
}

#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkProgress {
    pub id: RequestId,
    /// Files done, of `total`.
    pub done: u32,
    pub total: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct HostHello {
    pub protocol_version: u32,
    pub host_version: String,
    /// Informational version of Microsoft.CodeAnalysis.
    pub roslyn_version: String,
    /// Empty when no MSBuild was found.
    pub msbuild_version: String,
    pub msbuild_path: String,
    /// Empty when no .NET SDK was found.
    pub dotnet_sdk_version: String,
    pub runtime_version: String,
    pub process_id: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct HostRequest {
    pub id: RequestId,
    pub body: RequestBody,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum RequestBody {
    /// Open a `.sln`, `.slnx` or `.csproj`, restoring first when it has no assets.
    Load(LoadRequest),
    /// Files changed on disk: update the current solution incrementally.
    ApplyFileChanges(FileChanges),
    TypeAtPosition(Position),
    SymbolDefinition(Position),
    References(ReferencesRequest),
    CompilationDiagnostics(DiagnosticsRequest),
    /// Answers [`ResponseBody::Pong`] after `delay_ms` (cancellable): liveness and protocol checks.
    Ping(PingRequest),
    /// Compute (never apply) the edits that move a type; refused with a catalog code when the move is not
    /// possible or would add compiler errors.
    PlanMove(MoveRequest),
    /// Members accessible at a position on the type of the expression, variable or type name there.
    Members(MembersRequest),
    /// Types implementing or deriving from a type, or members implementing or overriding a member.
    Implementations(ImplementationsRequest),
    /// Every overload of the method at a position.
    Overloads(Position),
    /// Base types, derived types and interfaces of a type (both directions; the broker filters).
    TypeHierarchy(SymbolTarget),
    /// Calls into and out of the method (or constructor, property, ...) at a position.
    CallHierarchy(CallHierarchyRequest),
    /// Every declaration in one document, flattened.
    DocumentSymbols(DocumentRequest),
    /// Source declarations of the whole solution whose name matches a query.
    SearchSymbols(SymbolSearchRequest),
    /// Compile a snippet inserted at a position, without changing the solution.
    AnalyzeCode(CodeBlock),
    /// Compute (never apply) the edits that rename the symbol at a position; refused with a catalog code when
    /// the name is not a valid identifier, clashes or would change what other code binds to.
    PlanRename(RenameRequest),
    /// Compute (never apply) the edits that remove unnecessary using directives and sort the rest, for one
    /// document, one project or the whole solution.
    PlanOrganizeUsings(OrganizeUsingsRequest),
    /// The refactorings Roslyn offers on a span and the code fixes of the diagnostics that touch it.
    CodeActions(CodeActionsRequest),
    /// Compute (never apply) one code action listed by [`RequestBody::CodeActions`] on the same snapshot, or
    /// its fix-all; refused with CODE_ACTION_STALE when the snapshot moved on, CODE_ACTION_NOT_FOUND when the
    /// action is no longer offered.
    PlanCodeAction(Box<CodeActionRequest>),
    /// Compute the edits that format documents as their `.editorconfig` says.
    PlanFormat(FormatRequest),
    /// Compute a literal or regular-expression replacement over the solution's documents (and optionally the
    /// other text files under the solution's folder).
    PlanFindReplace(FindReplaceRequest),
    /// Compute the removal of what Roslyn's analyzers find unused.
    PlanRemoveUnused(RemoveUnusedRequest),
    /// Compile one project of the loaded solution as a build would (every document bound), so that the first
    /// question after a load does not pay for it. The service sends one per project after each load.
    WarmUp(WarmUpRequest),
    /// The test methods whose code reaches changed symbols, following references and calls (through interfaces,
    /// overrides, constructors and the members a test framework calls around a test) in every target framework.
    FindTests(FindTestsRequest),
    /// Compute (never apply) a new parameter list for the method, constructor, indexer or delegate at a
    /// position, with every call site, override, implementation and `<param>` tag updated (Roslyn's change
    /// signature engine, then Roslyn's renamer for renamed parameters); refused with a catalog code when a
    /// removed parameter is used, a name clashes, a call would bind elsewhere, arguments with side effects would
    /// run in another order, or the result adds compiler errors.
    PlanChangeSignature(ChangeSignatureRequest),
    /// Compute (never apply) the deletion of a type, member, parameter or local nothing references, or of a
    /// whole file; refused with the references (STILL_REFERENCED), or with what makes it look unused without
    /// being so (MAY_BE_USED_ELSEWHERE) unless asked.
    PlanSafeDelete(SafeDeleteRequest),
    /// Compute (never apply) a file's new name in its folder: the type the file is named after is renamed with
    /// it (as [`RequestBody::PlanRename`] with `rename_file`, its other parts' files too), else the file alone.
    PlanRenameFile(RenameFileRequest),
    /// Compute (never apply) the namespace changes that make each file of a project or folder declare the
    /// namespace its folder implies (the project's root namespace and the folders below it), consumers updated
    /// by Roslyn's change namespace service.
    PlanSyncNamespaces(SyncNamespacesRequest),
    /// Compute (never apply) the move of C# files, or of a folder's, to another folder of their project or of
    /// another: namespaces follow the destination folder unless kept, consumers updated, the project references
    /// the moved code and its users need added (refused when one would close a cycle, or a library is missing),
    /// project files edited where they list files.
    PlanMoveFiles(MoveFilesRequest),
    /// The projects with their frameworks, kind, direct project and package references, analyzers and
    /// generators, and what each depends on and what depends on it (transitively); optionally the references
    /// nothing uses.
    ProjectGraph(ProjectGraphRequest),
    /// The public and protected surface of a project, as it is or as given files (another revision's) make it.
    PublicApi(PublicApiRequest),
    /// The text of a solution document, a source-generated document or a referenced assembly's type (its
    /// embedded source, else decompiled), by path or virtual path.
    ReadSource(ReadSourceRequest),
    /// The documents source generators add to a project, per target framework.
    GeneratedDocuments(ProjectRequest),
    /// The declarations of symbols named by their fully qualified names; each name answered by itself.
    SymbolSources(SymbolSourcesRequest),
    /// Check that new texts for documents of the current snapshot add no compiler error (a plan kept or merged
    /// onto a newer snapshot than it was computed on): COMPILATION_ERROR naming the errors, STALE_PLAN when a
    /// document's text is not the edit's base.
    CheckEdits(CheckEditsRequest),
    /// Use the service's builds of projects referenced as analyzers (source generators) instead of the
    /// assemblies their consumers name, which are missing or older than their sources; kept for every later
    /// load of the solution.
    UseGenerators(UseGeneratorsRequest),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CheckEditsRequest {
    /// Modify edits only, one per path, each with the sha256 of the text the snapshot must hold.
    pub edits: Vec<FileEdit>,
    /// The names the change can affect code through (a rename's old and new name): only documents that
    /// spell one of them, and the changed ones, can gain an error. Empty: every affected project is compiled.
    pub names: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct LoadRequest {
    pub solution_path: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FileChanges {
    /// Created or modified files (`.cs`, or a project file whose project is then reloaded).
    pub changed: Vec<String>,
    pub removed: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct Position {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ReferencesRequest {
    pub position: Position,
    pub include_declaration: bool,
}

#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Hidden,
    Info,
    Warning,
    Error,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DiagnosticsRequest {
    /// One document; `None` means the project, or else the whole solution.
    pub file: Option<String>,
    /// One project, by name or by absolute project file path (refused with PROJECT_NOT_FOUND); ignored with
    /// `file`.
    pub project: Option<String>,
    pub min_severity: Severity,
    /// Also run the analyzers: the project's analyzer references and Roslyn's own IDE analyzers, with the
    /// severities `.editorconfig` gives them.
    pub include_analyzers: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct PingRequest {
    pub delay_ms: u32,
}

/// What a ping finds the host doing: a ping is answered while a load runs, so the broker learns how far it got.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct HostState {
    /// Projects the load under way has opened so far (in every target framework); 0 when none runs.
    pub projects_loaded: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct HostResponse {
    pub id: RequestId,
    /// Time the host spent on the request, from reading its frame to writing the answer.
    pub host_micros: u64,
    /// The solution snapshot the answer was computed on; increases with every applied change.
    pub workspace_version: u64,
    pub outcome: Outcome,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum Outcome {
    Ok(ResponseBody),
    Err(HostError),
    Cancelled,
}

/// A failure with its catalog code.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct HostError {
    pub code: ErrorCode,
    pub message: String,
    /// A JSON object with context, or empty.
    pub details_json: String,
    pub suggestions: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum ResponseBody {
    Loaded(WorkspaceSummary),
    FileChangesApplied(WorkspaceSummary),
    // Boxed: by far the largest answer (bincode encodes a box as its content).
    TypeAtPosition(Box<TypeInfo>),
    SymbolDefinition(DefinitionInfo),
    References(ReferenceList),
    CompilationDiagnostics(DiagnosticList),
    Pong(HostState),
    MovePlan(Box<MovePlan>),
    Members(MemberList),
    Implementations(ImplementationList),
    Overloads(OverloadList),
    TypeHierarchy(Box<TypeHierarchy>),
    CallHierarchy(Box<CallHierarchy>),
    DocumentSymbols(DocumentSymbolList),
    SearchSymbols(SymbolMatches),
    CodeAnalysis(CodeAnalysis),
    RenamePlan(Box<RenamePlan>),
    OrganizeUsingsPlan(OrganizeUsingsPlan),
    CodeActions(CodeActionList),
    CodeActionPlan(EditPlan),
    FormatPlan(EditPlan),
    FindReplacePlan(FindReplacePlan),
    RemoveUnusedPlan(RemoveUnusedPlan),
    WarmedUp(WarmedUp),
    FoundTests(FoundTests),
    ChangeSignaturePlan(Box<ChangeSignaturePlan>),
    SafeDeletePlan(SafeDeletePlan),
    RenameFilePlan(Box<RenameFilePlan>),
    SyncNamespacesPlan(SyncNamespacesPlan),
    MoveFilesPlan(Box<MoveFilesPlan>),
    ProjectGraph(ProjectGraph),
    PublicApi(PublicApi),
    Source(SourceDocument),
    GeneratedDocuments(GeneratedDocumentList),
    SymbolSources(SymbolSourceList),
    /// The edits add no compiler error; the number of documents they change.
    EditsChecked(u32),
    GeneratorsUsed(WorkspaceSummary),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct WorkspaceSummary {
    pub solution_path: String,
    /// Sorted by name, then path.
    pub projects: Vec<ProjectSummary>,
    /// What MSBuildWorkspace reported while loading, in the order it did.
    pub workspace_diagnostics: Vec<WorkspaceDiagnostic>,
    /// The projects the solution's projects reference as analyzers, and analyzer assemblies that are missing,
    /// sorted by assembly.
    pub generators: Vec<GeneratorProject>,
}

/// A project the solution's projects reference as an analyzer (a source generator, an analyzer), or an
/// analyzer assembly that is missing: what the solution uses of it.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneratorProject {
    /// The project's name; the assembly's file name when no project is known to build it.
    pub name: String,
    /// The project file that builds it; empty when none is known.
    pub project: String,
    /// The assembly as its consumers name it.
    pub assembly: String,
    /// The projects that reference it, by name (once for all their target frameworks), sorted.
    pub consumers: Vec<String>,
    pub state: GeneratorState,
    /// The service's build the solution uses instead of `assembly`; empty when it uses `assembly` or nothing.
    pub built: String,
    /// The newest of its project's files (milliseconds since the Unix epoch); 0 when no project is known.
    pub sources_changed_ms: u64,
}

/// Whether the solution runs what a generator project's sources say.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum GeneratorState {
    /// The solution uses an assembly as new as the project's sources.
    Current,
    /// The solution uses an assembly older than the project's sources: what it writes may be out of date.
    Stale,
    /// There is no assembly: the solution leaves the reference out, so what it writes is missing.
    Missing,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct UseGeneratorsRequest {
    pub builds: Vec<GeneratorBuild>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct GeneratorBuild {
    /// The assembly as its consumers name it.
    pub assembly: String,
    /// The service's build of it, to use instead (in a folder of its own, never written again).
    pub built: String,
    /// When that build read its project's files (milliseconds since the Unix epoch): a file changed later
    /// makes it stale.
    pub sources_read_ms: u64,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ProjectSummary {
    pub name: String,
    pub file_path: String,
    pub assembly_name: String,
    /// From the project file (`net10.0`, ...), sorted.
    pub target_frameworks: Vec<String>,
    pub document_count: u32,
    /// Names of referenced projects, sorted.
    pub project_references: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct WorkspaceDiagnostic {
    pub kind: WorkspaceDiagnosticKind,
    pub message: String,
}

/// As MSBuildWorkspace classifies what it reports while loading.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkspaceDiagnosticKind {
    Failure,
    Warning,
}

impl WorkspaceDiagnosticKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Failure => "Failure",
            Self::Warning => "Warning",
        }
    }
}

/// A range in a source file; end is exclusive.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: String,
    pub start_line: u32,
    pub start_column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolSummary {
    pub name: String,
    /// Roslyn's kind refined for C#: Class, Struct, Interface, Enum, Delegate, Record, RecordStruct, Method,
    /// Property, Field, Event, Parameter, Local, Namespace, TypeParameter, ...
    pub kind: String,
    /// Fully qualified display string, e.g. `Shop.Core.Services.PriceCalculator.Calculate(decimal)`.
    pub display: String,
    pub containing_type: Option<String>,
    pub containing_namespace: Option<String>,
    pub assembly: String,
    /// True when the symbol comes from a referenced assembly rather than the solution's source.
    pub is_metadata: bool,
    /// Canonical identity of the symbol, from which the broker derives its stable id: the documentation
    /// comment id (`T:Shop.Core.Models.Customer`, `M:...Calculate(System.Decimal)`), or for symbols that
    /// have none (locals, parameters, ...) `<kind>|<display>|<file>:<line>:<column>` of their declaration.
    pub key: String,
}

/// A symbol with its first source declaration (by path and position); none for metadata symbols.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolRef {
    pub symbol: SymbolSummary,
    pub location: Option<SourceLocation>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct TypeInfo {
    /// The symbol under the cursor.
    pub symbol: SymbolSummary,
    /// Minimal display, e.g. `List<string>`.
    pub type_name: String,
    /// Fully qualified metadata-style display, e.g. `System.Collections.Generic.List<System.String>`.
    pub full_type_name: String,
    pub kind: String,
    pub assembly: String,
    pub namespace: String,
    /// Summary text of the XML documentation, if any.
    pub documentation: Option<String>,
    pub is_generic: bool,
    pub type_arguments: Vec<String>,
    pub base_type: Option<String>,
    /// All interfaces, fully qualified, sorted.
    pub interfaces: Vec<String>,
    /// Where the type is declared in source (several for partial types), sorted by path and position;
    /// empty for metadata types.
    pub declarations: Vec<SourceLocation>,
    /// For a type from a referenced assembly: where it reads as source.
    pub metadata: Option<MetadataSource>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DefinitionInfo {
    pub symbol: SymbolSummary,
    /// Source declarations sorted by path and position; empty for metadata symbols.
    pub locations: Vec<SourceLocation>,
    /// For a symbol from a referenced assembly: where it reads as source.
    pub metadata: Option<MetadataSource>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SourceLocation {
    /// The declared identifier.
    pub span: Span,
    /// The full text of the first line of the declaration, trimmed.
    pub line_text: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ReferenceList {
    pub symbol: SymbolSummary,
    /// Sorted by path, line, column; deduplicated.
    pub references: Vec<Reference>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct Reference {
    pub span: Span,
    /// The full text of the referencing line, trimmed.
    pub line_text: String,
    pub kind: ReferenceKind,
    /// The first project in ordinal order that sees the place.
    pub project: String,
    /// For a multi-targeted project, every target framework whose compilation sees the place, in ordinal
    /// order; empty otherwise.
    pub frameworks: Vec<String>,
}

/// How a reference uses its symbol.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceKind {
    Declaration,
    Invocation,
    ObjectCreation,
    Write,
    Read,
    TypeReference,
    NameOf,
    Other,
}

impl ReferenceKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Declaration => "Declaration",
            Self::Invocation => "Invocation",
            Self::ObjectCreation => "ObjectCreation",
            Self::Write => "Write",
            Self::Read => "Read",
            Self::TypeReference => "TypeReference",
            Self::NameOf => "NameOf",
            Self::Other => "Other",
        }
    }
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DiagnosticList {
    /// Sorted by path, line, column, id; diagnostics without a location first.
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub id: String,
    pub severity: Severity,
    pub message: String,
    pub project: String,
    /// The project file; diagnostics without a location are grouped under it.
    pub project_path: String,
    pub location: Option<Span>,
    /// `compiler`, or the name of the analyzer assembly that reported it (e.g. `Microsoft.CodeAnalysis.NetAnalyzers`).
    pub source: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MoveRequest {
    pub source_file: String,
    /// Simple or fully qualified type name.
    pub symbol_name: String,
    /// 1-based line of the declaration, to choose among several.
    pub line: Option<u32>,
    pub destination: MoveDestination,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum MoveDestination {
    File(FileDestination),
    Namespace(NamespaceDestination),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FileDestination {
    pub target_file: String,
    pub create_target_file: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct NamespaceDestination {
    pub target_namespace: String,
    /// Also move the file to the folder matching the namespace under its project.
    pub update_file_location: bool,
}

/// The whole effect of a move as file edits, checked to compile without new errors.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MovePlan {
    pub symbol: MovedSymbol,
    /// Sorted by path; at most one edit per path.
    pub edits: Vec<FileEdit>,
    /// References outside the moved declaration whose file needed an edit to keep binding to the type.
    pub references_updated: u32,
    pub usings_added: u32,
    pub usings_removed: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MovedSymbol {
    pub name: String,
    /// Class, Struct, Interface, Enum, Record, RecordStruct, Delegate.
    pub kind: String,
    pub previous_fully_qualified_name: String,
    pub fully_qualified_name: String,
    /// Empty for the global namespace.
    pub previous_namespace: String,
    pub new_namespace: String,
    /// Of the type's identifier, before and after the move.
    pub previous_location: Position,
    pub new_location: Position,
}

#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditKind {
    Modify,
    Create,
    Delete,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FileEdit {
    pub path: String,
    pub kind: EditKind,
    /// Lowercase hex sha256 of the UTF-8 text (without byte order mark) the plan was computed from; empty for
    /// Create. The broker refuses to write when the file on disk no longer has it.
    pub base_sha256: String,
    /// The complete new text; empty for Delete.
    pub new_text: String,
    /// One line for previews, e.g. `Remove declaration of Order`.
    pub description: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RenameRequest {
    /// Anywhere on the symbol's name, at a declaration or a use.
    pub position: Position,
    pub new_name: String,
    /// Rename every overload of a method along with it.
    pub rename_overloads: bool,
    pub rename_in_comments: bool,
    pub rename_in_strings: bool,
    /// Rename a type's file when it is named after the type (`Order.cs` for `Order`), in the same plan (a
    /// Delete of the old path and a Create of the new one).
    pub rename_file: bool,
}

/// The whole effect of a rename as file edits, checked to compile without new errors and to bind every
/// renamed place to the renamed symbol.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RenamePlan {
    pub symbol: RenamedSymbol,
    /// Sorted by path; at most one edit per path. A document seen by several target frameworks is edited once,
    /// each place once.
    pub edits: Vec<FileEdit>,
    /// Text spans replaced over all files, each source place counted once.
    pub total_edits: u32,
    /// Source places of the symbol (declarations included) that were renamed, each counted once.
    pub references: u32,
    /// What the user may want to know, e.g. `Also renamed 2 overloads` or `Renamed Order.cs to Purchase.cs`.
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RenamedSymbol {
    /// The name before the rename.
    pub name: String,
    pub new_name: String,
    /// As [`SymbolSummary::kind`].
    pub kind: String,
    /// Fully qualified display before and after.
    pub display: String,
    pub new_display: String,
    /// The first declaration's identifier, before the rename.
    pub location: Position,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct OrganizeUsingsRequest {
    /// One document; `None` means the project, or else the whole solution.
    pub file: Option<String>,
    /// One project, by name or by absolute project file path (refused with PROJECT_NOT_FOUND); ignored with
    /// `file`. Every target framework of a multi-targeted project is covered.
    pub project: Option<String>,
    /// Remove the using directives the compiler reports as unnecessary (CS8019) in every target framework that
    /// compiles the document. Global usings are never removed.
    pub remove_unused: bool,
    /// Sort as the document's `.editorconfig` says (`dotnet_sort_system_directives_first`,
    /// `dotnet_separate_import_directive_groups`).
    pub sort: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct OrganizeUsingsPlan {
    /// Modify edits only, sorted by path; documents that need no change are left out.
    pub edits: Vec<FileEdit>,
    /// Documents examined, each counted once.
    pub documents: u32,
    pub usings_removed: u32,
    /// e.g. `Kept using System.Text in a.cs: needed by net9.0`.
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MembersRequest {
    pub position: Position,
    pub include_extension_methods: bool,
    pub include_static: bool,
}

/// What a type query is about: the symbol at a position, or a type by its fully qualified name
/// (`Shop.Core.Services.IRepository<T>`, or the metadata name `Shop.Core.Services.IRepository`1`).
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum SymbolTarget {
    At(Position),
    Named(String),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ImplementationsRequest {
    pub target: SymbolTarget,
    /// Classes deriving from a class, interfaces extending an interface, overrides of a member.
    pub derived_types: bool,
    /// Types implementing an interface, members implementing an interface member.
    pub interface_implementations: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CallHierarchyRequest {
    pub position: Position,
    pub incoming: bool,
    pub outgoing: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DocumentRequest {
    pub file: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolSearchRequest {
    /// Trimmed, not empty; matched as Roslyn's navigate-to does (prefix, substring, camel-case humps),
    /// case-insensitively.
    pub query: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CodeBlock {
    /// Where the snippet is inserted: the file gives the project, the position the scope.
    pub position: Position,
    pub code: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MemberList {
    /// The type whose members these are.
    pub receiver: SymbolSummary,
    /// Accessible at the position, in no particular order (the broker sorts).
    pub members: Vec<Member>,
}

/// A method, property, field, event or nested type, with its signature.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct Member {
    pub symbol: SymbolRef,
    /// Minimal C# signature: `void Add(string item)`, `string Name { get; set; }`.
    pub signature: String,
    /// Fully qualified, e.g. `System.Collections.Generic.List<string>`.
    pub declaring_type: String,
    pub accessibility: Accessibility,
    pub documentation: Option<String>,
    pub parameters: Vec<Parameter>,
    /// Methods' return type, properties' and fields' type; none for `void` and nested types.
    pub return_type: Option<String>,
    pub is_extension: bool,
    pub is_static: bool,
    pub is_async: bool,
}

/// Declared accessibility of a member.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accessibility {
    Public,
    Protected,
    Internal,
    ProtectedInternal,
    PrivateProtected,
    Private,
}

impl Accessibility {
    /// As C# writes it: `protected internal`, ...
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Protected => "protected",
            Self::Internal => "internal",
            Self::ProtectedInternal => "protected internal",
            Self::PrivateProtected => "private protected",
            Self::Private => "private",
        }
    }
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub type_name: String,
    pub documentation: Option<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ImplementationList {
    pub symbol: SymbolSummary,
    pub implementations: Vec<Related>,
}

/// A symbol related to the one asked about.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct Related {
    pub symbol: SymbolRef,
    pub relation: Relation,
    /// Declared directly on the type (its own base list), not inherited through another type.
    pub is_direct: bool,
}

/// `Implements`, `Derives`, `Overrides` answer implementations; `BaseType`, `DerivedType`, `Interface` answer
/// the type hierarchy.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Implements,
    Derives,
    Overrides,
    BaseType,
    DerivedType,
    Interface,
}

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Self::Implements => "Implements",
            Self::Derives => "Derives",
            Self::Overrides => "Overrides",
            Self::BaseType => "BaseType",
            Self::DerivedType => "DerivedType",
            Self::Interface => "Interface",
        }
    }
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct OverloadList {
    /// The method at the position.
    pub method: SymbolSummary,
    /// Every method of that name on the type and its base types, the method itself included.
    pub overloads: Vec<Member>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct TypeHierarchy {
    pub symbol: SymbolRef,
    /// From the direct base type up to `System.Object`, in that order.
    pub base_types: Vec<Related>,
    /// Every type in the solution deriving from it, directly or not.
    pub derived_types: Vec<Related>,
    /// Every interface it implements (or, for an interface, extends), directly or not.
    pub interfaces: Vec<Related>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CallHierarchy {
    pub symbol: SymbolRef,
    /// Methods (and other members) calling it, each with the call sites inside it.
    pub incoming: Vec<CallGroup>,
    /// Methods, constructors and properties it calls, each with the call sites in its body.
    pub outgoing: Vec<CallGroup>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CallGroup {
    /// The caller (incoming) or the callee (outgoing).
    pub symbol: SymbolRef,
    /// The call expressions' names, sorted by path and position.
    pub sites: Vec<SourceLocation>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DocumentSymbolList {
    pub symbols: Vec<DocumentSymbol>,
}

/// A declaration in a document: namespace, type, member, enum member or local function.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DocumentSymbol {
    pub name: String,
    pub kind: String,
    /// The whole declaration, attributes included, leading comments and doc comment excluded (for a field,
    /// the whole field declaration).
    pub range: Span,
    /// The declared identifier.
    pub selection: Span,
    /// Name of the enclosing declaration; none at the top level.
    pub container: Option<String>,
    /// Fully qualified display, as [`SymbolSummary::display`].
    pub detail: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolMatches {
    /// Source declarations only, one entry per declaration (partial types give several).
    pub symbols: Vec<SymbolRef>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CodeAnalysis {
    /// Diagnostics inside the snippet, positions relative to it (its first line is line 1); the span's
    /// file is the file it was inserted into.
    pub diagnostics: Vec<Diagnostic>,
    /// Symbols the snippet declares (locals, local functions, members, types).
    pub declared: Vec<SymbolSummary>,
    /// Symbols the snippet uses that it does not declare, with where they are declared.
    pub used: Vec<SymbolRef>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CodeActionsRequest {
    /// A position when start equals end; 1-based, end exclusive.
    pub span: Span,
}

#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CodeActionKind {
    Refactoring,
    Fix,
}

#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FixAllScope {
    Document,
    Project,
    Solution,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CodeActionList {
    /// In the order Roslyn offers them: fixes first, then refactorings; nested actions flattened in place.
    pub actions: Vec<CodeAction>,
}

/// One action Roslyn offers, a leaf of its menu: nested variants are listed one by one.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CodeAction {
    pub kind: CodeActionKind,
    /// The provider's type name, part of the action's identity.
    pub provider: String,
    /// Titles from the top-level action down to this one; the last is this action's own.
    pub path: Vec<String>,
    /// Roslyn's equivalence key, or empty.
    pub equivalence_key: String,
    /// The diagnostic a fix fixes; `None` for a refactoring.
    pub diagnostic: Option<FixedDiagnostic>,
    /// The scopes its fix-all supports; empty for a refactoring or a fix without one.
    pub fix_all_scopes: Vec<FixAllScope>,
    /// What the action needs to run headless, with Roslyn's defaults.
    pub options: ActionOptions,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FixedDiagnostic {
    pub id: String,
    pub message: String,
    pub severity: Severity,
    pub location: Span,
}

/// Options an action takes in place of a dialog.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum ActionOptions {
    None,
    ExtractInterface(ExtractInterfaceOptions),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ExtractInterfaceOptions {
    pub interface_name: String,
    /// The new file's name (`IOrder.cs`), beside the type's file; ignored with `same_file`.
    pub file_name: String,
    /// Declare the interface in the type's own file.
    pub same_file: bool,
    /// Member names to extract; empty means every member that can be.
    pub members: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct CodeActionRequest {
    /// The span the action was listed for.
    pub span: Span,
    /// The snapshot it was listed on.
    pub workspace_version: u64,
    pub kind: CodeActionKind,
    pub provider: String,
    pub path: Vec<String>,
    /// The fixed diagnostic's id; empty for a refactoring.
    pub diagnostic_id: String,
    /// Fix every occurrence in this scope (the document, its project, the solution) instead of this one.
    pub fix_all: Option<FixAllScope>,
    /// `ActionOptions::None` uses Roslyn's defaults when the action takes options.
    pub options: ActionOptions,
}

/// A plan of whole new texts, checked to compile without new errors.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct EditPlan {
    /// One line, e.g. `Extract method` or `Format 3 files`.
    pub title: String,
    /// Sorted by path; at most one edit per path.
    pub edits: Vec<FileEdit>,
    /// Documents examined, each counted once.
    pub documents: u32,
    /// Text spans replaced over all files.
    pub changes: u32,
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FormatRequest {
    /// One document; `None` means the project, or else the whole solution.
    pub file: Option<String>,
    /// As [`DiagnosticsRequest::project`]; ignored with `file`.
    pub project: Option<String>,
    /// Only these lines of `file`.
    pub lines: Option<LineRange>,
}

/// 1-based, inclusive.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct LineRange {
    pub start_line: u32,
    pub end_line: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FindReplaceRequest {
    pub pattern: String,
    /// With `regex`, `$1`, `${name}` and `$$` stand for groups and a dollar.
    pub replacement: String,
    pub regex: bool,
    pub case_sensitive: bool,
    /// Only where the match starts and ends on a word boundary.
    pub whole_word: bool,
    /// Only files whose path relative to the solution's folder matches this glob (`**/*.cs`, `src/*/Model/*.cs`).
    pub include: Option<String>,
    /// Only this project's documents, as [`DiagnosticsRequest::project`].
    pub project: Option<String>,
    /// Also the text files under the solution's folder that are not documents (not `bin/`, `obj/`, hidden
    /// folders, binary files or files over 1 MiB).
    pub include_other_files: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FindReplacePlan {
    pub plan: EditPlan,
    /// Every match, sorted by path, line, column.
    pub matches: Vec<TextMatch>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct TextMatch {
    /// Where the match stands in the original text.
    pub span: Span,
    pub text: String,
    pub replacement: String,
    /// The whole first line of the match, before and after (for a preview).
    pub line_before: String,
    pub line_after: String,
}

#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnusedKind {
    /// Private members never read or never referenced (IDE0051, IDE0052), and with `include_public` members of
    /// any accessibility nothing in the solution references.
    Members,
    /// Locals never used or whose value is never read (CS0168, CS0219, IDE0059).
    Locals,
    /// Parameters of private methods never read (IDE0060), removed with their arguments at every call.
    Parameters,
    /// Unnecessary using directives (CS8019, IDE0005).
    Usings,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RemoveUnusedRequest {
    /// One document; `None` means the project, or else the whole solution.
    pub file: Option<String>,
    /// As [`DiagnosticsRequest::project`]; ignored with `file`.
    pub project: Option<String>,
    /// What to remove; empty means every kind.
    pub kinds: Vec<UnusedKind>,
    /// Also remove non-private members that nothing in the solution references (never overrides, interface
    /// implementations, entry points or members with attributes).
    pub include_public: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RemoveUnusedPlan {
    pub plan: EditPlan,
    /// Sorted by path, line, column.
    pub removed: Vec<RemovedItem>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RemovedItem {
    pub kind: UnusedKind,
    /// The member, local, parameter or namespace, as written.
    pub name: String,
    /// The diagnostic that found it (`IDE0051`, `CS0168`, ...), or `unreferenced` for a non-private member.
    pub rule: String,
    pub location: Position,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct WarmUpRequest {
    /// As [`ProjectSummary::name`]; every project of that name or project file.
    pub project: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct WarmedUp {
    /// Documents compiled.
    pub documents: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FindTestsRequest {
    pub origin: ChangeOrigin,
    /// One test project, by name or by absolute project file path (PROJECT_NOT_FOUND; NOT_A_TEST_PROJECT when
    /// it declares no test).
    pub project: Option<String>,
}

/// Where the changed symbols come from.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum ChangeOrigin {
    /// The symbol at a position (a local or lambda stands for its member).
    Symbol(Position),
    /// Lines of the current files that changed: the members (or, outside any member, the types) whose tokens
    /// lie on them changed. Files the solution does not compile are left out.
    Lines(Vec<ChangedLines>),
    /// No change: the tests with these fully qualified names, each reached by itself (an empty list: none,
    /// and the answer lists the test projects only).
    Tests(Vec<String>),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ChangedLines {
    pub file: String,
    /// A removal is an empty range, `end_line = start_line - 1`, before the line after it.
    pub ranges: Vec<LineRange>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FoundTests {
    /// The symbols the search started from, sorted by display.
    pub changed: Vec<SymbolRef>,
    /// The selected tests, one per test method and project file, sorted by project and name.
    pub tests: Vec<FoundTest>,
    /// Every test project of the solution (or the one asked for), sorted by name.
    pub projects: Vec<TestProject>,
}

/// The frameworks whose tests are recognized, by their attributes' symbols.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TestFramework {
    XUnit,
    NUnit,
    MSTest,
    TUnit,
}

impl TestFramework {
    pub fn name(self) -> &'static str {
        match self {
            Self::XUnit => "xunit",
            Self::NUnit => "NUnit",
            Self::MSTest => "MSTest",
            Self::TUnit => "TUnit",
        }
    }
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct FoundTest {
    pub method: SymbolRef,
    /// As the runners name it: `Namespace.Class.Method`, a nested class joined with `+`.
    pub fully_qualified_name: String,
    pub project: String,
    pub project_path: String,
    pub framework: TestFramework,
    /// The target frameworks in which the test reaches the change, sorted; empty for a single-targeted project.
    pub target_frameworks: Vec<String>,
    /// The symbols from a changed one to the test, each displayed, the changed one first; the shortest chain.
    pub reason: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct TestProject {
    pub name: String,
    pub file_path: String,
    pub frameworks: Vec<TestFramework>,
    /// Its target frameworks, sorted.
    pub target_frameworks: Vec<String>,
    /// Test methods it declares (a parametrized test counts once).
    pub test_count: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ChangeSignatureRequest {
    /// On the member's name at its declaration or at a call.
    pub position: Position,
    /// The new parameter list in order: an existing parameter (by its current name) or an added one. An
    /// existing parameter left out is removed.
    pub parameters: Vec<SignatureParameter>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SignatureParameter {
    /// An existing parameter's current name, or the added parameter's name.
    pub name: String,
    /// Rename an existing parameter (empty: keep its name).
    pub new_name: String,
    /// Give an existing parameter another type, as C# text (empty: keep its type).
    pub new_type: String,
    /// Present for a parameter the change adds.
    pub added: Option<AddedParameter>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct AddedParameter {
    /// As C# text, e.g. `string` or `System.Threading.CancellationToken`.
    pub type_name: String,
    /// Makes the parameter optional with this default, as C# text (empty: required).
    pub default_value: String,
    /// What every call passes, as C# text (empty: calls pass nothing and the default applies).
    pub argument: String,
    /// Pass `argument` as `name: argument`.
    pub named: bool,
}

/// What a change of signature does, or would do.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ChangeSignaturePlan {
    /// The member as displayed before and after, e.g. `Shop.Pricing.Price(int, decimal)`.
    pub display: String,
    pub new_display: String,
    /// As [`SymbolSummary::kind`].
    pub kind: String,
    /// The first declaration's name.
    pub location: Position,
    /// Sorted by path; at most one edit per path.
    pub edits: Vec<FileEdit>,
    /// Declarations changed: the member and the overrides, implementations and interface members with it.
    pub declarations: u32,
    /// Calls and other references updated, each source place once.
    pub call_sites: u32,
    /// Text spans replaced over all files.
    pub changes: u32,
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SafeDeleteRequest {
    pub target: DeleteTarget,
    /// Also delete what is kept by default: overrides, interface implementations, entry points, members with
    /// attributes (tests, serializers, reflection), the public API of a library, names that Razor or XAML
    /// files mention.
    pub include_public: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub enum DeleteTarget {
    /// The type, member, parameter or local at a position (its declaration or a use).
    Symbol(Position),
    /// Every type a file declares, and the file.
    File(String),
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SafeDeletePlan {
    /// What goes, in source order.
    pub deleted: Vec<DeletedSymbol>,
    /// Sorted by path; at most one edit per path. A project file is edited only where it lists a deleted file.
    pub edits: Vec<FileEdit>,
    /// Text spans replaced over all files (a deleted file counts once).
    pub changes: u32,
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct DeletedSymbol {
    pub name: String,
    /// As [`SymbolSummary::kind`].
    pub kind: String,
    /// Fully qualified display.
    pub display: String,
    /// The first declaration's name.
    pub location: Position,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RenameFileRequest {
    pub file: String,
    /// The new file name, in the same folder (`Purchase.cs`).
    pub new_name: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct RenameFilePlan {
    /// The type renamed with the file, when the file was named after it.
    pub renamed: Option<RenamedSymbol>,
    /// Sorted by path: the old path deleted and the new one created (a type's other files too), the files
    /// referring to a renamed type, and a project file that lists a renamed file.
    pub edits: Vec<FileEdit>,
    /// Text spans replaced over every file.
    pub total_edits: u32,
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SyncNamespacesRequest {
    /// One project, by name or path (every target framework); `None`: every project.
    pub project: Option<String>,
    /// Only the files under this folder; `None`: all of them.
    pub folder: Option<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SyncNamespacesPlan {
    pub plan: EditPlan,
    /// The files whose namespace changes, sorted by path.
    pub changed: Vec<NamespaceChange>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NamespaceChange {
    pub file: String,
    pub namespace: String,
    pub new_namespace: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MoveFilesRequest {
    /// The C# files to move (absolute); empty when `folder` is given.
    pub files: Vec<String>,
    /// A folder whose C# files all move, its subfolders kept below the destination.
    pub folder: Option<String>,
    /// The folder the files end up in (absolute; created when missing): the folder's new path for a folder.
    pub destination: String,
    pub keep_namespaces: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MoveFilesPlan {
    pub plan: EditPlan,
    /// Each moved file and its new path, sorted by old path.
    pub moved: Vec<MovedFile>,
    /// The moved files whose namespace follows the destination, sorted by old path.
    pub namespaces: Vec<NamespaceChange>,
    /// The project references added, sorted.
    pub references: Vec<AddedReference>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ProjectGraphRequest {
    /// One project, by name or path (every target framework); `None`: every project.
    pub project: Option<String>,
    /// Also look for project and package references no code names (reads every document).
    pub unused: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ProjectGraph {
    /// One per project file, sorted by path.
    pub projects: Vec<GraphProject>,
    /// Sorted by project, then reference.
    pub unused: Vec<UnusedReference>,
    pub warnings: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GraphProject {
    pub name: String,
    /// The project file.
    pub path: String,
    pub assembly_name: String,
    pub target_frameworks: Vec<String>,
    /// `library`, `exe`, `winexe`, `module`, ...
    pub output_kind: String,
    /// It references a test framework (xunit, NUnit, MSTest, TUnit).
    pub is_test_project: bool,
    /// The project files it references itself (what restore recorded), sorted.
    pub project_references: Vec<String>,
    /// The packages it references itself, with the version restore resolved, sorted by name.
    pub packages: Vec<PackageVersion>,
    /// Analyzer assemblies that report diagnostics, sorted.
    pub analyzers: Vec<String>,
    /// Source generators, `Assembly: Type`, sorted.
    pub generators: Vec<String>,
    /// The project files it depends on, directly or not, sorted.
    pub dependencies: Vec<String>,
    /// The project files that depend on it, directly or not: what rebuilds when it changes. Sorted.
    pub dependents: Vec<String>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageVersion {
    pub name: String,
    // Resolved by restore; the requested range when restore did not resolve it.
    pub version: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnusedReference {
    /// The project file that holds the reference.
    pub project: String,
    /// `project` or `package`.
    pub kind: String,
    /// The referenced project file, or the package name.
    pub reference: String,
    // Why it looks unused.
    pub evidence: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct PublicApiRequest {
    /// One project, by name or path: its first target framework.
    pub project: String,
    /// The C# files to compile instead of the project's documents (another revision's), its references kept;
    /// `None`: the project as loaded.
    pub files: Option<Vec<SourceFile>>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct PublicApi {
    /// The project file.
    pub project: String,
    /// The target framework compiled.
    pub framework: String,
    /// Sorted by line.
    pub members: Vec<ApiMember>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ApiMember {
    /// The documentation comment id (`M:Shop.Cart.Add(System.Int32)`): one per member across revisions.
    pub id: String,
    /// In the style of PublicAPI.Shipped.txt: modifiers, the member, ` -> ` its type.
    pub line: String,
    /// `class`, `method`, `property`, ...
    pub kind: String,
    /// The containing type's (or namespace's) name and the member's: a changed signature keeps both.
    pub container: String,
    pub name: String,
    /// Adding it breaks existing code (an abstract member, an interface member without a body).
    pub breaks_when_added: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MovedFile {
    pub file: String,
    pub new_file: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddedReference {
    /// The project file that gets the reference.
    pub project: String,
    /// The project file it references.
    pub references: String,
}

/// Where a symbol of a referenced assembly reads as C#: a document with a virtual path
/// (`roslyn-mcp://metadata/<assembly>/<version>/<Namespace.Type>.cs`) that `ReadSource` answers.
#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct MetadataSource {
    /// The declared identifier in the virtual document (its `file` is the virtual path).
    pub span: Span,
    pub line_text: String,
    pub origin: SourceOrigin,
}

/// Where the text of a document without a file of its own comes from.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceOrigin {
    /// A solution document: its file.
    File,
    /// The source the assembly's PDB embeds.
    EmbeddedSource,
    /// C# decompiled from the assembly's IL.
    Decompiled,
    /// Written by a source generator during compilation.
    Generated,
}

impl SourceOrigin {
    pub fn name(self) -> &'static str {
        match self {
            SourceOrigin::File => "file",
            SourceOrigin::EmbeddedSource => "embeddedSource",
            SourceOrigin::Decompiled => "decompiled",
            SourceOrigin::Generated => "generated",
        }
    }
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ReadSourceRequest {
    /// A solution document's path, or a virtual path (`roslyn-mcp://metadata/...`, `roslyn-mcp://generated/...`).
    pub path: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SourceDocument {
    pub path: String,
    pub origin: SourceOrigin,
    /// The generator that wrote a generated document (its type's full name).
    pub generator: Option<String>,
    /// The assembly (`Name, Version`) a metadata document reads.
    pub assembly: Option<String>,
    /// The whole text, lines ending as in the document.
    pub text: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct ProjectRequest {
    /// One project, by name or path.
    pub project: String,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct GeneratedDocumentList {
    /// Sorted by project, framework, generator and hint name.
    pub documents: Vec<GeneratedDocument>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct GeneratedDocument {
    /// The project file.
    pub project: String,
    pub framework: Option<String>,
    /// The generator's type, fully qualified.
    pub generator: String,
    /// The generator's assembly name.
    pub generator_assembly: String,
    pub hint_name: String,
    /// `roslyn-mcp://generated/...`, which `ReadSource` answers.
    pub path: String,
    /// Characters of text.
    pub length: u32,
    pub lines: u32,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolSourcesRequest {
    /// Fully qualified names (`Shop.Cart`, `Shop.Cart.Add`, `System.Text.Json.JsonSerializer.Serialize`).
    pub names: Vec<String>,
    /// A type's members are written without their bodies.
    pub signatures_only: bool,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolSourceList {
    /// In the order the names were asked.
    pub entries: Vec<SymbolSourceEntry>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolSourceEntry {
    pub name: String,
    /// Every symbol the name matches (each overload), each declaration of it.
    pub declarations: Vec<SymbolDeclaration>,
    /// Why the name matched nothing.
    pub error: Option<HostError>,
}

#[derive(Encode, Decode, Debug, Clone, PartialEq)]
pub struct SymbolDeclaration {
    pub symbol: SymbolSummary,
    /// The whole declaration; `file` is the path or virtual path.
    pub span: Span,
    pub origin: SourceOrigin,
    pub text: String,
}
