//! What a workspace reports as it works, for whoever counts it (the broker's metrics). Every method has a
//! no-op default, so an observer implements only what it records.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub trait WorkspaceEvents: Send + Sync + 'static {
    /// A start of the host and load of the solution finished, successfully or not.
    fn solution_loaded(&self, _solution: &Path, _took: Duration, _ok: bool) {}
    /// A host came back after its predecessor died.
    fn host_restarted(&self, _solution: &Path) {}
    /// The watcher is sending `count` changed files to the host.
    fn files_changed(&self, _solution: &Path, _count: usize) {}
    /// A writer waited `waited` in line for the write lock, and got it or was refused.
    fn write_lock_waited(&self, _solution: &Path, _waited: Duration, _granted: bool) {}
    /// A writer held the write lock for `held`.
    fn write_lock_held(&self, _solution: &Path, _held: Duration) {}
}

/// Observes nothing: the default of [`crate::WorkspaceSettings`].
pub fn ignored() -> Arc<dyn WorkspaceEvents> {
    struct Ignored;
    impl WorkspaceEvents for Ignored {}
    Arc::new(Ignored)
}

/// Lets settings that hold an observer keep deriving `Debug`.
impl std::fmt::Debug for dyn WorkspaceEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WorkspaceEvents")
    }
}
