//! Time limits and retry bounds of a workspace, and who is told what it does.

use crate::events::{self, WorkspaceEvents};
use protocol::tools::plans::HistoryBound;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct WorkspaceSettings {
    /// Starting the host and loading the solution (restore included).
    pub load_timeout: Duration,
    /// One read request.
    pub request_timeout: Duration,
    /// Consecutive failed starts before the workspace reports ROSLYN_ERROR instead of trying again.
    pub max_restarts: u32,
    /// First pause between restarts; doubles with each consecutive failure.
    pub restart_backoff: Duration,
    /// After this long without a start attempt, a workspace that gave up tries again.
    pub give_up_for: Duration,
    /// How long file events settle before they go to the host.
    pub debounce: Duration,
    /// Compile every project after each load (calls wait for it), and rehearse searches at the first.
    pub warm_up: bool,
    /// What a write does holding the solution's write lock: bringing its plan onto the solution as it is
    /// (a replay included), writing the files, updating the host.
    pub write_timeout: Duration,
    /// A write's computation in the host, from when the host starts it: a runaway one stops here.
    pub compute_timeout: Duration,
    /// Where writes in progress keep their journal.
    pub journal_dir: PathBuf,
    /// Where each workspace's folder watch keeps its fence folder (made private if it is not).
    pub fence_dir: PathBuf,
    /// Where applied operations are kept for undo, one folder per solution.
    pub history_dir: PathBuf,
    pub history_bound: HistoryBound,
    /// Fault injection: a write that has replaced its files waits until this file exists before updating the
    /// host; none in service.
    pub apply_hold: Option<PathBuf>,
    /// Fault injection: a write pauses at one step of its journal until a file exists; none in service.
    pub journal_hold: Option<crate::write::JournalHold>,
    /// Fault injection: a workspace's start-up (watching its folder) waits as long as this file exists; none
    /// in service.
    pub start_hold: Option<PathBuf>,
    /// Fault injection: while a file of this name exists in the solution's folder the watch loses every event,
    /// and its removal stands for the watch queue's overflow; none in service.
    pub overflow_fault: Option<std::ffi::OsString>,
    /// Told of loads, restarts and forwarded file changes.
    pub events: Arc<dyn WorkspaceEvents>,
    /// A host started ahead of need, which a load takes instead of starting one; none when disabled.
    pub spare: Option<Arc<roslyn_host::SpareHost>>,
    /// Builds the generator projects a load finds not built (or older than their sources); none: the
    /// solution goes without what they write, and every answer says so.
    pub generators: Option<Arc<dyn crate::GeneratorBuilder>>,
}

impl Default for WorkspaceSettings {
    fn default() -> Self {
        Self {
            load_timeout: Duration::from_secs(300),
            request_timeout: Duration::from_secs(30),
            max_restarts: 3,
            restart_backoff: Duration::from_millis(250),
            give_up_for: Duration::from_secs(30),
            debounce: Duration::from_millis(150),
            warm_up: true,
            write_timeout: Duration::from_secs(30),
            compute_timeout: Duration::from_secs(600),
            journal_dir: std::env::temp_dir().join("roslyn-mcp-journal"),
            fence_dir: std::env::temp_dir().join(format!("roslyn-mcp-fences-{}", paths::user_id())),
            history_dir: std::env::temp_dir().join("roslyn-mcp-history"),
            history_bound: crate::history::DEFAULT_BOUND,
            apply_hold: None,
            journal_hold: None,
            start_hold: None,
            overflow_fault: None,
            events: events::ignored(),
            spare: None,
            generators: None,
        }
    }
}
