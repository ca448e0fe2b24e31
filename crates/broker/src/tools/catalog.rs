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

macro_rules! catalog {
    ($($name:ident {
        title: $title:literal,
        kind: $kind:ident,
        input: $input:ty,
        // The schema clients see; a write's handler returns a wider payload that serializes to it.
        output: $output:ty,
        run: $run:path,
        description: $description:literal,
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
        description: "Health of the service: .NET SDK, MSBuild and Roslyn versions, and the state of every loaded solution (projects, documents, host restarts, errors). Never waits on a busy workspace.",
    }

    initialize_workspace {
        title: "Initialize workspace",
        kind: Read,
        input: io::workspace::InitializeWorkspaceInput,
        output: io::workspace::InitializeWorkspaceOutput,
        run: initialize::initialize_workspace,
        description: "Find the solutions under a folder, load the primary one and make it this session's default: relative paths and calls without solutionPath use it. Call once at the start of a session.",
    }

    get_type_at_position {
        title: "Type at position",
        kind: Read,
        input: io::PositionInput,
        output: io::navigation::TypeAtPositionOutput,
        run: navigation::type_at_position,
        description: "The type at a 1-based line and column: of the expression, variable, member or type name there, with its full name, kind, assembly, generic arguments, base type, interfaces, documentation and declarations.",
    }

    find_symbol_definition {
        title: "Find definition",
        kind: Read,
        input: io::PositionInput,
        output: io::navigation::SymbolDefinitionOutput,
        run: navigation::symbol_definition,
        description: "Where the symbol at a 1-based line and column is declared: every declaration (partial types have several; a partial method, property or event its declaring and its implementing part, a source generator's marked generated) with its source line. Symbols from referenced assemblies are reported with their assembly and no location.",
    }

    find_references {
        title: "Find references",
        kind: Read,
        input: io::navigation::FindReferencesInput,
        output: io::navigation::FindReferencesOutput,
        run: navigation::find_references,
        description: "Every use of the symbol at a 1-based line and column across the solution, compiler-accurate (not text search), sorted by file and position, each with its line text and kind (Invocation, ObjectCreation, Read, Write, TypeReference...). Paged: pass nextCursor back as cursor.",
    }

    get_public_api {
        title: "Public API",
        kind: Read,
        input: io::api::PublicApiInput,
        output: io::api::PublicApiOutput,
        run: api::public_api,
        description: "The public and protected surface of a project as its first target framework compiles it: every type code outside the assembly can name and every member of it it can reach, one line each (modifiers, the member, -> its type, in the style of PublicAPI.Shipped.txt), sorted, as text and as items with their documentation comment id and kind. Paged by members: pass nextCursor back as cursor.",
    }

    compare_public_api {
        title: "Compare public API",
        kind: Read,
        input: io::api::CompareApiInput,
        output: io::api::CompareApiOutput,
        run: api::compare_public_api,
        description: "Compare a project's public API on disk with a git revision's (since): the revision's .cs files under the project's folder, read from git and compiled in memory with the project's references (nothing is checked out or written). Answers the members removed (breaking), changed (signature, accessibility, static, sealed/virtual/abstract, a type's kind; breaking unless it only opens the member up), and added (breaking when code outside must implement it: an abstract member or an interface member without a body in a type that existed), with both lines and breakingCount. REVISION_NOT_FOUND for a revision git does not know.",
    }

    get_project_graph {
        title: "Project graph",
        kind: Read,
        input: io::graph::ProjectGraphInput,
        output: io::graph::ProjectGraphOutput,
        run: graph::project_graph,
        description: "The solution's projects (or one), one entry per project file: target frameworks, output kind, whether it references a test framework, the project and package references it names itself (packages with the version restore resolved), its analyzers and source generators, and the projects it depends on and that depend on it, transitively (what rebuilds when it changes). With unused: true, also the project and package references no code of the project names in any target framework, as candidates with the evidence (a package may still bring analyzers, build steps or runtime files). Paged by projects: pass nextCursor back as cursor.",
    }

    read_source {
        title: "Read source",
        kind: Read,
        input: io::sources::ReadSourceInput,
        output: io::sources::ReadSourceOutput,
        run: sources::read_source,
        description: "Lines of a C# document: a file of the solution, a document a source generator wrote (roslyn-mcp://generated/<project>/<project id>/<generator>/<hint name>, the id naming the project file) or a referenced assembly's type (roslyn-mcp://metadata/<assembly>/<version>/<Namespace.Type>.cs: the source its PDB embeds, else decompiled with ICSharpCode.Decompiler), as the paths answers give. startLine and lineCount (default 200, at most 2000) choose the lines; nextStartLine continues. Paths outside the workspace roots are refused.",
    }

    get_symbol_source {
        title: "Symbol source",
        kind: Read,
        input: io::sources::SymbolSourceInput,
        output: io::sources::SymbolSourceOutput,
        run: sources::symbol_source,
        description: "The declarations of several symbols at once, by fully qualified name (Shop.Cart, Shop.Cart.Add for every overload, Shop.Outer+Inner, or a documentation comment id such as M:Shop.Cart.Add(System.Int32)), from the solution's files, generated documents or referenced assemblies (embedded source, else decompiled). Each declaration comes with its place and origin (a partial member's both parts); signaturesOnly lists a type's members without bodies. A name that matches nothing gets its own error (SYMBOL_NOT_FOUND) without failing the others.",
    }

    list_generated_documents {
        title: "Generated documents",
        kind: Read,
        input: io::sources::GeneratedDocumentsInput,
        output: io::sources::GeneratedDocumentsOutput,
        run: sources::generated_documents,
        description: "The documents source generators add to a project at compile time, per target framework: the generator, its hint name, size and the virtual path (roslyn-mcp://generated/...) that read_source answers and that definitions and references landing in generated code give.",
    }

    get_compilation_diagnostics {
        title: "Compilation diagnostics",
        kind: Read,
        input: io::diagnostics::CompilationDiagnosticsInput,
        output: io::diagnostics::CompilationDiagnosticsOutput,
        run: diagnostics::compilation_diagnostics,
        description: "Compiler diagnostics (errors, warnings...) of one file, one project or the whole solution, grouped by file and sorted by position, with stable ids and counts; with includeAnalyzers also the analyzers' (the project's analyzer references such as the SDK's CA rules or StyleCop, and Roslyn's IDE rules) at the severities .editorconfig gives them, each with its source. minSeverity filters. Paged by files: pass nextCursor back as cursor.",
    }

    find_type_definition {
        title: "Find type definition",
        kind: Read,
        input: io::PositionInput,
        output: io::navigation::TypeDefinitionOutput,
        run: navigation::type_definition,
        description: "The declaration of the type of the symbol at a 1-based line and column (of a variable, parameter, property, expression or type name): every declaration of that type, or its assembly when it comes from a referenced one.",
    }

    get_available_members {
        title: "Available members",
        kind: Read,
        input: io::members::AvailableMembersInput,
        output: io::members::AvailableMembersOutput,
        run: members::available_members,
        description: "The members accessible at a 1-based line and column on the type of the expression, variable or type name there (as completion after a dot would offer), with signatures, parameters and documentation; extension methods and static members optional; filter by name prefix. Paged: pass nextCursor back as cursor.",
    }

    get_method_overloads {
        title: "Method overloads",
        kind: Read,
        input: io::PositionInput,
        output: io::members::MethodOverloadsOutput,
        run: members::method_overloads,
        description: "Every overload of the method at a 1-based line and column (its type's and base types' methods of that name; a constructor's siblings), with signatures, parameters and documentation.",
    }

    find_implementations {
        title: "Find implementations",
        kind: Read,
        input: io::hierarchy::ImplementationsInput,
        output: io::hierarchy::ImplementationsOutput,
        run: hierarchy::find_implementations,
        description: "Types implementing an interface or deriving from a class (by fully qualified typeName, or at a position), or members implementing or overriding the member at a position, or a partial member's implementing part (a source generator's marked generated); each says whether it does so directly. Paged: pass nextCursor back as cursor.",
    }

    get_type_hierarchy {
        title: "Type hierarchy",
        kind: Read,
        input: io::hierarchy::TypeHierarchyInput,
        output: io::hierarchy::TypeHierarchyOutput,
        run: hierarchy::type_hierarchy,
        description: "The inheritance of a type (by fully qualified typeName, or at a position): its base types up to System.Object, the types deriving from it in the solution, and its interfaces. direction: Base, Derived or Both.",
    }

    get_call_hierarchy {
        title: "Call hierarchy",
        kind: Read,
        input: io::hierarchy::CallHierarchyInput,
        output: io::hierarchy::CallHierarchyOutput,
        run: calls::call_hierarchy,
        description: "Calls into and out of the method, constructor or property at a 1-based line and column: the members calling it and the ones it calls, each with every call site. direction: Incoming, Outgoing or Both. Paged: pass nextCursor back as cursor.",
    }

    get_document_symbols {
        title: "Document symbols",
        kind: Read,
        input: io::symbols::DocumentSymbolsInput,
        output: io::symbols::DocumentSymbolsOutput,
        run: symbols::document_symbols,
        description: "Every declaration in one file (namespaces, types, members, enum members, local functions) as a flat list with ranges, the declared name's range and the enclosing declaration's name. Paged: pass nextCursor back as cursor.",
    }

    search_symbols {
        title: "Search symbols",
        kind: Read,
        input: io::symbols::SearchSymbolsInput,
        output: io::symbols::SearchSymbolsOutput,
        run: symbols::search_symbols,
        description: "Types and members declared in the solution whose name matches a query (prefix, substring or camel-case humps, case-insensitive), with their declarations. Paged: pass nextCursor back as cursor.",
    }

    analyze_code_block {
        title: "Analyze code block",
        kind: Read,
        input: io::analyze::AnalyzeCodeBlockInput,
        output: io::analyze::AnalyzeCodeBlockOutput,
        run: analyze::analyze_code_block,
        description: "Compile a C# snippet as if inserted at a 1-based line and column of a file, changing nothing: its diagnostics (positions relative to the snippet), the symbols it declares and the symbols it uses with their declarations.",
    }

    move_type_to_file {
        title: "Move type to file",
        kind: Write,
        input: io::moves::MoveTypeToFileInput,
        output: io::moves::MoveOutput,
        run: moves::move_type_to_file,
        description: "Move a C# type declaration (with its attributes and doc comments) to another file, created if needed. The target gets exactly the using directives the type needs; a source file left without types is deleted. Refused with a catalog code when the move would add compiler errors. preview: true returns per-file diffs and changes nothing.",
    }

    move_type_to_namespace {
        title: "Move type to namespace",
        kind: Write,
        input: io::moves::MoveTypeToNamespaceInput,
        output: io::moves::MoveOutput,
        run: moves::move_type_to_namespace,
        description: "Change the namespace of a C# type and update every reference: a using directive where it keeps the code compiling, a qualified name where a using would be ambiguous. updateFileLocation also moves the file to the namespace's folder. Refused with a catalog code when the move would add compiler errors. preview: true returns per-file diffs and changes nothing.",
    }

    rename_symbol {
        title: "Rename symbol",
        kind: Write,
        input: io::refactor::RenameSymbolInput,
        output: io::refactor::RenameOutput,
        run: refactor::rename_symbol,
        description: "Rename the symbol at a 1-based line and column (type, member, parameter, local, type parameter, namespace...) and every reference to it across the solution, as Roslyn's renamer does: implementations of an interface member and overrides along with it, overloads when asked, comments and strings when asked, and a type's file when it is named after the type. Refused before anything is written when the name is not an identifier, clashes, or would change what other code binds to (NAME_COLLISION with the places). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    change_signature {
        title: "Change signature",
        kind: Write,
        input: io::signature::ChangeSignatureInput,
        output: io::signature::ChangeSignatureOutput,
        run: signature::change_signature,
        description: "Change the parameter list of the method, constructor, indexer, delegate or local function at a 1-based line and column (its declaration or a call): reorder, remove (leave out), add (with a default, or an argument every call passes), rename or retype parameters, in one call. Roslyn's change signature engine updates every call (named and positional arguments, params, extension calls, this(...)/base(...), object creations), every override, implementation and interface member, the <param> tags and every target framework. Refused before anything is written when a removed parameter is still used (PARAMETER_IN_USE), a name clashes (NAME_COLLISION), a call would bind to another overload (BINDING_CHANGED), arguments with side effects would run in another order or not at all (EVALUATION_ORDER_CHANGED), or the result would not compile (COMPILATION_ERROR). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    safe_delete {
        title: "Safe delete",
        kind: Write,
        input: io::signature::SafeDeleteInput,
        output: io::signature::SafeDeleteOutput,
        run: signature::safe_delete,
        description: "Delete the type, member, parameter or local at a 1-based line and column, or (without line and column) every type of a file and the file, only when nothing references it in any target framework; otherwise refused with the references (STILL_REFERENCED; find_references pages through them all). A parameter goes with its argument at every call (refused when an argument has side effects); a local's initializer with side effects stays as a discard; a file left declaring nothing is deleted, and a project file loses only a Compile entry naming a deleted file. Overrides, interface implementations, entry points, members with attributes, a library's public API and names Razor or XAML files mention are kept (MAY_BE_USED_ELSEWHERE, with the reason) unless includePublic. preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    rename_file {
        title: "Rename file",
        kind: Write,
        input: io::refactor::RenameFileInput,
        output: io::refactor::RenameFileOutput,
        run: refactor::rename_file,
        description: "Give a C# file a new name in its folder. A file named after a top-level type it declares (Order.cs, or Order.Lines.cs for a part) renames the type with it when the new name is another identifier (Purchase.cs), as rename_symbol does, its other files included; any other file moves alone. A project file that lists the file gets the new name. Refused when the name is not a .cs file name of the folder or is taken (INVALID_TARGET_PATH). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    sync_namespaces {
        title: "Sync namespaces",
        kind: Write,
        input: io::refactor::SyncNamespacesInput,
        output: io::refactor::SyncNamespacesOutput,
        run: refactor::sync_namespaces,
        description: "Make every C# file of a project (or of every project), optionally only under a folder, declare the namespace its folder implies: the project's root namespace, then each folder below the project. Roslyn's change namespace service changes each file that differs and updates every consumer (using directives, qualified names); files already matching, or declaring no single top-level namespace, get no edit. Answers each file's namespace and new namespace. preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    move_files {
        title: "Move files",
        kind: Write,
        input: io::refactor::MoveFilesInput,
        output: io::refactor::MoveFilesOutput,
        run: refactor::move_files,
        description: "Move C# files, or a folder's (its subfolders kept; destination is then the folder's new path), to a folder of the same project or of another project of the solution. Each file's namespace becomes the one the destination folder implies (the project's root namespace, then the folders below it) unless keepNamespaces, with every consumer updated (using directives, qualified names) by Roslyn's change namespace service. Moving into another project adds the project references the moved code needs, and those its users need to reach it; refused when one would close a cycle (CIRCULAR_REFERENCE) or the code uses a library the destination lacks (REFERENCE_MISSING). A project file changes only where it lists files (Compile entries) or gets a reference; folders the move empties are removed. Refused when a file would land on another, outside every project's folder or in bin/obj (INVALID_TARGET_PATH), or the result adds compiler errors. preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    organize_usings {
        title: "Organize usings",
        kind: Write,
        input: io::refactor::OrganizeUsingsInput,
        output: io::refactor::OrganizeUsingsOutput,
        run: refactor::organize_usings,
        description: "Remove the using directives the compiler finds unnecessary (in every target framework) and sort the rest as .editorconfig says (System first, groups), in one file, one project or the whole solution. Global usings are kept. preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    get_code_actions {
        title: "Code actions",
        kind: Read,
        input: io::actions::GetCodeActionsInput,
        output: io::actions::CodeActionsOutput,
        run: actions::get_code_actions,
        description: "The refactorings Roslyn offers at a 1-based position or selection (extract method, extract interface, inline temporary, implement interface, generate constructor, convert between forms...) and the code fixes of the diagnostics there (add missing using, ...), as the IDE's light bulb lists them. Each has an id bound to the solution's current state (any edit makes it stale), a kind, the fixed diagnostic, the scopes of its fix-all, and the options it takes with their defaults. Apply one with apply_code_action.",
    }

    apply_code_action {
        title: "Apply code action",
        kind: Write,
        input: io::actions::ApplyCodeActionInput,
        output: io::actions::ApplyCodeActionOutput,
        run: actions::apply_code_action,
        description: "Apply a code action get_code_actions listed (by id), or with fixAll every occurrence of its diagnostic in the document, project or solution; options replace the dialog of an action listed with options (extract interface: name, file, members). Refused when the solution changed since the listing (CODE_ACTION_STALE), the id is unknown (CODE_ACTION_NOT_FOUND) or the result would not compile (COMPILATION_ERROR). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    format_document {
        title: "Format document",
        kind: Write,
        input: io::cleanup::FormatDocumentInput,
        output: io::cleanup::FormatDocumentOutput,
        run: cleanup::format_document,
        description: "Format one file (or a range of its lines), one project or the whole solution with Roslyn's formatter and the options the project's .editorconfig sets (indentation, braces, spacing). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    find_replace {
        title: "Find and replace",
        kind: Write,
        input: io::cleanup::FindReplaceInput,
        output: io::cleanup::FindReplaceOutput,
        run: cleanup::find_replace,
        description: "Replace literal text or a .NET regular expression ($1, ${name} in the replacement) across the solution's documents, optionally one project, files matching a glob, and the other text files under the solution's folder (README.md...), with every match listed. Refused when the result would not compile (COMPILATION_ERROR). preview: true returns the plan (planId, matches, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    remove_unused {
        title: "Remove unused code",
        kind: Write,
        input: io::cleanup::RemoveUnusedInput,
        output: io::cleanup::RemoveUnusedOutput,
        run: cleanup::remove_unused,
        description: "Remove what Roslyn's analyzers find unused in one file, one project or the solution: private members never referenced or never read (IDE0051, IDE0052), unused locals (CS0168, CS0219), unused parameters of private methods with their arguments (IDE0060), unnecessary usings (CS8019). Public API is kept unless includePublic. preview: true returns the plan (planId, what goes, diffs) and writes nothing; the answer's operationId undoes it.",
    }

    find_tests {
        title: "Find tests",
        kind: Read,
        input: io::testing::FindTestsInput,
        output: io::testing::FindTestsOutput,
        run: testing::find_tests,
        description: "The tests a change reaches, each with the chain of symbols that reaches it: give a symbol (filePath, line, column), changedSince (a git revision: what differs on disk from it), operationId (what a write changed) or planId (what a preview would change). Follows references and calls in every target framework, through interfaces, overrides, constructors and set-up methods, up to xunit, NUnit, MSTest and TUnit tests; static (reflection and DI are invisible to it). Counts what each test project leaves unselected. Paged: pass nextCursor back as cursor.",
    }

    run_tests {
        title: "Run tests",
        kind: Run,
        input: io::testing::RunTestsInput,
        output: io::testing::RunTestsOutput,
        run: testing::run_tests,
        description: "Builds and runs tests with the project's own runner (VSTest: xunit, NUnit, MSTest; Microsoft.Testing.Platform: TUnit) and answers each case's outcome (passed, failed, skipped, not run, crashed), time, message and stack trace with the solution's frames placed. Give tests (ids find_tests returned), a change as find_tests takes it (filePath/line/column, changedSince, operationId, planId: the tests it reaches), a filter in the runner's syntax, or a project alone. Builds in the service's own copy of the repository, never the project's bin/obj. Progress notifications count finished tests; at timeoutSeconds (default 300) the run stops and the answer holds the results so far. Runs the repository's code as the service's user.",
    }

    apply_plan {
        title: "Apply plan",
        kind: Write,
        input: io::plans::ApplyPlanInput,
        output: io::refactor::AppliedPlan,
        run: writes::apply_plan::apply_plan,
        description: "Write exactly the plan a preview returned (by planId), not a recomputation: every file must still hold the text the plan was computed from, else STALE_PLAN naming the files and nothing is written. Plans expire 15 minutes after their preview (PLAN_NOT_FOUND). Answers what the tool would have answered applying directly, with the operationId that undoes it.",
    }

    undo {
        title: "Undo",
        kind: Write,
        input: io::plans::OperationInput,
        output: io::plans::OperationOutput,
        run: writes::history::undo,
        description: "Undo an applied write (by operationId): every file it touched gets back its bytes and mode from before, atomically, if and only if each still holds what the write left there; else STALE_PLAN naming the files that moved on, and nothing changes.",
    }

    redo {
        title: "Redo",
        kind: Write,
        input: io::plans::OperationInput,
        output: io::plans::OperationOutput,
        run: writes::history::redo,
        description: "Apply an undone write again (by operationId), on the same condition as undo: every file must still hold what the undo left there.",
    }

    list_operations {
        title: "List operations",
        kind: Read,
        input: io::plans::ListOperationsInput,
        output: io::plans::ListOperationsOutput,
        run: writes::history::list_operations,
        description: "The writes applied to a solution that the service keeps for undo (across restarts, bounded), newest first: tool, summary, time, files, state, and whether each can be undone or redone now.",
    }

    get_job {
        title: "Get job",
        kind: Job,
        input: io::jobs::GetJobInput,
        output: io::jobs::GetJobOutput,
        run: jobs::get_job,
        description: "The answer of a call that answered status running with a jobId (a test run, a write verified by tests, a load, any call past the service's answer bound): once its work is done, exactly what the call would have answered, with _meta timing of the whole work; while it works, status running with its progress so far (waits for the end up to waitSeconds first, by default the answer bound, under a client's 60 s). cancel: true stops it (test processes killed, a write rolled back). Any session of the same user may ask; answers are kept 10 minutes after the end.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the catalog declares, as clients will see it.
    struct Listed(Vec<(Tool, Kind)>);

    impl Register for Listed {
        fn tool<I, O, F, Fut>(&mut self, tool: Tool, kind: Kind, _: F) {
            self.0.push((tool, kind));
        }
    }

    #[test]
    fn every_tool_is_declared_once_and_listed_as_diagnose_lists_it() {
        let mut listed = Listed(Vec::new());
        declare(&mut listed);
        let names: Vec<&str> = listed.0.iter().map(|(tool, _)| tool.name.as_ref()).collect();
        assert_eq!(names, NAMES);
        // rmcp's router keys routes by name: a second declaration would silently replace the first.
        let mut distinct = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len(), "a tool is declared twice");
        for (tool, kind) in &listed.0 {
            let annotations = tool.annotations.as_ref().expect("annotations");
            assert_eq!(annotations.read_only_hint, Some(matches!(kind, Kind::Read | Kind::Health)), "{}", tool.name);
            assert!(tool.output_schema.is_some(), "{}", tool.name);
        }
        let health: Vec<&str> =
            listed.0.iter().filter(|(_, kind)| *kind == Kind::Health).map(|(tool, _)| tool.name.as_ref()).collect();
        assert_eq!(health, ["diagnose"]);
    }

    /// The README's tool table, between its `tools:begin` and `tools:end` markers: each tool's description as
    /// `tools/list` gives it. `ROSLYN_MCP_BLESS=1` writes it.
    #[test]
    fn the_readme_s_tool_table_is_the_catalog() {
        let mut listed = Listed(Vec::new());
        declare(&mut listed);
        let mut table = format!(
            "There are {} tools; each one's description is the one `tools/list` gives:\n\n| tool | what it does |\n| --- | --- |\n",
            listed.0.len()
        );
        for (tool, _) in &listed.0 {
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
