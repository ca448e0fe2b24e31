//! The per-workspace write lock: one writer at a time, and a second one is refused at once, never queued.
//! A write cannot be made without its guard: [`crate::Workspace::write`] takes the [`WriteGuard`] that
//! [`crate::Workspace::begin_write`] hands out, and refuses one of another workspace.

use protocol::{ErrorCode, ToolError};
use std::sync::Arc;
use tokio::sync::{Mutex, OwnedMutexGuard};

#[derive(Clone, Default)]
pub(crate) struct WriteLock(Arc<Mutex<()>>);

/// Held for the whole of a write, from computing it to the host's updated view; dropping it releases the
/// workspace. Eviction waits for it.
pub struct WriteGuard(OwnedMutexGuard<()>);

impl WriteGuard {
    pub(crate) fn is_of(&self, lock: &WriteLock) -> bool {
        Arc::ptr_eq(OwnedMutexGuard::mutex(&self.0), &lock.0)
    }
}

impl WriteLock {
    pub(crate) fn try_acquire(&self, solution: &str) -> Result<WriteGuard, ToolError> {
        self.0.clone().try_lock_owned().map(WriteGuard).map_err(|_| {
            ToolError::new(ErrorCode::WORKSPACE_BUSY, format!("Another write is in progress on {solution}"))
                .detail("solutionPath", solution)
                .suggest("Retry when the other operation has finished; reads keep working meanwhile")
        })
    }

    /// Waits for a write in progress to finish: eviction never cuts one off.
    pub(crate) async fn drain(&self) -> WriteGuard {
        WriteGuard(self.0.clone().lock_owned().await)
    }

    pub(crate) fn is_held(&self) -> bool {
        self.0.try_lock().is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn second_writer_is_refused_at_once_and_admitted_after_release() {
        let lock = WriteLock::default();
        let first = lock.try_acquire("/s.sln").expect("first writer");
        assert!(lock.is_held());
        let Err(refused) = lock.try_acquire("/s.sln") else { panic!("a second writer must be refused") };
        assert_eq!(refused.code, ErrorCode::WORKSPACE_BUSY);
        drop(first);
        assert!(lock.try_acquire("/s.sln").is_ok());
    }

    #[tokio::test]
    async fn a_guard_belongs_to_its_own_lock_only() {
        let (mine, other) = (WriteLock::default(), WriteLock::default());
        let guard = mine.try_acquire("/a.sln").expect("writer");
        assert!(guard.is_of(&mine));
        assert!(!guard.is_of(&other));
    }
}
