//! Tool implementations: each takes a typed input and returns its typed output or a catalog error.

pub mod actions;
pub mod analyze;
pub mod api;
pub mod calls;
pub mod catalog;
pub mod changes;
pub mod cleanup;
pub mod convert;
pub mod diagnose;
pub mod diagnostics;
pub mod diff;
pub mod git;
pub mod graph;
pub mod hierarchy;
pub mod initialize;
pub mod jobs;
pub mod members;
pub mod moves;
pub mod navigation;
pub mod refactor;
pub mod signature;
pub mod sources;
pub mod symbols;
pub mod testing;
pub mod writes;

use crate::args;
use crate::paging::{Listing, Page, PageRequest};
use crate::progress::Progress;
use crate::resolve::{self, Target};
use crate::services::Services;
use crate::session::{Scope, Session};
use convert::RootGate;
use paths::Admitted;
use protocol::host::ask::{self, Ask};
use protocol::host::{PingRequest, Position};
use protocol::tools::PositionInput;
use protocol::tools::sources::GENERATED_SCHEME;
use protocol::{ErrorCode, ToolError};
use roslyn_host::{HostFailure, HostReply};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use workspace_actor::{RequestError, Workspace, WriteGuard, Writer};

/// What a tool call has to work with.
pub struct Call {
    /// The tool called: who holds a write lock, for those in line behind it.
    pub tool: String,
    pub services: Arc<Services>,
    pub session: Arc<Session>,
    /// The session as this call sees it.
    pub scope: Scope,
    pub cancel: CancellationToken,
    /// Progress notifications, when the request asked for them.
    pub progress: Progress,
    /// Microseconds the Roslyn host spent on this call, reported back in the result's `_meta`.
    pub host_micros: Arc<AtomicU64>,
    /// An HTTP request without a session (2026-07-28): it names its solution (a proxy routes it by that) and
    /// nothing of another call, nor the daemon's folder, stands in for it.
    pub stateless: bool,
    /// Whose jobs the call may see.
    pub owner: crate::jobs::Owner,
    /// Set by a call that answers with another call's outcome (get_job): that work's timing, in milliseconds
    /// (total, host), for the answer's `_meta` instead of this call's.
    pub answered_for: Arc<std::sync::OnceLock<(f64, f64)>>,
    /// What the solutions this call asked say of themselves (a generator not built): in the answer, once each.
    pub notices: Arc<std::sync::Mutex<std::collections::BTreeSet<String>>>,
}

/// One document (absolute path), else one project (name or project file), else the whole solution.
pub struct Documents {
    pub file: Option<String>,
    pub project: Option<String>,
}

/// What a list tool asks of [`Call::page`].
pub struct Paged<'a> {
    /// The tool and its canonical arguments: the request key its cursors carry.
    tool: &'static str,
    canonical: serde_json::Value,
    page_size: usize,
    pub cursor: Option<&'a str>,
    /// What the listing holds, for the refusal past its cap.
    what: &'static str,
    /// The cap on the listing's items; the total-items limit unless given.
    cap: Option<usize>,
}

impl<'a> Paged<'a> {
    pub fn new(
        tool: &'static str,
        canonical: serde_json::Value,
        page_size: usize,
        cursor: Option<&'a str>,
        what: &'static str,
    ) -> Self {
        Self { tool, canonical, page_size, cursor, what, cap: None }
    }

    pub fn capped_at(self, cap: usize) -> Self {
        Self { cap: Some(cap), ..self }
    }
}

/// A call's resolved target with its workspace.
pub struct Resolved {
    pub target: Target,
    pub workspace: Arc<Workspace>,
}

impl Resolved {
    /// The gate of a call's answer on the loaded solution.
    pub fn gate(&self) -> RootGate<'_> {
        RootGate::new(&self.target, self.workspace.summary())
    }
}

impl Call {
    /// Whose share of the plan store this call's plans take ([`crate::plans::holder`]).
    pub fn plan_holder(&self) -> &str {
        crate::plans::holder(&self.session.id, self.stateless)
    }

    /// Resolves the solution of a call that names no file, and opens its workspace.
    pub fn resolve(&self, solution_path: Option<&str>) -> Result<Resolved, ToolError> {
        self.open(self.target(solution_path, None)?)
    }

    /// Resolves the solution of a call about `file`, admits the file through its gate, and opens the
    /// workspace; the admitted file is what goes to the host.
    pub fn resolve_file(&self, solution_path: Option<&str>, file: &Path) -> Result<(Resolved, Admitted), ToolError> {
        let target = self.target(solution_path, Some(file))?;
        let file = target.admit(file)?;
        Ok((self.open(target)?, file))
    }

    fn target(&self, solution_path: Option<&str>, file: Option<&Path>) -> Result<Target, ToolError> {
        if self.stateless && solution_path.is_none() {
            return Err(ToolError::new(
                protocol::ErrorCode::MISSING_REQUIRED_PARAM,
                "A request without a session (MCP 2026-07-28 over HTTP) names its solution: solutionPath is required",
            )
            .detail("field", "solutionPath")
            .suggest("Pass solutionPath: the .sln, .slnx or project file the call is about")
            .suggest(
                "Clients of 2026-07-28 mirror it into the Mcp-Param-SolutionPath header, which proxies route on",
            ));
        }
        let target = resolve::target(solution_path, file, &self.scope, &self.services.reaches, || {
            self.services.registry.loaded()
        })?;
        tracing::Span::current().record("solution", tracing::field::display(target.solution.display()));
        Ok(target)
    }

    fn open(&self, target: Target) -> Result<Resolved, ToolError> {
        let workspace = self.services.workspace(target.solution.clone())?;
        Ok(Resolved { target, workspace })
    }

    /// Validates and gates a position, and opens the workspace it belongs to.
    pub fn position(&self, input: &PositionInput) -> Result<(Resolved, Position), ToolError> {
        self.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())
    }

    pub fn position_at(
        &self,
        file_path: &str,
        line: u32,
        column: u32,
        solution_path: Option<&str>,
    ) -> Result<(Resolved, Position), ToolError> {
        args::position(line, column)?;
        let file = self.file(file_path, "filePath")?;
        let (resolved, file) = self.resolve_file(solution_path, &file)?;
        Ok((resolved, Position { file: file.to_string(), line, column }))
    }

    /// [`Call::position_at`] for a read, which may also be asked at a place in a generator's output by the
    /// virtual path answers give it (`roslyn-mcp://generated/...`): that one passes once its solution is loaded,
    /// when the project file its path names lies inside the roots, the rule of every answer's generated places.
    pub async fn read_position_at(
        &self,
        file_path: &str,
        line: u32,
        column: u32,
        solution_path: Option<&str>,
    ) -> Result<(Resolved, Position), ToolError> {
        if !file_path.starts_with(GENERATED_SCHEME) {
            return self.position_at(file_path, line, column, solution_path);
        }
        args::position(line, column)?;
        let resolved = self.resolve(solution_path)?;
        let resolved = Resolved { workspace: self.load(&resolved.workspace).await?, ..resolved };
        if !resolved.gate().admits(file_path) {
            return Err(ToolError::new(
                ErrorCode::SOURCE_NOT_IN_WORKSPACE,
                format!("{file_path} names no project file inside the workspace roots"),
            )
            .detail("path", file_path)
            .suggest("list_generated_documents gives the paths of a project's generated documents"));
        }
        Ok((resolved, Position { file: file_path.to_owned(), line, column }))
    }

    /// The documents a whole-file tool works on: one file (gated), else one project, else the solution; and the
    /// solution they belong to, opened.
    pub fn documents(
        &self,
        file_path: Option<&str>,
        project: Option<String>,
        solution_path: Option<&str>,
    ) -> Result<(Resolved, Documents), ToolError> {
        match file_path {
            Some(file_path) => {
                let file = self.file(file_path, "filePath")?;
                let (resolved, file) = self.resolve_file(solution_path, &file)?;
                Ok((resolved, Documents { file: Some(file.to_string()), project: None }))
            }
            None => Ok((self.resolve(solution_path)?, Documents { file: None, project })),
        }
    }

    /// An existing file named by an argument, gated later by [`Call::resolve_file`].
    pub fn file(&self, raw: &str, field: &str) -> Result<PathBuf, ToolError> {
        resolve::existing_file(raw, field, &self.scope)
    }

    /// Sends one request to the workspace's host (see [`Call::ask_within`]).
    pub async fn ask<R>(&self, workspace: &Arc<Workspace>, asked: Ask<R>) -> Result<HostReply<R>, ToolError> {
        self.ask_within(workspace, asked, None).await
    }

    /// The page `paged` asks for of a listing on `resolved` (see [`crate::paging::Pager::page`]), its host
    /// requests sent through this call. A first page turns the answer to `asked` into the listing's header and
    /// items with `list`, which sorts them and drops, through the root gate it is given, the places outside
    /// the roots; the whole listing must fit `paged.cap`.
    pub async fn page<R, H, T>(
        &self,
        resolved: &Resolved,
        paged: Paged<'_>,
        asked: Ask<R>,
        list: impl FnOnce(R, &RootGate) -> Result<(H, Vec<T>), ToolError>,
    ) -> Result<Page<H, T>, ToolError>
    where
        H: Send + Sync + 'static,
        T: Send + Sync + 'static,
    {
        let request = PageRequest::new(paged.tool, &paged.canonical, paged.page_size, paged.cursor)?;
        let workspace = &resolved.workspace;
        let first = || self.ask(workspace, asked);
        let current = || self.ask(workspace, ask::ping(PingRequest { delay_ms: 0 }));
        let listing = |reply| {
            let gate = resolved.gate();
            let (header, items) = list(reply, &gate)?;
            let limits = &self.services.limits;
            limits.check_total(paged.what, items.len(), paged.cap.unwrap_or(limits.total_items))?;
            Ok(Listing { header, items, omitted: gate.omitted() })
        };
        self.services.pager.page(resolved.target.roots.workspace(), request, first, current, listing).await
    }

    /// [`Call::ask`] with a time limit other than the read timeout. A request that never reached a host is
    /// sent once more ([`Call::again`]); one whose host died answering is not: it may be what killed it. The
    /// answer is the payload the request expects; one of another kind is a host fault (ROSLYN_ERROR).
    pub async fn ask_within<R>(
        &self,
        workspace: &Arc<Workspace>,
        asked: Ask<R>,
        limit: Option<Duration>,
    ) -> Result<HostReply<R>, ToolError> {
        self.ask_reporting(workspace, asked, limit, None).await
    }

    /// [`Call::ask_within`], with the progress the host reports on the way sent to `progress`.
    pub async fn ask_reporting<R>(
        &self,
        workspace: &Arc<Workspace>,
        asked: Ask<R>,
        limit: Option<Duration>,
        progress: Option<roslyn_host::ProgressSink>,
    ) -> Result<HostReply<R>, ToolError> {
        let Ask { body, answer } = asked;
        let loading = self.loading(workspace, true).await;
        if let Some(files) = workspace.settling() {
            self.progress.step(format!("Waiting for {files} files changed on disk to settle")).await;
        }
        let sent = std::time::Instant::now();
        let (workspace, reply) = match workspace.request_within(body, limit, &self.cancel, progress.clone()).await {
            Err(RequestError::Unsent(body, _)) => {
                let workspace = self.again(workspace)?;
                let reply = workspace.request_within(*body, limit, &self.cancel, progress).await;
                (workspace, reply)
            }
            reply => (workspace.clone(), reply),
        };
        let reply = reply.map_err(ToolError::from);
        if loading {
            self.loaded(&workspace).await;
        }
        self.services.note_host_versions(&workspace);
        self.services.registry.touch(workspace.solution());
        self.notices.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend(workspace.notices());
        // A request the host never answered in time spent all of it there (loading first, if it had to).
        let micros = match &reply {
            Ok(reply) => reply.host_micros,
            Err(error) if error.code == protocol::ErrorCode::TIMEOUT => sent.elapsed().as_micros() as u64,
            Err(_) => 0,
        };
        self.host_micros.fetch_add(micros, Ordering::Relaxed);
        reply?.answer(answer).map_err(|body| HostFailure::Unexpected(body).into())
    }
}

/// How often a call waiting for a load looks at how far it got (the workspace asks the host every second).
const LOAD_STEP_EVERY: Duration = Duration::from_secs(1);

/// How long a writer waits in line for a solution's write lock unless it says: a queued write still answers
/// well inside a client's 60-second limit when the write ahead of it takes up to half of that (a rename on a
/// large library takes seconds).
const WRITE_WAIT: Duration = Duration::from_secs(30);
/// The longest wait a writer may ask for.
const MAX_WRITE_WAIT_SECS: u32 = 300;

impl Call {
    /// The solution's write lock for this call, in line behind the writers that asked first, waiting at most
    /// `wait_seconds` (default 30, at most 300; 0: refused at once if held) before WORKSPACE_BUSY.
    pub async fn begin_write(&self, workspace: &Workspace, wait_seconds: Option<u32>) -> Result<WriteGuard, ToolError> {
        let wait = wait_seconds.map_or(WRITE_WAIT, |s| Duration::from_secs(s.min(MAX_WRITE_WAIT_SECS).into()));
        let writer = Writer { tool: self.tool.clone(), session_id: self.session.id.clone() };
        workspace.begin_write(writer, wait, &self.cancel).await
    }

    /// Ensures the workspace's solution is loaded, reporting progress while it loads, and returns the
    /// workspace that holds it: a workspace stopped (evicted) meanwhile is opened again, once. A call that
    /// waits here past the read limit answers LOADING with its job.
    pub async fn load(&self, workspace: &Arc<Workspace>) -> Result<Arc<Workspace>, ToolError> {
        self.load_for(workspace, true).await
    }

    /// [`Call::load`] for a call whose answer is the load itself (initialize_workspace): past the answer bound
    /// it answers with its job, not LOADING.
    pub async fn load_as_answer(&self, workspace: &Arc<Workspace>) -> Result<Arc<Workspace>, ToolError> {
        self.load_for(workspace, false).await
    }

    async fn load_for(&self, workspace: &Arc<Workspace>, waits: bool) -> Result<Arc<Workspace>, ToolError> {
        let loading = self.loading(workspace, waits).await;
        let workspace = match workspace.load().await {
            Err(_) if workspace.is_stopped() => {
                let again = self.again(workspace)?;
                again.load().await?;
                again
            }
            loaded => loaded.map(|()| workspace.clone())?,
        };
        if loading {
            self.loaded(&workspace).await;
        }
        Ok(workspace)
    }

    /// The one retry policy of the service. What never reached a host (see
    /// [`RequestError::Unsent`]) is tried once more: on the solution opened again when its
    /// workspace was stopped (evicted), else on the same workspace, whose next acquire restarts a dead host.
    fn again(&self, workspace: &Arc<Workspace>) -> Result<Arc<Workspace>, ToolError> {
        if workspace.is_stopped() {
            self.services.workspace(workspace.solution().to_path_buf())
        } else {
            Ok(workspace.clone())
        }
    }

    /// Whether the workspace has yet to load its solution; if so, says so as progress and follows the load,
    /// and when the call `waits` for it (its answer is something else), tells its job.
    async fn loading(&self, workspace: &Arc<Workspace>, waits: bool) -> bool {
        let loading = workspace.summary().is_none();
        if loading {
            self.progress.step(format!("Loading {}", workspace.solution().display())).await;
            if let Some(job) = self.progress.job() {
                if waits {
                    job.set_loading(Some(workspace.solution().to_path_buf()));
                }
                self.follow_load(job.clone(), workspace.clone());
            }
        }
        loading
    }

    /// Steps the projects the load has opened, of those its solution reaches, each time the count moves, until
    /// the solution has loaded or the call's work ended.
    fn follow_load(&self, job: Arc<crate::jobs::Job>, workspace: Arc<Workspace>) {
        let (services, progress) = (self.services.clone(), self.progress.clone());
        tokio::spawn(async move {
            // Read from the solution's files: off the async threads.
            let total = crate::offload::cpu(|| services.reaches.of(workspace.solution()).projects);
            let mut told = None;
            while job.finished().is_none() && workspace.summary().is_none() && !workspace.is_stopped() {
                tokio::time::sleep(LOAD_STEP_EVERY).await;
                let loaded = workspace.status().projects_loaded;
                if let Some(count) = loaded.filter(|_| loaded != told && workspace.summary().is_none()) {
                    told = loaded;
                    let solution = workspace.solution().display();
                    // A reference through a property is not read ahead: the load may open more than counted.
                    let total = total.max(count as usize);
                    progress.step(format!("Loading {solution}: {count} of {total} projects opened")).await;
                }
            }
        });
    }

    async fn loaded(&self, workspace: &Workspace) {
        if let Some(job) = self.progress.job() {
            job.set_loading(None);
        }
        self.progress.step(format!("Loaded {}", workspace.solution().display())).await;
    }
}

/// Two inputs that go together (`startLine`/`endLine`, `endLine`/`endColumn`): both, or neither; one alone is
/// MISSING_REQUIRED_PARAM naming the other.
pub fn both_or_neither(
    first: Option<u32>,
    second: Option<u32>,
    names: [&str; 2],
) -> Result<Option<(u32, u32)>, ToolError> {
    match (first, second) {
        (None, None) => Ok(None),
        (Some(first), Some(second)) => Ok(Some((first, second))),
        (first, _) => {
            let missing = if first.is_none() { names[0] } else { names[1] };
            Err(ToolError::new(
                protocol::ErrorCode::MISSING_REQUIRED_PARAM,
                format!("Give both {} and {}, or neither", names[0], names[1]),
            )
            .detail("field", missing))
        }
    }
}

/// Longer names are refused before the host is asked.
const MAX_NAME: usize = 512;

/// The host judges identifiers (keywords, Unicode letters); this refuses what cannot be one at all.
pub fn identifier(name: &str, field: &str) -> Result<(), ToolError> {
    let plausible = !name.is_empty()
        && name.chars().count() <= MAX_NAME
        && !name.chars().any(|c| c.is_whitespace() || c.is_control() || ".,;:()<>[]{}\"'`/\\".contains(c));
    if plausible {
        return Ok(());
    }
    Err(ToolError::new(protocol::ErrorCode::INVALID_SYMBOL_NAME, format!("{name:?} is not a C# identifier"))
        .detail(field, name)
        .suggest(
            "Pass a simple name: letters, digits and underscores, not starting with a digit (prefix a keyword with @)",
        ))
}
