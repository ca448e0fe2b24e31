//! The MCP face of the service: one [`RoslynMcp`] per session, routing to the tools `tools::catalog` declares.
//! Arguments arrive as raw JSON so that bad input becomes a catalog error rather than a JSON-RPC fault.

use crate::args;
use crate::envelope;
use crate::in_flight::ClientCancel;
use crate::progress::Progress;
use crate::roots;
use crate::services::Services;
use crate::session::Session;
use crate::telemetry;
use crate::tools::Call;
use crate::tools::catalog::{self, Kind, Register};
use protocol::ToolError;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolResponse, CallToolResult, Implementation, InitializeRequestParams, InitializeResult, JsonObject,
    ServerCapabilities, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;
use tracing::Instrument;

/// The outcome recorded for a call the client cancelled (not a catalog code: the client gets no answer).
const CANCELLED: &str = "CANCELLED";

/// The header naming a request's MCP session over HTTP (before 2026-07-28, which has no sessions).
pub const SESSION_HEADER: &str = "mcp-session-id";

#[derive(Clone)]
pub struct RoslynMcp {
    services: Arc<Services>,
    session: Arc<Session>,
}

impl RoslynMcp {
    pub fn new(services: Arc<Services>, session: Session) -> Self {
        Self { services, session: Arc::new(session) }
    }

    /// Parses, runs, logs and wraps one tool call, in its span.
    async fn call<I, O, F, Fut>(
        &self,
        tool: &str,
        kind: Kind,
        raw: JsonObject,
        context: RequestContext<RoleServer>,
        run: F,
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
        // Over HTTP without a session `initialize` opened (a 2026-07-28 client, whatever Mcp-Session-Id it sends):
        // nothing of an earlier call counts.
        let stateless = context.extensions.get::<axum::http::request::Parts>().is_some() && !self.session.initialized();
        let outcome = async {
            // Health must answer even while the client's roots are unknown; no path passes then.
            let scope = match kind {
                Kind::Health => Ok(self.session.scope_or_sealed().await),
                _ => self.session.scope().await,
            };
            let outcome = match (scope, args::parse::<I>(raw)) {
                (Ok(scope), Ok(input)) => {
                    let call = Call {
                        tool: tool.to_owned(),
                        services: self.services.clone(),
                        session: self.session.clone(),
                        scope,
                        cancel,
                        progress: Progress::new(context.peer, context.meta.get_progress_token()),
                        host_micros: host_micros.clone(),
                        stateless,
                    };
                    run(call, input).await
                }
                (Err(error), _) | (_, Err(error)) => Err(error),
            };
            envelope::success(outcome, kind.capped().then_some(&self.services.limits))
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

/// The catalog's tools as rmcp routes: each parses its arguments and runs through [`RoslynMcp::call`].
struct Routes(ToolRouter<RoslynMcp>);

impl Register for Routes {
    fn tool<I, O, F, Fut>(&mut self, tool: Tool, kind: Kind, run: F)
    where
        I: DeserializeOwned + Send + 'static,
        O: Serialize + Send + 'static,
        F: Fn(Call, I) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
    {
        self.0.add_route(ToolRoute::new_dyn(tool, move |context: ToolCallContext<'_, RoslynMcp>| {
            let server = context.service.clone();
            let name = context.name;
            let raw = context.arguments.unwrap_or_default();
            let run = run.clone();
            Box::pin(async move {
                Ok(CallToolResponse::Complete(server.call(&name, kind, raw, context.request_context, run).await))
            })
        }));
    }
}

/// The tools, their schemas and handlers, built once: rmcp's default builds them again for every call and
/// every `tools/list` (schemars runs for every input and output schema), which cost about 3 ms of CPU on
/// each call, diagnose's included.
static TOOLS: LazyLock<ToolRouter<RoslynMcp>> = LazyLock::new(|| {
    let mut routes = Routes(ToolRouter::new());
    catalog::declare(&mut routes);
    routes.0
});

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
        self.session.mark_initialized();
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
