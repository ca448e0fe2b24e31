//! Every tool, declared once: its name, title, kind, input, output, handler and description. The server's
//! router (and with it `tools/list`) and diagnose's capability list come from here, so a tool cannot be
//! listed without a handler, nor answer without being listed.

use super::{
    Call, actions, analyze, api, calls, cleanup, diagnose, diagnostics, graph, hierarchy, initialize, jobs, members,
    moves, navigation, refactor, signature, sources, symbols, testing, writes,
};
use protocol::ToolError;
use protocol::tools::{self as io, input_schema, output_schema};
use rmcp::model::{Tool, ToolAnnotations};
use rmcp::schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::Arc;

/// What a tool does to the world, which decides its annotations and how its call runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Reads; its answer must fit the response cap.
    Read,
    /// Health: answers before the client's roots are known (no path passes then) and is never capped.
    Health,
    /// Writes files; uncapped, since a preview's diffs are as long as the files they show.
    Write,
    /// Builds and runs the repository's code: a write whose effects reach beyond the solution.
    Run,
    /// Answers for another call's work (get_job): never a job itself, never capped (the work may be a write).
    Job,
}

impl Kind {
    /// Whether a call may outlast a client's time limit, and so runs as a job answered within the bound.
    pub fn may_take_long(self) -> bool {
        matches!(self, Kind::Read | Kind::Write | Kind::Run)
    }

    /// Whether the answer must fit the response cap.
    pub fn capped(self) -> bool {
        self == Kind::Read
    }

    fn annotations(self, title: &str) -> ToolAnnotations {
        let annotations = ToolAnnotations::with_title(title);
        match self {
            Kind::Read | Kind::Health => annotations.read_only(true).idempotent(true).open_world(false),
            Kind::Write | Kind::Run => {
                annotations.read_only(false).destructive(false).idempotent(false).open_world(self == Kind::Run)
            }
            // Its `cancel` stops the work; asking again changes nothing more.
            Kind::Job => annotations.read_only(false).destructive(false).idempotent(true).open_world(false),
        }
    }
}

/// What the catalog declares its tools to: the server's router.
pub trait Register {
    /// One tool: what clients see of it, its kind, and the function that answers it.
    fn tool<I, O, F, Fut>(&mut self, tool: Tool, kind: Kind, run: F)
    where
        I: DeserializeOwned + Send + 'static,
        O: Serialize + Send + 'static,
        F: Fn(Call, I) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static;
}

/// What clients see of a tool: its name, description, schemas and annotations.
fn listed<I: JsonSchema, O: JsonSchema>(
    name: &'static str,
    title: &str,
    kind: Kind,
    description: &'static str,
) -> Tool {
    Tool::new_with_raw(name, Some(description.into()), Arc::new(input_schema::<I>()))
        .with_raw_output_schema(Arc::new(output_schema::<O>()))
        .with_annotations(kind.annotations(title))
}

/// diagnose lists the catalog's tools as its capabilities; handed in here, so that no tool imports the catalog.
async fn diagnose_listing_the_catalog(
    call: &Call,
    input: io::diagnose::DiagnoseInput,
) -> Result<io::diagnose::DiagnoseOutput, ToolError> {
    diagnose::diagnose(call, input, NAMES).await
}

/// What every tool shares, stated once for the client to give the model: the tool descriptions rely on it.
pub const INSTRUCTIONS: &str = "Compiler-accurate C# navigation and refactoring over Roslyn. Start with \
    initialize_workspace on the solution's folder. Positions are 1-based line and column (columns in UTF-16 \
    code units). Paths are absolute or relative to the workspace root; answers give absolute ones. project is a \
    project's name or project file path; solutionPath picks a loaded solution, else the one holding the file or \
    the session's. A failure has isError and a catalog code in structuredContent.error.code. A call still \
    working after the answer bound (45 s by default) answers status: running with a jobId for get_job. Writes: \
    preview: true, then apply_plan; undo by operationId.";

// The rules several descriptions state, each written once here and included with `concat!`. The pinning
// test (`catalog/facts.rs`) checks each description against the code that makes it true.

/// A paged tool.
macro_rules! paged {
    () => {
        " Paged: cursor = nextCursor."
    };
}

/// A writing tool: the rest of what a write does is stated once, in apply_plan's description.
macro_rules! writes {
    () => {
        " New compiler errors refuse it; see apply_plan."
    };
}

/// A call that may outlast the answer bound.
macro_rules! long {
    () => {
        " May answer a jobId (get_job)."
    };
}

/// A change, as find_tests and run_tests take it.
macro_rules! change {
    () => {
        "a position, changedSince (git revision), operationId or planId"
    };
}

/// A symbol of a referenced assembly.
macro_rules! metadata {
    () => {
        " A referenced assembly's: a roslyn-mcp://metadata/ path for read_source."
    };
}

macro_rules! catalog {
    ($($name:ident {
        title: $title:literal,
        kind: $kind:ident,
        input: $input:ty,
        // The schema clients see; a write's handler returns a wider payload that serializes to it.
        output: $output:ty,
        run: $run:path,
        description: $description:expr,
    })*) => {
        /// Every tool's name, in the order diagnose lists them.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        /// Declares every tool to `register`.
        pub fn declare(register: &mut impl Register) {
            $(register.tool::<$input, _, _, _>(
                listed::<$input, $output>(stringify!($name), $title, Kind::$kind, $description),
                Kind::$kind,
                |call, input| async move { $run(&call, input).await },
            );)*
        }
    };
}

catalog! {
    diagnose {
        title: "Diagnose",
        kind: Health,
        input: io::diagnose::DiagnoseInput,
        output: io::diagnose::DiagnoseOutput,
        run: diagnose_listing_the_catalog,
        description: "Check the service's health: SDK, MSBuild and Roslyn versions, each solution's state, projects, host restarts, write queue, errors; at once, even during loads. verbose adds paths and settings.",
    }

    initialize_workspace {
        title: "Initialize workspace",
        kind: Read,
        input: io::workspace::InitializeWorkspaceInput,
        output: io::workspace::InitializeWorkspaceOutput,
        run: initialize::initialize_workspace,
        description: concat!("Load the solution under workingDirectory (preferredSolution picks among several) as this session's default for relative paths and calls without solutionPath; SOLUTION_NOT_FOUND if none.", long!()),
    }

    get_type_at_position {
        title: "Type at position",
        kind: Read,
        input: io::PositionInput,
        output: io::navigation::TypeAtPositionOutput,
        run: navigation::type_at_position,
        description: "Get the type of what is at a position: full name, kind, assembly, base type, interfaces, documentation, declarations.",
    }

    find_symbol_definition {
        title: "Find definition",
        kind: Read,
        input: io::PositionInput,
        output: io::navigation::SymbolDefinitionOutput,
        run: navigation::symbol_definition,
        description: concat!("Go to the declarations of the symbol at a position, each with its line (a partial type has several; generated ones are marked).", metadata!()),
    }

    find_references {
        title: "Find references",
        kind: Read,
        input: io::navigation::FindReferencesInput,
        output: io::navigation::FindReferencesOutput,
        run: navigation::find_references,
        description: concat!("Find every use of the symbol at a position across the solution, compiler-accurate: place, line, kind (Invocation, Read, Write...), project. includeDeclaration adds declarations.", paged!()),
    }

    get_public_api {
        title: "Public API",
        kind: Read,
        input: io::api::PublicApiInput,
        output: io::api::PublicApiOutput,
        run: api::public_api,
        description: concat!("List a project's public API (what outside code reaches, first target framework), one PublicAPI.Shipped.txt line per type and member.", paged!()),
    }

    compare_public_api {
        title: "Compare public API",
        kind: Read,
        input: io::api::CompareApiInput,
        output: io::api::CompareApiOutput,
        run: api::compare_public_api,
        description: "Find the breaking changes of a project's public API since a git revision, compiled in memory: members removed, changed and added, each marked breaking or not.",
    }

    get_project_graph {
        title: "Project graph",
        kind: Read,
        input: io::graph::ProjectGraphInput,
        output: io::graph::ProjectGraphOutput,
        run: graph::project_graph,
        description: concat!("Show the solution's projects (or one) and their dependencies: frameworks, test or not, project and package references, analyzers, generators, dependents. unused: true adds references no code uses.", paged!()),
    }

    read_source {
        title: "Read source",
        kind: Read,
        input: io::sources::ReadSourceInput,
        output: io::sources::ReadSourceOutput,
        run: sources::read_source,
        description: "Read lines of a C# file of the solution, or of a roslyn-mcp://generated/ or roslyn-mcp://metadata/ path other answers give (a generator's output; a referenced type from its PDB, else decompiled). startLine and lineCount (default 200) choose.",
    }

    get_symbol_source {
        title: "Symbol source",
        kind: Read,
        input: io::sources::SymbolSourceInput,
        output: io::sources::SymbolSourceOutput,
        run: sources::symbol_source,
        description: "Get the source of up to 50 symbols by full name (Shop.Cart, Shop.Cart.Add: all overloads, Outer+Inner, M:Shop.Cart.Add(System.Int32)), from source, generated code or referenced assemblies; signaturesOnly drops bodies. Unknown names fail alone (SYMBOL_NOT_FOUND).",
    }

    list_generated_documents {
        title: "Generated documents",
        kind: Read,
        input: io::sources::GeneratedDocumentsInput,
        output: io::sources::GeneratedDocumentsOutput,
        run: sources::generated_documents,
        description: "List the documents source generators add to a project, per target framework, with the roslyn-mcp://generated/ paths read_source and navigation take.",
    }

    get_compilation_diagnostics {
        title: "Compilation diagnostics",
        kind: Read,
        input: io::diagnostics::CompilationDiagnosticsInput,
        output: io::diagnostics::CompilationDiagnosticsOutput,
        run: diagnostics::compilation_diagnostics,
        description: concat!("List compiler errors and warnings of a file, a project or the solution. minSeverity filters (default warning); includeAnalyzers adds analyzer and IDE rules (slower).", paged!()),
    }

    find_type_definition {
        title: "Find type definition",
        kind: Read,
        input: io::PositionInput,
        output: io::navigation::TypeDefinitionOutput,
        run: navigation::type_definition,
        description: concat!("Go to the declarations of the type of what is at a position (a variable, parameter, property or expression).", metadata!()),
    }

    get_available_members {
        title: "Available members",
        kind: Read,
        input: io::members::AvailableMembersInput,
        output: io::members::AvailableMembersOutput,
        run: members::available_members,
        description: concat!("List the members accessible on the type at a position, as completion after a dot: signatures, documentation. includeExtensionMethods, includeStatic default true; filter is a name prefix.", paged!()),
    }

    get_method_overloads {
        title: "Method overloads",
        kind: Read,
        input: io::PositionInput,
        output: io::members::MethodOverloadsOutput,
        run: members::method_overloads,
        description: "List every overload of the method or constructor at a position, with signatures and documentation.",
    }

    find_implementations {
        title: "Find implementations",
        kind: Read,
        input: io::hierarchy::ImplementationsInput,
        output: io::hierarchy::ImplementationsOutput,
        run: hierarchy::find_implementations,
        description: concat!("Find what implements or derives from a type (typeName or a position), or implements or overrides the member at a position; findDerivedTypes, findInterfaceImplementations default true.", paged!()),
    }

    get_type_hierarchy {
        title: "Type hierarchy",
        kind: Read,
        input: io::hierarchy::TypeHierarchyInput,
        output: io::hierarchy::TypeHierarchyOutput,
        run: hierarchy::type_hierarchy,
        description: "Show a type's base types, interfaces and derived types in the solution (typeName or a position); direction Base, Derived or Both (default).",
    }

    get_call_hierarchy {
        title: "Call hierarchy",
        kind: Read,
        input: io::hierarchy::CallHierarchyInput,
        output: io::hierarchy::CallHierarchyOutput,
        run: calls::call_hierarchy,
        description: concat!("Show who calls the method, property or constructor at a position and what it calls, with every call site; direction Incoming, Outgoing or Both (default).", paged!()),
    }

    get_document_symbols {
        title: "Document symbols",
        kind: Read,
        input: io::symbols::DocumentSymbolsInput,
        output: io::symbols::DocumentSymbolsOutput,
        run: symbols::document_symbols,
        description: concat!("List every declaration in a file (namespaces, types, members, local functions) with ranges and containers.", paged!()),
    }

    search_symbols {
        title: "Search symbols",
        kind: Read,
        input: io::symbols::SearchSymbolsInput,
        output: io::symbols::SearchSymbolsOutput,
        run: symbols::search_symbols,
        description: concat!("Find types and members of the solution by name: prefix, substring or camel humps (query CuRe finds CustomerRepository), case-insensitive.", paged!()),
    }

    analyze_code_block {
        title: "Analyze code block",
        kind: Read,
        input: io::analyze::AnalyzeCodeBlockInput,
        output: io::analyze::AnalyzeCodeBlockOutput,
        run: analyze::analyze_code_block,
        description: "Compile a C# snippet (code, at most 64 KiB) as if inserted at a position, changing nothing: its diagnostics and the symbols it declares and uses. Statements go in a method body, members in a type.",
    }

    move_type_to_file {
        title: "Move type to file",
        kind: Write,
        input: io::moves::MoveTypeToFileInput,
        output: io::moves::MoveOutput,
        run: moves::move_type_to_file,
        description: concat!("Move a type to another file (targetFile, created unless createTargetFile is false), in any project, keeping its namespace, adding the usings it needs; a file left empty is deleted. line picks among same-named types.", writes!()),
    }

    move_type_to_namespace {
        title: "Move type to namespace",
        kind: Write,
        input: io::moves::MoveTypeToNamespaceInput,
        output: io::moves::MoveOutput,
        run: moves::move_type_to_namespace,
        description: concat!("Move a type to another namespace and update every reference; a type sharing its file moves to <Type>.cs beside it. updateFileLocation also moves the file to the namespace's folder.", writes!()),
    }

    rename_symbol {
        title: "Rename symbol",
        kind: Write,
        input: io::refactor::RenameSymbolInput,
        output: io::refactor::RenameOutput,
        run: refactor::rename_symbol,
        description: concat!("Rename the symbol at a position and every reference, as Roslyn's renamer does (overrides, implementations); renameOverloads, renameInComments, renameInStrings widen it; a type's file follows unless renameFile is false. Refused: INVALID_SYMBOL_NAME, NAME_COLLISION.", writes!()),
    }

    change_signature {
        title: "Change signature",
        kind: Write,
        input: io::signature::ChangeSignatureInput,
        output: io::signature::ChangeSignatureOutput,
        run: signature::change_signature,
        description: concat!("Change the parameters of the method, constructor, indexer or delegate at a position (reorder, add, remove, rename, retype), updating every call, override and <param> tag. Refused: PARAMETER_IN_USE, NAME_COLLISION, BINDING_CHANGED, EVALUATION_ORDER_CHANGED.", writes!()),
    }

    safe_delete {
        title: "Safe delete",
        kind: Write,
        input: io::signature::SafeDeleteInput,
        output: io::signature::SafeDeleteOutput,
        run: signature::safe_delete,
        description: concat!("Delete the symbol at a position, or (filePath alone) a file and its types, if nothing references it (else STILL_REFERENCED). Overrides, entry points, attributed members, public API stay (MAY_BE_USED_ELSEWHERE) unless includePublic.", writes!()),
    }

    rename_file {
        title: "Rename file",
        kind: Write,
        input: io::refactor::RenameFileInput,
        output: io::refactor::RenameFileOutput,
        run: refactor::rename_file,
        description: concat!("Rename a C# file in its folder (newName: Purchase.cs); a file named after its type renames the type too, as rename_symbol does.", writes!()),
    }

    sync_namespaces {
        title: "Sync namespaces",
        kind: Write,
        input: io::refactor::SyncNamespacesInput,
        output: io::refactor::SyncNamespacesOutput,
        run: refactor::sync_namespaces,
        description: concat!("Make the C# files of a project (or all; folder narrows) declare the namespace their folder implies, updating every consumer; linked files stay.", writes!()),
    }

    move_files {
        title: "Move files",
        kind: Write,
        input: io::refactor::MoveFilesInput,
        output: io::refactor::MoveFilesOutput,
        run: refactor::move_files,
        description: concat!("Move C# files (files, or a folder's) to destination, a folder of any project; namespaces follow unless keepNamespaces, and consumers and project references are updated. Refused: CIRCULAR_REFERENCE, REFERENCE_MISSING, INVALID_TARGET_PATH.", writes!()),
    }

    organize_usings {
        title: "Organize usings",
        kind: Write,
        input: io::refactor::OrganizeUsingsInput,
        output: io::refactor::OrganizeUsingsOutput,
        run: refactor::organize_usings,
        description: concat!("Remove unnecessary using directives and sort the rest as .editorconfig says, in a file, a project or the solution; removeUnused and sort default true.", writes!()),
    }

    get_code_actions {
        title: "Code actions",
        kind: Read,
        input: io::actions::GetCodeActionsInput,
        output: io::actions::CodeActionsOutput,
        run: actions::get_code_actions,
        description: "List the refactorings and fixes Roslyn offers at a position or selection (endLine), as an IDE's light bulb; each id serves apply_code_action until the solution changes.",
    }

    apply_code_action {
        title: "Apply code action",
        kind: Write,
        input: io::actions::ApplyCodeActionInput,
        output: io::actions::ApplyCodeActionOutput,
        run: actions::apply_code_action,
        description: concat!("Apply a code action by its get_code_actions id, or with fixAll its fix everywhere in a document, project or solution; options answer its dialog (extract interface). CODE_ACTION_STALE once the solution changed.", writes!()),
    }

    format_document {
        title: "Format document",
        kind: Write,
        input: io::cleanup::FormatDocumentInput,
        output: io::cleanup::FormatDocumentOutput,
        run: cleanup::format_document,
        description: concat!("Format a file (startLine to endLine narrow it), a project or the solution with Roslyn's formatter and .editorconfig.", writes!()),
    }

    find_replace {
        title: "Find and replace",
        kind: Write,
        input: io::cleanup::FindReplaceInput,
        output: io::cleanup::FindReplaceOutput,
        run: cleanup::find_replace,
        description: concat!("Replace text or a .NET regex (regex: true) in the solution's C# files, narrowed by project or include; includeOtherFiles adds text files such as README.md. Lists the matches.", writes!()),
    }

    remove_unused {
        title: "Remove unused code",
        kind: Write,
        input: io::cleanup::RemoveUnusedInput,
        output: io::cleanup::RemoveUnusedOutput,
        run: cleanup::remove_unused,
        description: concat!("Remove what analyzers find unused in a file, a project or the solution: private members, locals, parameters, usings (kinds picks); public API stays unless includePublic.", writes!()),
    }

    find_tests {
        title: "Find tests",
        kind: Read,
        input: io::testing::FindTestsInput,
        output: io::testing::FindTestsOutput,
        run: testing::find_tests,
        description: concat!("Find the tests (xunit, NUnit, MSTest, TUnit) a change can break, each with the chain reaching it; static, so reflection and DI go unseen. Give one change: ", change!(), "; project narrows.", paged!()),
    }

    run_tests {
        title: "Run tests",
        kind: Run,
        input: io::testing::RunTestsInput,
        output: io::testing::RunTestsOutput,
        run: testing::run_tests,
        description: concat!("Build and run tests with the project's own runner: each case's outcome, message and stack. Give tests (find_tests ids), a change (", change!(), "), filter, or project alone. Builds in a copy of the repository; timeoutSeconds (default 300) ends the run; testTimeoutSeconds catches a hung test (TIMEOUT).", long!()),
    }

    apply_plan {
        title: "Apply plan",
        kind: Write,
        input: io::plans::ApplyPlanInput,
        output: io::refactor::AppliedPlan,
        run: writes::apply_plan::apply_plan,
        description: "Write the plan a writing tool's preview: true returned (planId). Any write is atomic, refused on new compiler errors (COMPILATION_ERROR), undone by its operationId; changed: false if nothing changed. If files changed since, the plan is kept, merged or replayed (recomputed on them), as rebased says; exact: true refuses a differing result (STALE_PLAN). verify: \"tests\" undoes the write if a test it reaches that passed now fails (TESTS_FAILED). waitSeconds (default 30, at most 300) queues behind other writes, then WORKSPACE_BUSY. Plans expire after 15 minutes (PLAN_NOT_FOUND).",
    }

    undo {
        title: "Undo",
        kind: Write,
        input: io::plans::OperationInput,
        output: io::plans::OperationOutput,
        run: writes::history::undo,
        description: "Undo a write by its operationId, in any order, atomically. A file changed since is merged word by word and must still compile; changes at the same places refuse it (STALE_PLAN). OPERATION_NOT_APPLICABLE if already undone.",
    }

    redo {
        title: "Redo",
        kind: Write,
        input: io::plans::OperationInput,
        output: io::plans::OperationOutput,
        run: writes::history::redo,
        description: "Redo an undone write by its operationId, atomically, merging as undo does.",
    }

    list_operations {
        title: "List operations",
        kind: Read,
        input: io::plans::ListOperationsInput,
        output: io::plans::ListOperationsOutput,
        run: writes::history::list_operations,
        description: "List the writes undo and redo act on, newest first (kept across restarts): tool, summary, files, state, and whether each can be undone or redone now.",
    }

    get_job {
        title: "Get job",
        kind: Job,
        input: io::jobs::GetJobInput,
        output: io::jobs::GetJobOutput,
        run: jobs::get_job,
        description: "Get the answer of a call that answered status: running with a jobId (a call still working after 45 s, the default answer bound) or of a LOADING refusal (details.jobId): its own answer once done, else its progress. waitSeconds waits first (0: at once); cancel: true stops the work, rolling back a write. Kept 10 minutes, then JOB_NOT_FOUND.",
    }
}

#[cfg(test)]
mod facts;

/// What the catalog declares, as clients will see it.
#[cfg(test)]
struct Listed(Vec<(Tool, Kind)>);

#[cfg(test)]
impl Register for Listed {
    fn tool<I, O, F, Fut>(&mut self, tool: Tool, kind: Kind, _: F) {
        self.0.push((tool, kind));
    }
}

#[cfg(test)]
fn listed_tools() -> Vec<(Tool, Kind)> {
    let mut listed = Listed(Vec::new());
    declare(&mut listed);
    listed.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_declared_once_and_listed_as_diagnose_lists_it() {
        let listed = listed_tools();
        let names: Vec<&str> = listed.iter().map(|(tool, _)| tool.name.as_ref()).collect();
        assert_eq!(names, NAMES);
        // rmcp's router keys routes by name: a second declaration would silently replace the first.
        let mut distinct = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len(), "a tool is declared twice");
        for (tool, kind) in &listed {
            let annotations = tool.annotations.as_ref().expect("annotations");
            assert_eq!(annotations.read_only_hint, Some(matches!(kind, Kind::Read | Kind::Health)), "{}", tool.name);
            assert!(tool.output_schema.is_some(), "{}", tool.name);
        }
        let health: Vec<&str> =
            listed.iter().filter(|(_, kind)| *kind == Kind::Health).map(|(tool, _)| tool.name.as_ref()).collect();
        assert_eq!(health, ["diagnose"]);
    }

    /// The README's tool table, between its `tools:begin` and `tools:end` markers: each tool's description as
    /// `tools/list` gives it. `ROSLYN_MCP_BLESS=1` writes it.
    #[test]
    fn the_readme_s_tool_table_is_the_catalog() {
        let listed = listed_tools();
        let mut table = format!(
            "There are {} tools; each one's description is the one `tools/list` gives:\n\n| tool | what it does |\n| --- | --- |\n",
            listed.len()
        );
        for (tool, _) in &listed {
            let description = tool.description.as_deref().unwrap_or_default().replace('|', "\\|");
            table.push_str(&format!("| `{}` | {description} |\n", tool.name));
        }
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
        let readme = std::fs::read_to_string(&path).expect("README.md");
        let (before, rest) = readme.split_once("<!-- tools:begin -->\n").expect("README.md has a tools:begin marker");
        let (current, after) = rest.split_once("<!-- tools:end -->").expect("README.md has a tools:end marker");
        if std::env::var_os("ROSLYN_MCP_BLESS").is_some() {
            let written = format!("{before}<!-- tools:begin -->\n{table}<!-- tools:end -->{after}");
            std::fs::write(&path, written).expect("writes README.md");
        } else {
            assert!(current == table, "README.md's tool table is not the catalog's: ROSLYN_MCP_BLESS=1 writes it");
        }
    }
}
