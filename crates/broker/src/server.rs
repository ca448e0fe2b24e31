//! The MCP face of the service: one [`RoslynMcp`] per session, routing to the tools `tools::catalog` declares.
//! Arguments arrive as raw JSON so that bad input becomes a catalog error rather than a JSON-RPC fault.

use crate::args;
use crate::envelope;
use crate::in_flight::ClientCancel;
use crate::jobs::{self, Caller, Job, Owner};
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
    CallToolResponse, CallToolResult, CancelTaskParams, GetTaskParams, GetTaskResult, Implementation,
    InitializeRequestParams, InitializeResult, JsonObject, ServerCapabilities, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};
use std::time::Instant;
use tokio_util::sync::CancellationToken;
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

    /// One tool call. A call that may take long runs as a job: when its work has not ended after the answer
    /// bound, the call answers in time with the job (a task for a request that declares the Tasks extension)
    /// and the work goes on. Until then the client's cancellation (or the session's end) stops it.
    async fn call<I, O, F, Fut>(
        &self,
        tool: &str,
        kind: Kind,
        raw: JsonObject,
        context: RequestContext<RoleServer>,
        run: F,
    ) -> CallToolResponse
    where
        I: DeserializeOwned + Send + 'static,
        O: Serialize + Send + 'static,
        F: FnOnce(Call, I) -> Fut + Send + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
    {
        let began = Instant::now();
        let requested = ClientCancel::token(&context.ct, &context.extensions);
        let owner = self.owner(&context);
        // Declared in the request itself (2026-07-28). A session that declared it at `initialize` gets a job:
        // such clients (the MCP Inspector 2.12 CLI) send a plain tools/call and cannot read a task.
        let tasks = context.meta.client_capabilities().is_some_and(|c| c.supports_tasks());
        let invocation = Invocation { tool: tool.to_owned(), kind, raw, context, owner: owner.clone(), began };
        if !kind.may_take_long() {
            let (outcome, total_ms, host_ms) = self.run(invocation, requested, None, run).await;
            return CallToolResponse::Complete(envelope::timed(
                outcome.unwrap_or_else(envelope::failure),
                total_ms,
                host_ms,
            ));
        }
        let jobs = &self.services.jobs;
        let job = match jobs.open(owner, &self.session.id, tool) {
            Ok(job) => job,
            Err(error) => return CallToolResponse::Complete(envelope::failure(error)),
        };
        let (server, work, cancel) = (self.clone(), job.clone(), job.cancel.clone());
        tokio::spawn(async move {
            let (outcome, total_ms, host_ms) = server.run(invocation, cancel, Some(work.clone()), run).await;
            work.finish(outcome, total_ms, host_ms);
        });
        // A call dropped before it answered (its session went away) stops its work, as a cancelled one does.
        let unanswered = job.cancel.clone().drop_guard();
        let response = tokio::select! {
            finished = job.ended() => CallToolResponse::Complete(finished.result()),
            response = self.answer_with_job(&job, tool, began, tasks) => response,
            () = requested.cancelled() => {
                job.cancel.cancel();
                CallToolResponse::Complete(job.ended().await.result())
            }
        };
        unanswered.disarm();
        response
    }

    /// The call's answer once the bound passed with its work still going: the work goes on as `job`. A call
    /// waiting for its solution to load answers sooner, after the read time limit, with LOADING.
    async fn answer_with_job(&self, job: &Arc<Job>, tool: &str, began: Instant, tasks: bool) -> CallToolResponse {
        let jobs = &self.services.jobs;
        tokio::time::sleep_until((began + jobs.answer_within.min(jobs.load_wait)).into()).await;
        if job.loading().is_none() {
            tokio::time::sleep_until((began + jobs.answer_within).into()).await;
        }
        let timing = Some(envelope::timing(began.elapsed().as_secs_f64() * 1000.0, 0.0));
        if let Err(refusal) = jobs.keep(job) {
            job.cancel.cancel();
            tracing::info!(tool, job = %job.id, "too many jobs working: its work stopped");
            return CallToolResponse::Complete(envelope::failure(refusal).with_meta(timing));
        }
        tracing::info!(tool, job = %job.id, task = tasks, "answered with its job; the work goes on");
        match job.loading() {
            // A task is how such a client waits, for a load too.
            _ if tasks => CallToolResponse::Task(jobs::task_created(job)),
            Some(solution) => {
                CallToolResponse::Complete(envelope::failure(jobs::loading(job, &solution)).with_meta(timing))
            }
            // The work's time in the host is not known until it ends.
            None => CallToolResponse::Complete(envelope::working(&jobs::running(job)).with_meta(timing)),
        }
    }

    /// Parses, runs, logs and wraps one tool call, in its span: its outcome and timing. `cancel` stops it;
    /// `job` is the job it runs as.
    async fn run<I, O, F, Fut>(
        &self,
        invocation: Invocation,
        cancel: CancellationToken,
        job: Option<Arc<Job>>,
        run: F,
    ) -> (Result<CallToolResult, ToolError>, f64, f64)
    where
        I: DeserializeOwned,
        O: Serialize,
        F: FnOnce(Call, I) -> Fut,
        Fut: Future<Output = Result<O, ToolError>>,
    {
        let Invocation { tool, kind, raw, context, owner, began } = invocation;
        let tool = tool.as_str();
        let span = telemetry::tool_span(tool, &self.session.id);
        let host_micros = Arc::new(AtomicU64::new(0));
        let answered_for = Arc::new(OnceLock::new());
        let notices = Arc::new(std::sync::Mutex::new(std::collections::BTreeSet::new()));
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
                        progress: Progress::new(context.peer, context.meta.get_progress_token(), job),
                        host_micros: host_micros.clone(),
                        stateless,
                        owner,
                        answered_for: answered_for.clone(),
                        notices: notices.clone(),
                    };
                    run(call, input).await
                }
                (Err(error), _) | (_, Err(error)) => Err(error),
            };
            let notices = std::mem::take(&mut *notices.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
            envelope::success(outcome, kind.capped().then_some(&self.services.limits))
                .map(|result| envelope::noticed(result, &notices))
                .map_err(|error| envelope::noticed_error(error, &notices))
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
        // get_job answers with the timing of the work it answers for.
        let (total_ms, host_ms) = answered_for
            .get()
            .copied()
            .unwrap_or_else(|| (elapsed.as_secs_f64() * 1000.0, host_micros.load(Ordering::Relaxed) as f64 / 1000.0));
        (outcome, total_ms, host_ms)
    }

    /// The task `id` if this request's user may see it (an unknown id and another user's read the same).
    fn task(&self, id: &str, context: &RequestContext<RoleServer>) -> Result<Arc<Job>, ErrorData> {
        self.services
            .jobs
            .find(id, &self.owner(context))
            .map_err(|error| ErrorData::invalid_params(error.message, None))
    }

    /// Whose jobs this call may see: the user of its connection.
    fn owner(&self, context: &RequestContext<RoleServer>) -> Owner {
        let caller = match context.extensions.get::<axum::http::request::Parts>() {
            Some(parts) => parts.extensions.get::<Caller>().copied().unwrap_or(Caller(None)),
            // The socket and stdio: this user's alone.
            None => Caller::this_user(),
        };
        caller.0.map_or_else(|| Owner::Session(self.session.id.clone()), Owner::User)
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

/// One tool call as it arrived.
struct Invocation {
    tool: String,
    kind: Kind,
    raw: JsonObject,
    context: RequestContext<RoleServer>,
    /// Whose jobs it may see.
    owner: Owner,
    /// When it arrived: its timing counts from here, however long it waited to run.
    began: Instant,
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
            Box::pin(async move { Ok(server.call(&name, kind, raw, context.request_context, run).await) })
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
        InitializeResult::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
            .with_server_info(Implementation::new("roslyn-mcp", env!("CARGO_PKG_VERSION")))
            .with_instructions(catalog::INSTRUCTIONS)
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

    /// `tasks/get`: a call that became a task, working or with its answer.
    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(jobs::task_state(&*self.task(&request.task_id, &context)?))
    }

    /// `tasks/cancel`: stops the work as a cancelled call would (test runs killed, a write rolled back).
    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.task(&request.task_id, &context)?.cancel.cancel();
        Ok(())
    }

    /// `tasks/update`: no task of this service asks its client for input, so there is nothing to deliver.
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.task(&request.task_id, &context).map(drop)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        roots::refresh(self.session.clone(), context.peer);
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        roots::refresh(self.session.clone(), context.peer);
    }
}
