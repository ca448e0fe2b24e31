//! Per-session state: the default workspace (set by initialize_workspace, else derived from the client's
//! MCP roots), the roots themselves, and the folder relative paths start from. Loaded solutions are shared
//! by every session; nothing here outlives the session.
//!
//! A client that offers roots is never served outside them: from its `initialize` until roots/list is
//! answered, calls wait briefly and then fail with CLIENT_ROOTS_UNKNOWN (see [`Roots`]).

use crate::telemetry::SessionGuard;
use protocol::{ErrorCode, ToolError};
use std::path::PathBuf;
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::watch;

#[derive(Debug, Clone, PartialEq)]
pub struct SessionWorkspace {
    /// Relative paths resolve against it, and it is a workspace root of the gate.
    pub root: PathBuf,
    pub solution: PathBuf,
}

/// What one call reads of its session, copied once so the call sees a consistent view.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub workspace: Option<SessionWorkspace>,
    /// Where relative paths start when there is no workspace: the client's working directory.
    pub cwd: PathBuf,
    /// The folders the client offered as MCP roots; when present, every path must lie under one.
    pub client_roots: Option<Vec<PathBuf>>,
}

pub struct Session {
    pub id: String,
    cwd: PathBuf,
    state: RwLock<State>,
    /// Where the client's roots stand; calls wait briefly while they are pending.
    roots: watch::Sender<Roots>,
    /// Whether `initialize` opened it. Over HTTP, rmcp serves a 2026-07-28 request on a fresh one that never
    /// is, whatever `Mcp-Session-Id` the request carries.
    initialized: AtomicBool,
    _open: Option<SessionGuard>,
}

#[derive(Default)]
struct State {
    workspace: Option<SessionWorkspace>,
    /// Whether the workspace came from initialize_workspace (roots never replace it then).
    chosen: bool,
    client_roots: Option<Vec<PathBuf>>,
}

/// Whether calls may be served with what the session knows of the client's roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roots {
    /// The client offered no roots: nothing narrows the gate.
    NotOffered,
    /// The client offered roots and has not listed them yet.
    Pending,
    /// The client listed them (`State::client_roots`).
    Listed,
    /// The client offered roots but could not list them: no path can be checked against them.
    Unavailable,
}

/// How long a call waits for a client to answer roots/list before failing with CLIENT_ROOTS_UNKNOWN.
const ROOTS_WAIT: Duration = Duration::from_secs(2);

impl Session {
    pub fn new(cwd: PathBuf, open: Option<SessionGuard>) -> Self {
        Self {
            id: uuid::Uuid::new_v4().simple().to_string(),
            cwd,
            state: RwLock::default(),
            roots: watch::Sender::new(Roots::NotOffered),
            initialized: AtomicBool::new(false),
            _open: open,
        }
    }

    /// `initialize` was answered: calls from here on belong to a session.
    pub fn mark_initialized(&self) {
        self.initialized.store(true, Ordering::Release);
    }

    /// Whether the call belongs to a session `initialize` opened (else, over HTTP, to none).
    pub fn initialized(&self) -> bool {
        self.initialized.load(Ordering::Acquire)
    }

    /// The session as a call sees it, once the client's roots (if it offered any) have arrived; without
    /// them, CLIENT_ROOTS_UNKNOWN: a path outside them must never be read.
    pub async fn scope(&self) -> Result<Scope, ToolError> {
        let mut roots = self.roots.subscribe();
        let settled = tokio::time::timeout(ROOTS_WAIT, roots.wait_for(|r| *r != Roots::Pending)).await;
        let roots = settled.ok().and_then(Result::ok).map_or(Roots::Pending, |r| *r);
        if matches!(roots, Roots::Pending | Roots::Unavailable) {
            return Err(roots_unknown(roots));
        }
        Ok(self.current(self.read().client_roots.clone()))
    }

    /// The session for a call that must answer even without the client's roots (diagnose): while they are
    /// unknown, no path passes the gate.
    pub async fn scope_or_sealed(&self) -> Scope {
        match self.scope().await {
            Ok(scope) => scope,
            Err(_) => self.current(Some(Vec::new())),
        }
    }

    fn current(&self, client_roots: Option<Vec<PathBuf>>) -> Scope {
        Scope { workspace: self.read().workspace.clone(), cwd: self.cwd.clone(), client_roots }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// initialize_workspace's choice: it wins over anything derived from roots.
    pub fn set_workspace(&self, workspace: SessionWorkspace) {
        let mut state = self.state.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        state.workspace = Some(workspace);
        state.chosen = true;
    }

    /// The client's roots are asked for: from now until [`Session::set_client_roots`], calls wait for them.
    /// First called while `initialize` is answered, so that no call can come before it.
    pub fn roots_requested(&self) {
        self.roots.send_replace(Roots::Pending);
    }

    /// The client's roots (`None`: none of them is a local folder, so nothing narrows the gate) and the
    /// workspace derived from the first root that holds a solution, unless initialize_workspace chose one.
    pub fn set_client_roots(&self, roots: Option<Vec<PathBuf>>, derived: Option<SessionWorkspace>) {
        {
            let mut state = self.state.write().unwrap_or_else(std::sync::PoisonError::into_inner);
            if !state.chosen {
                state.workspace = derived;
            }
            state.client_roots = roots;
        }
        self.roots.send_replace(Roots::Listed);
    }

    /// The client offered roots but did not list them: calls fail closed until it does.
    pub fn roots_unavailable(&self) {
        self.roots.send_replace(Roots::Unavailable);
    }
}

fn roots_unknown(roots: Roots) -> ToolError {
    let why = match roots {
        Roots::Unavailable => "the client offered MCP roots but did not list them",
        _ => "the client offered MCP roots and has not listed them yet",
    };
    ToolError::new(ErrorCode::CLIENT_ROOTS_UNKNOWN, format!("No path can be checked: {why}"))
        .detail("waitedMs", ROOTS_WAIT.as_millis() as u64)
        .suggest("Answer the roots/list request; the call can be retried once it is answered")
}
