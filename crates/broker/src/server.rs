//! The MCP face of the service: one [`RoslynMcp`] per session, its tools declared with rmcp's macros.
//! Arguments arrive as raw JSON so that bad input becomes a catalog error rather than a JSON-RPC fault.

use crate::args;
use crate::envelope;
use crate::in_flight::ClientCancel;
use crate::limits::Limits;
use crate::progress::Progress;
use crate::roots;
use crate::services::Services;
use crate::session::Session;
use crate::telemetry;
use crate::tools::{self, Call};
use protocol::ToolError;
use protocol::tools::{
    PositionInput, actions, analyze, cleanup, diagnose, diagnostics, hierarchy, input_schema, members, moves,
    navigation, output_schema, plans, refactor, symbols, testing, workspace,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, Implementation, InitializeRequestParams, InitializeResult, JsonObject, ServerCapabilities,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;
use tracing::Instrument;

/// The outcome recorded for a call the client cancelled (not a catalog code: the client gets no answer).
const CANCELLED: &str = "CANCELLED";

#[derive(Clone)]
pub struct RoslynMcp {
    services: Arc<Services>,
    session: Arc<Session>,
}

impl RoslynMcp {
    pub fn new(services: Arc<Services>, session: Session) -> Self {
        Self { services, session: Arc::new(session) }
    }

    /// Runs a read tool: its answer must fit the response cap.
    async fn run<I, O, F, Fut>(
        &self,
        tool: &'static str,
        raw: JsonObject,
        context: RequestContext<RoleServer>,
        f: F,
    ) -> CallToolResult
    where
        I: DeserializeOwned,
        O: Serialize,
        F: FnOnce(Call, I) -> Fut,
        Fut: Future<Output = Result<O, ToolError>>,
    {
        let limits = self.services.limits;
        self.call(tool, raw, context, Some(&limits), f).await
    }

    /// Runs a tool exempt from the response cap: diagnose (health must always answer) and the writing tools
    /// (a preview's diffs are as long as the files they show).
    async fn run_uncapped<I, O, F, Fut>(
        &self,
        tool: &'static str,
        raw: JsonObject,
        context: RequestContext<RoleServer>,
        f: F,
    ) -> CallToolResult
    where
        I: DeserializeOwned,
        O: Serialize,
        F: FnOnce(Call, I) -> Fut,
        Fut: Future<Output = Result<O, ToolError>>,
    {
        self.call(tool, raw, context, None, f).await
    }

    /// Parses, runs, logs and wraps one tool call, in its span.
    async fn call<I, O, F, Fut>(
        &self,
        tool: &'static str,
        raw: JsonObject,
        context: RequestContext<RoleServer>,
        limits: Option<&Limits>,
        f: F,
    ) -> CallToolResult
    where
        I: DeserializeOwned,
        O: Serialize,
        F: FnOnce(Call, I) -> Fut,
        Fut: Future<Output = Result<O, ToolError>>,
    {
        let span = telemetry::tool_span(tool, &self.session.id);
        let began = Instant::now();
        let host_micros = Arc::new(AtomicU64::new(0));
        let cancel = ClientCancel::token(&context.ct, &context.extensions);
        let cancelled = cancel.clone();
        let outcome = async {
            // Health must answer even while the client's roots are unknown; no path passes then.
            let scope = match tool {
                "diagnose" => Ok(self.session.scope_or_sealed().await),
                _ => self.session.scope().await,
            };
            let outcome = match (scope, args::parse::<I>(raw)) {
                (Ok(scope), Ok(input)) => {
                    let call = Call {
                        services: self.services.clone(),
                        session: self.session.clone(),
                        scope,
                        cancel,
                        progress: Progress::new(context.peer, context.meta.get_progress_token()),
                        host_micros: host_micros.clone(),
                    };
                    f(call, input).await
                }
                (Err(error), _) | (_, Err(error)) => Err(error),
            };
            envelope::success(outcome, limits)
        }
        .instrument(span.clone())
        .await;
        let elapsed = began.elapsed();
        // A call the client cancelled gets no answer; it is counted apart from the failures it would show.
        let code = match &outcome {
            Err(_) if cancelled.is_cancelled() => Some(CANCELLED),
            Err(error) => Some(error.code.name()),
            Ok(_) => None,
        };
        self.record(&span, tool, code, elapsed);
        let host_ms = host_micros.load(Ordering::Relaxed) as f64 / 1000.0;
        let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
        outcome.unwrap_or_else(envelope::failure).with_meta(Some(envelope::timing(elapsed_ms, host_ms)))
    }

    /// A finished call: its span's outcome, the log line, the metrics.
    fn record(&self, span: &tracing::Span, tool: &str, code: Option<&str>, elapsed: std::time::Duration) {
        self.services.telemetry.record_call(tool, code, elapsed);
        let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
        let _entered = span.enter();
        span.record("duration_ms", elapsed_ms);
        span.record("outcome", if code.is_some() { "error" } else { "ok" });
        match code {
            None => tracing::info!(tool, elapsed_ms, outcome = "ok", "tools/call"),
            Some(code) => {
                span.record("error.type", code);
                tracing::info!(tool, elapsed_ms, outcome = "error", code, "tools/call");
            }
        }
    }
}

#[tool_router]
impl RoslynMcp {
    #[tool(
        description = "Health of the service: .NET SDK, MSBuild and Roslyn versions, and the state of every loaded solution (projects, documents, host restarts, errors). Never waits on a busy workspace.",
        input_schema = Arc::new(input_schema::<diagnose::DiagnoseInput>()),
        output_schema = Arc::new(output_schema::<diagnose::DiagnoseOutput>()),
        annotations(title = "Diagnose", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn diagnose(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("diagnose", raw, context, |call, input| async move {
            tools::diagnose::diagnose(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Find the solutions under a folder, load the primary one and make it this session's default: relative paths and calls without solutionPath use it. Call once at the start of a session.",
        input_schema = Arc::new(input_schema::<workspace::InitializeWorkspaceInput>()),
        output_schema = Arc::new(output_schema::<workspace::InitializeWorkspaceOutput>()),
        annotations(title = "Initialize workspace", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn initialize_workspace(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("initialize_workspace", raw, context, |call, input| async move {
            tools::initialize::initialize_workspace(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The type at a 1-based line and column: of the expression, variable, member or type name there, with its full name, kind, assembly, generic arguments, base type, interfaces, documentation and declarations.",
        input_schema = Arc::new(input_schema::<PositionInput>()),
        output_schema = Arc::new(output_schema::<navigation::TypeAtPositionOutput>()),
        annotations(title = "Type at position", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_type_at_position(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_type_at_position", raw, context, |call, input| async move {
            tools::navigation::type_at_position(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Where the symbol at a 1-based line and column is declared: every declaration (partial types have several) with its source line. Symbols from referenced assemblies are reported with their assembly and no location.",
        input_schema = Arc::new(input_schema::<PositionInput>()),
        output_schema = Arc::new(output_schema::<navigation::SymbolDefinitionOutput>()),
        annotations(title = "Find definition", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn find_symbol_definition(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("find_symbol_definition", raw, context, |call, input| async move {
            tools::navigation::symbol_definition(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Every use of the symbol at a 1-based line and column across the solution, compiler-accurate (not text search), sorted by file and position, each with its line text and kind (Invocation, ObjectCreation, Read, Write, TypeReference...). Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<navigation::FindReferencesInput>()),
        output_schema = Arc::new(output_schema::<navigation::FindReferencesOutput>()),
        annotations(title = "Find references", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn find_references(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("find_references", raw, context, |call, input| async move {
            tools::navigation::find_references(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Compiler diagnostics (errors, warnings...) of one file, one project or the whole solution, grouped by file and sorted by position, with stable ids and counts; with includeAnalyzers also the analyzers' (the project's analyzer references such as the SDK's CA rules or StyleCop, and Roslyn's IDE rules) at the severities .editorconfig gives them, each with its source. minSeverity filters. Paged by files: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<diagnostics::CompilationDiagnosticsInput>()),
        output_schema = Arc::new(output_schema::<diagnostics::CompilationDiagnosticsOutput>()),
        annotations(title = "Compilation diagnostics", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_compilation_diagnostics(
        &self,
        raw: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.run("get_compilation_diagnostics", raw, context, |call, input| async move {
            tools::diagnostics::compilation_diagnostics(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The declaration of the type of the symbol at a 1-based line and column (of a variable, parameter, property, expression or type name): every declaration of that type, or its assembly when it comes from a referenced one.",
        input_schema = Arc::new(input_schema::<PositionInput>()),
        output_schema = Arc::new(output_schema::<navigation::TypeDefinitionOutput>()),
        annotations(title = "Find type definition", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn find_type_definition(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("find_type_definition", raw, context, |call, input| async move {
            tools::navigation::type_definition(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The members accessible at a 1-based line and column on the type of the expression, variable or type name there (as completion after a dot would offer), with signatures, parameters and documentation; extension methods and static members optional; filter by name prefix. Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<members::AvailableMembersInput>()),
        output_schema = Arc::new(output_schema::<members::AvailableMembersOutput>()),
        annotations(title = "Available members", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_available_members(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_available_members", raw, context, |call, input| async move {
            tools::members::available_members(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Every overload of the method at a 1-based line and column (its type's and base types' methods of that name; a constructor's siblings), with signatures, parameters and documentation.",
        input_schema = Arc::new(input_schema::<PositionInput>()),
        output_schema = Arc::new(output_schema::<members::MethodOverloadsOutput>()),
        annotations(title = "Method overloads", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_method_overloads(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_method_overloads", raw, context, |call, input| async move {
            tools::members::method_overloads(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Types implementing an interface or deriving from a class (by fully qualified typeName, or at a position), or members implementing or overriding the member at a position; each says whether it does so directly. Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<hierarchy::ImplementationsInput>()),
        output_schema = Arc::new(output_schema::<hierarchy::ImplementationsOutput>()),
        annotations(title = "Find implementations", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn find_implementations(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("find_implementations", raw, context, |call, input| async move {
            tools::hierarchy::find_implementations(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The inheritance of a type (by fully qualified typeName, or at a position): its base types up to System.Object, the types deriving from it in the solution, and its interfaces. direction: Base, Derived or Both.",
        input_schema = Arc::new(input_schema::<hierarchy::TypeHierarchyInput>()),
        output_schema = Arc::new(output_schema::<hierarchy::TypeHierarchyOutput>()),
        annotations(title = "Type hierarchy", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_type_hierarchy(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_type_hierarchy", raw, context, |call, input| async move {
            tools::hierarchy::type_hierarchy(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Calls into and out of the method, constructor or property at a 1-based line and column: the members calling it and the ones it calls, each with every call site. direction: Incoming, Outgoing or Both. Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<hierarchy::CallHierarchyInput>()),
        output_schema = Arc::new(output_schema::<hierarchy::CallHierarchyOutput>()),
        annotations(title = "Call hierarchy", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_call_hierarchy(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_call_hierarchy", raw, context, |call, input| async move {
            tools::calls::call_hierarchy(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Every declaration in one file (namespaces, types, members, enum members, local functions) as a flat list with ranges, the declared name's range and the enclosing declaration's name. Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<symbols::DocumentSymbolsInput>()),
        output_schema = Arc::new(output_schema::<symbols::DocumentSymbolsOutput>()),
        annotations(title = "Document symbols", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_document_symbols(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_document_symbols", raw, context, |call, input| async move {
            tools::symbols::document_symbols(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Types and members declared in the solution whose name matches a query (prefix, substring or camel-case humps, case-insensitive), with their declarations. Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<symbols::SearchSymbolsInput>()),
        output_schema = Arc::new(output_schema::<symbols::SearchSymbolsOutput>()),
        annotations(title = "Search symbols", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn search_symbols(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("search_symbols", raw, context, |call, input| async move {
            tools::symbols::search_symbols(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Compile a C# snippet as if inserted at a 1-based line and column of a file, changing nothing: its diagnostics (positions relative to the snippet), the symbols it declares and the symbols it uses with their declarations.",
        input_schema = Arc::new(input_schema::<analyze::AnalyzeCodeBlockInput>()),
        output_schema = Arc::new(output_schema::<analyze::AnalyzeCodeBlockOutput>()),
        annotations(title = "Analyze code block", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn analyze_code_block(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("analyze_code_block", raw, context, |call, input| async move {
            tools::analyze::analyze_code_block(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Move a C# type declaration (with its attributes and doc comments) to another file, created if needed. The target gets exactly the using directives the type needs; a source file left without types is deleted. Refused with a catalog code when the move would add compiler errors. preview: true returns per-file diffs and changes nothing.",
        input_schema = Arc::new(input_schema::<moves::MoveTypeToFileInput>()),
        output_schema = Arc::new(output_schema::<moves::MoveOutput>()),
        annotations(title = "Move type to file", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn move_type_to_file(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("move_type_to_file", raw, context, |call, input| async move {
            tools::moves::move_type_to_file(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Change the namespace of a C# type and update every reference: a using directive where it keeps the code compiling, a qualified name where a using would be ambiguous. updateFileLocation also moves the file to the namespace's folder. Refused with a catalog code when the move would add compiler errors. preview: true returns per-file diffs and changes nothing.",
        input_schema = Arc::new(input_schema::<moves::MoveTypeToNamespaceInput>()),
        output_schema = Arc::new(output_schema::<moves::MoveOutput>()),
        annotations(title = "Move type to namespace", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn move_type_to_namespace(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("move_type_to_namespace", raw, context, |call, input| async move {
            tools::moves::move_type_to_namespace(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Rename the symbol at a 1-based line and column (type, member, parameter, local, type parameter, namespace...) and every reference to it across the solution, as Roslyn's renamer does: implementations of an interface member and overrides along with it, overloads when asked, comments and strings when asked, and a type's file when it is named after the type. Refused before anything is written when the name is not an identifier, clashes, or would change what other code binds to (NAME_COLLISION with the places). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
        input_schema = Arc::new(input_schema::<refactor::RenameSymbolInput>()),
        output_schema = Arc::new(output_schema::<refactor::RenameOutput>()),
        annotations(title = "Rename symbol", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn rename_symbol(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("rename_symbol", raw, context, |call, input| async move {
            tools::refactor::rename_symbol(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Remove the using directives the compiler finds unnecessary (in every target framework) and sort the rest as .editorconfig says (System first, groups), in one file, one project or the whole solution. Global usings are kept. preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
        input_schema = Arc::new(input_schema::<refactor::OrganizeUsingsInput>()),
        output_schema = Arc::new(output_schema::<refactor::OrganizeUsingsOutput>()),
        annotations(title = "Organize usings", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn organize_usings(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("organize_usings", raw, context, |call, input| async move {
            tools::refactor::organize_usings(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The refactorings Roslyn offers at a 1-based position or selection (extract method, extract interface, inline temporary, implement interface, generate constructor, convert between forms...) and the code fixes of the diagnostics there (add missing using, ...), as the IDE's light bulb lists them. Each has an id bound to the solution's current state (any edit makes it stale), a kind, the fixed diagnostic, the scopes of its fix-all, and the options it takes with their defaults. Apply one with apply_code_action.",
        input_schema = Arc::new(input_schema::<actions::GetCodeActionsInput>()),
        output_schema = Arc::new(output_schema::<actions::CodeActionsOutput>()),
        annotations(title = "Code actions", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get_code_actions(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("get_code_actions", raw, context, |call, input| async move {
            tools::actions::get_code_actions(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Apply a code action get_code_actions listed (by id), or with fixAll every occurrence of its diagnostic in the document, project or solution; options replace the dialog of an action listed with options (extract interface: name, file, members). Refused when the solution changed since the listing (CODE_ACTION_STALE), the id is unknown (CODE_ACTION_NOT_FOUND) or the result would not compile (COMPILATION_ERROR). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
        input_schema = Arc::new(input_schema::<actions::ApplyCodeActionInput>()),
        output_schema = Arc::new(output_schema::<actions::ApplyCodeActionOutput>()),
        annotations(title = "Apply code action", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn apply_code_action(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("apply_code_action", raw, context, |call, input| async move {
            tools::actions::apply_code_action(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Format one file (or a range of its lines), one project or the whole solution with Roslyn's formatter and the options the project's .editorconfig sets (indentation, braces, spacing). preview: true returns the plan (planId, diffs) and writes nothing; the answer's operationId undoes it.",
        input_schema = Arc::new(input_schema::<cleanup::FormatDocumentInput>()),
        output_schema = Arc::new(output_schema::<cleanup::FormatDocumentOutput>()),
        annotations(title = "Format document", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn format_document(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("format_document", raw, context, |call, input| async move {
            tools::cleanup::format_document(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Replace literal text or a .NET regular expression ($1, ${name} in the replacement) across the solution's documents, optionally one project, files matching a glob, and the other text files under the solution's folder (README.md...), with every match listed. Refused when the result would not compile (COMPILATION_ERROR). preview: true returns the plan (planId, matches, diffs) and writes nothing; the answer's operationId undoes it.",
        input_schema = Arc::new(input_schema::<cleanup::FindReplaceInput>()),
        output_schema = Arc::new(output_schema::<cleanup::FindReplaceOutput>()),
        annotations(title = "Find and replace", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn find_replace(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("find_replace", raw, context, |call, input| async move {
            tools::cleanup::find_replace(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Remove what Roslyn's analyzers find unused in one file, one project or the solution: private members never referenced or never read (IDE0051, IDE0052), unused locals (CS0168, CS0219), unused parameters of private methods with their arguments (IDE0060), unnecessary usings (CS8019). Public API is kept unless includePublic. preview: true returns the plan (planId, what goes, diffs) and writes nothing; the answer's operationId undoes it.",
        input_schema = Arc::new(input_schema::<cleanup::RemoveUnusedInput>()),
        output_schema = Arc::new(output_schema::<cleanup::RemoveUnusedOutput>()),
        annotations(title = "Remove unused code", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn remove_unused(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("remove_unused", raw, context, |call, input| async move {
            tools::cleanup::remove_unused(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Write exactly the plan a preview returned (by planId), not a recomputation: every file must still hold the text the plan was computed from, else STALE_PLAN naming the files and nothing is written. Plans expire 15 minutes after their preview (PLAN_NOT_FOUND). Answers what the tool would have answered applying directly, with the operationId that undoes it.",
        input_schema = Arc::new(input_schema::<plans::ApplyPlanInput>()),
        output_schema = Arc::new(output_schema::<refactor::AppliedPlan>()),
        annotations(title = "Apply plan", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn apply_plan(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("apply_plan", raw, context, |call, input| async move {
            tools::writes::apply_plan::apply_plan(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Undo an applied write (by operationId): every file it touched gets back its bytes and mode from before, atomically, if and only if each still holds what the write left there; else STALE_PLAN naming the files that moved on, and nothing changes.",
        input_schema = Arc::new(input_schema::<plans::OperationInput>()),
        output_schema = Arc::new(output_schema::<plans::OperationOutput>()),
        annotations(title = "Undo", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn undo(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("undo", raw, context, |call, input| async move {
            tools::writes::history::undo(&call, input).await
        })
        .await
    }

    #[tool(
        description = "Apply an undone write again (by operationId), on the same condition as undo: every file must still hold what the undo left there.",
        input_schema = Arc::new(input_schema::<plans::OperationInput>()),
        output_schema = Arc::new(output_schema::<plans::OperationOutput>()),
        annotations(title = "Redo", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn redo(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("redo", raw, context, |call, input| async move {
            tools::writes::history::redo(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The tests a change reaches, each with the chain of symbols that reaches it: give a symbol (filePath, line, column), changedSince (a git revision: what differs on disk from it), operationId (what a write changed) or planId (what a preview would change). Follows references and calls in every target framework, through interfaces, overrides, constructors and set-up methods, up to xunit, NUnit, MSTest and TUnit tests; static (reflection and DI are invisible to it). Counts what each test project leaves unselected. Paged: pass nextCursor back as cursor.",
        input_schema = Arc::new(input_schema::<testing::FindTestsInput>()),
        output_schema = Arc::new(output_schema::<testing::FindTestsOutput>()),
        annotations(title = "Find tests", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn find_tests(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run(
            "find_tests",
            raw,
            context,
            |call, input| async move { tools::testing::find_tests(&call, input).await },
        )
        .await
    }

    #[tool(
        description = "Builds and runs tests with the project's own runner (VSTest: xunit, NUnit, MSTest; Microsoft.Testing.Platform: TUnit) and answers each case's outcome (passed, failed, skipped, not run, crashed), time, message and stack trace with the solution's frames placed. Give tests (ids find_tests returned), a change as find_tests takes it (filePath/line/column, changedSince, operationId, planId: the tests it reaches), a filter in the runner's syntax, or a project alone. Builds in the service's own copy of the repository, never the project's bin/obj. Progress notifications count finished tests; at timeoutSeconds (default 300) the run stops and the answer holds the results so far. Runs the repository's code as the service's user.",
        input_schema = Arc::new(input_schema::<testing::RunTestsInput>()),
        output_schema = Arc::new(output_schema::<testing::RunTestsOutput>()),
        annotations(title = "Run tests", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = true)
    )]
    async fn run_tests(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run_uncapped("run_tests", raw, context, |call, input| async move {
            tools::testing::run_tests(&call, input).await
        })
        .await
    }

    #[tool(
        description = "The writes applied to a solution that the service keeps for undo (across restarts, bounded), newest first: tool, summary, time, files, state, and whether each can be undone or redone now.",
        input_schema = Arc::new(input_schema::<plans::ListOperationsInput>()),
        output_schema = Arc::new(output_schema::<plans::ListOperationsOutput>()),
        annotations(title = "List operations", read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn list_operations(&self, raw: JsonObject, context: RequestContext<RoleServer>) -> CallToolResult {
        self.run("list_operations", raw, context, |call, input| async move {
            tools::writes::history::list_operations(&call, input).await
        })
        .await
    }
}

/// The tools, their schemas and handlers, built once: rmcp's default builds them again for every call and
/// every `tools/list` (schemars runs for all 23 input and output schemas), which cost about 3 ms of CPU on
/// each call, diagnose's included.
static TOOLS: LazyLock<ToolRouter<RoslynMcp>> = LazyLock::new(RoslynMcp::tool_router);

#[tool_handler(router = TOOLS)]
impl ServerHandler for RoslynMcp {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("roslyn-mcp", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Compiler-accurate C# navigation and refactoring (moves, rename, organize usings; preview, apply, undo) over Roslyn. Start with initialize_workspace on the folder of \
                 the solution; positions are 1-based line and column; paths out are absolute. Failures carry a \
                 catalog code in structuredContent.error.code.",
            )
    }

    /// A client offering roots has its calls wait for them from here on, before any call can arrive.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        roots::offered(&self.session, &request);
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        roots::refresh(self.session.clone(), context.peer);
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        roots::refresh(self.session.clone(), context.peer);
    }
}
