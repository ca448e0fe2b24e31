//! Code actions `get_code_actions` listed, kept under their ids until they expire: `apply_code_action` finds
//! what to ask the host for here, never in the id itself. An id is the same for the same action on the same
//! solution snapshot (host process and workspace version), so listing twice gives the same ids; the snapshot
//! in it makes the host refuse the action once the solution moved on (CODE_ACTION_STALE).

use protocol::host::{ActionOptions, CodeActionKind, FixAllScope, Span};
use protocol::{ErrorCode, ToolError};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a listed action can be applied (if the solution does not change first).
pub const ACTION_TTL: Duration = Duration::from_secs(15 * 60);
/// Listed actions kept at most; the least recently used go first.
const MAX_ACTIONS: u64 = 100_000;

/// One action as the host listed it, with the snapshot it was listed on.
#[derive(Debug, Clone)]
pub struct ListedAction {
    pub solution: PathBuf,
    pub host_pid: u32,
    pub workspace_version: u64,
    pub span: Span,
    pub kind: CodeActionKind,
    pub provider: String,
    pub path: Vec<String>,
    /// Empty for a refactoring.
    pub diagnostic_id: String,
    pub fix_all_scopes: Vec<FixAllScope>,
    /// The defaults of an action that takes options; `ActionOptions::None` for the others.
    pub options: ActionOptions,
}

impl ListedAction {
    /// The action's own title, the last of its path.
    pub fn title(&self) -> String {
        self.path.last().cloned().unwrap_or_default()
    }
}

pub struct ActionStore {
    actions: moka::sync::Cache<String, Arc<ListedAction>>,
}

impl Default for ActionStore {
    fn default() -> Self {
        Self { actions: moka::sync::Cache::builder().time_to_live(ACTION_TTL).max_capacity(MAX_ACTIONS).build() }
    }
}

impl ActionStore {
    /// Keeps `action` under `id` for [`ACTION_TTL`].
    pub fn keep(&self, id: String, action: ListedAction) {
        self.actions.insert(id, Arc::new(action));
    }

    pub fn get(&self, id: &str) -> Result<Arc<ListedAction>, ToolError> {
        self.actions.get(id).ok_or_else(|| {
            not_found(id, format!("unknown, or listed more than {} minutes ago", ACTION_TTL.as_secs() / 60))
        })
    }
}

/// CODE_ACTION_NOT_FOUND for `id`, saying why.
fn not_found(id: &str, why: impl std::fmt::Display) -> ToolError {
    ToolError::new(ErrorCode::CODE_ACTION_NOT_FOUND, format!("No code action {id}: {why}"))
        .detail("id", id)
        .suggest("Call get_code_actions at the place again and use an id it lists")
}
