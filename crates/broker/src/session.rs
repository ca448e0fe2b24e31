//! Per-session state: the default workspace (set by initialize_workspace, else derived from the client's
//! MCP roots), the roots themselves, and the folder relative paths start from. Loaded solutions are shared
//! by every session; nothing here outlives the session.

use crate::telemetry::SessionGuard;
use std::path::PathBuf;
use std::sync::RwLock;
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
    /// False while the client's roots are being asked for: calls wait briefly for them.
    roots_settled: watch::Sender<bool>,
    _open: Option<SessionGuard>,
}

#[derive(Default)]
struct State {
    workspace: Option<SessionWorkspace>,
    /// Whether the workspace came from initialize_workspace (roots never replace it then).
    chosen: bool,
    client_roots: Option<Vec<PathBuf>>,
}

/// How long a call waits for a client to answer roots/list before going on without its roots.
const ROOTS_WAIT: Duration = Duration::from_secs(2);

impl Session {
    pub fn new(cwd: PathBuf, open: Option<SessionGuard>) -> Self {
        Self {
            id: uuid::Uuid::new_v4().simple().to_string(),
            cwd,
            state: RwLock::default(),
            roots_settled: watch::Sender::new(true),
            _open: open,
        }
    }

    /// The session as a call sees it, once the client's roots (if being asked for) have arrived.
    pub async fn scope(&self) -> Scope {
        let mut settled = self.roots_settled.subscribe();
        let _ = tokio::time::timeout(ROOTS_WAIT, settled.wait_for(|done| *done)).await;
        let state = self.state.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        Scope { workspace: state.workspace.clone(), cwd: self.cwd.clone(), client_roots: state.client_roots.clone() }
    }

    /// initialize_workspace's choice: it wins over anything derived from roots.
    pub fn set_workspace(&self, workspace: SessionWorkspace) {
        let mut state = self.state.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        state.workspace = Some(workspace);
        state.chosen = true;
    }

    /// Calls wait for roots from now until [`Session::set_client_roots`].
    pub fn roots_requested(&self) {
        self.roots_settled.send_replace(false);
    }

    /// The client's roots (`None` when it could not list them) and the workspace derived from the first
    /// root that holds a solution, unless initialize_workspace chose one.
    pub fn set_client_roots(&self, roots: Option<Vec<PathBuf>>, derived: Option<SessionWorkspace>) {
        {
            let mut state = self.state.write().unwrap_or_else(std::sync::PoisonError::into_inner);
            if !state.chosen {
                state.workspace = derived;
            }
            state.client_roots = roots;
        }
        self.roots_settled.send_replace(true);
    }
}
