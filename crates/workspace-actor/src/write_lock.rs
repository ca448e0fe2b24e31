//! The per-workspace write lock, the one door for writes: one writer at a time; a writer that finds it held
//! waits its turn in arrival order (tokio's mutex is fair) up to the wait it allows, then is refused with
//! WORKSPACE_BUSY naming the holder and the queue. A write cannot be made without its guard:
//! [`crate::Workspace::write`] takes the [`WriteGuard`] that [`crate::Workspace::begin_write`] hands out, and
//! refuses one of another workspace.

use crate::events::WorkspaceEvents;
use protocol::tools::diagnose::WriteHolder;
use protocol::{ErrorCode, ToolError};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::{Mutex, OwnedMutexGuard};
use tokio_util::sync::CancellationToken;

/// Who asks for the lock: named in the refusal of those queued behind it, and in diagnose.
#[derive(Debug, Clone)]
pub struct Writer {
    pub tool: String,
    pub session_id: String,
}

#[derive(Clone)]
pub(crate) struct WriteLock {
    door: Arc<Mutex<()>>,
    queue: Arc<std::sync::Mutex<Queue>>,
    /// Writes on their way, from before they compute their plan until they end.
    coming: Arc<std::sync::atomic::AtomicUsize>,
    solution: PathBuf,
    events: Arc<dyn WorkspaceEvents>,
}

/// What diagnose and a refusal say of the lock.
#[derive(Debug, Default, Clone)]
pub struct Queue {
    pub holder: Option<WriteHolder>,
    pub waiting: u32,
}

/// Held for the whole of a write, from computing it to the host's updated view; dropping it releases the
/// workspace to the next writer in line. Eviction waits for it.
pub struct WriteGuard {
    door: OwnedMutexGuard<()>,
    lock: WriteLock,
    since: Instant,
}

impl WriteGuard {
    /// The write's holder as the snapshot log names it (none for a stop draining the lock).
    pub(crate) fn source(&self, operation: &str) -> crate::snapshots::Source {
        let holder = self.lock.queue().holder.clone();
        let (tool, session_id) = holder.map(|h| (h.tool, h.session_id)).unwrap_or_default();
        crate::snapshots::Source::Write { operation: operation.to_owned(), tool, session_id }
    }

    pub(crate) fn is_of(&self, lock: &WriteLock) -> bool {
        Arc::ptr_eq(OwnedMutexGuard::mutex(&self.door), &lock.door)
    }
}

impl Drop for WriteGuard {
    fn drop(&mut self) {
        // A stop draining the lock holds it with no writer: not a write's hold.
        let Some(holder) = self.lock.queue().holder.take() else { return };
        let held = self.since.elapsed();
        self.lock.events.write_lock_held(&self.lock.solution, held);
        let solution = self.lock.solution.display();
        tracing::info!(%solution, tool = holder.tool, held_ms = held.as_millis() as u64, "write lock released");
    }
}

/// A write on its way to the lock. One that is alone computes its plan before taking the lock, so the lock
/// covers only bringing the plan onto the solution and writing it; one that is not takes its turn first and
/// computes on the solution the writes before it left, rather than computing a plan they make stale.
pub struct Coming {
    coming: Arc<std::sync::atomic::AtomicUsize>,
    alone: bool,
}

impl Coming {
    pub fn alone(&self) -> bool {
        self.alone
    }
}

impl Drop for Coming {
    fn drop(&mut self) {
        self.coming.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Counts a writer in line while it waits, however its wait ends (granted, refused, cancelled).
struct InLine<'a>(&'a WriteLock);

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        let mut queue = self.0.queue();
        queue.waiting = queue.waiting.saturating_sub(1);
    }
}

impl WriteLock {
    pub(crate) fn new(solution: &Path, events: Arc<dyn WorkspaceEvents>) -> Self {
        let (door, queue, coming) = (Arc::default(), Arc::default(), Arc::default());
        Self { door, queue, coming, solution: solution.to_path_buf(), events }
    }

    /// Counts a write on its way until the answer drops; whether it is the only one: no other is coming, and
    /// none holds the lock (an `apply_plan` or an `undo`, which take it before anything else).
    pub(crate) fn announce(&self) -> Coming {
        let before = self.coming.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Coming { coming: self.coming.clone(), alone: before == 0 && !self.is_held() }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The lock for `writer`, at once if free, else after the writers ahead of it, waiting at most `wait`
    /// (none: refused at once); WORKSPACE_BUSY past it, TIMEOUT when `cancel` fires first.
    pub(crate) async fn acquire(
        &self,
        writer: Writer,
        wait: Duration,
        cancel: &CancellationToken,
    ) -> Result<WriteGuard, ToolError> {
        let began = Instant::now();
        let door = match self.door.clone().try_lock_owned() {
            Ok(door) => Some(door),
            Err(_) if wait.is_zero() => None,
            Err(_) => {
                self.queue().waiting += 1;
                let _in_line = InLine(self);
                tokio::select! {
                    door = tokio::time::timeout(wait, self.door.clone().lock_owned()) => door.ok(),
                    () = cancel.cancelled() => {
                        return Err(ToolError::new(ErrorCode::TIMEOUT, "The call was cancelled while it waited to write"));
                    }
                }
            }
        };
        let (granted, waited) = (door.is_some(), began.elapsed());
        self.events.write_lock_waited(&self.solution, waited, granted);
        let (solution, waited_ms) = (self.solution.display(), waited.as_millis() as u64);
        tracing::info!(%solution, tool = writer.tool, waited_ms, granted, "write lock asked");
        let Some(door) = door else { return Err(self.busy(began.elapsed())) };
        let since = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
        self.queue().holder = Some(WriteHolder { tool: writer.tool, session_id: writer.session_id, since });
        Ok(WriteGuard { door, lock: self.clone(), since: Instant::now() })
    }

    /// The refusal after waiting `waited`: who holds the lock and how many wait behind it.
    fn busy(&self, waited: Duration) -> ToolError {
        let queue = self.queue().clone();
        let solution = self.solution.display().to_string();
        let mut error = ToolError::new(
            ErrorCode::WORKSPACE_BUSY,
            match &queue.holder {
                Some(holder) => format!(
                    "Another write holds {solution}: {} of session {} since {}",
                    holder.tool, holder.session_id, holder.since
                ),
                None => format!("Another write holds {solution}"),
            },
        )
        .detail("solutionPath", solution)
        .detail("waitedMs", waited.as_millis() as u64)
        .detail("queueLength", queue.waiting)
        .suggest("Retry with a longer waitSeconds, or when the other write has finished; reads keep working meanwhile");
        if let Some(holder) = queue.holder {
            error = error.detail("holder", serde_json::to_value(holder).unwrap_or_default());
        }
        error
    }

    /// Waits for a write in progress to finish: eviction never cuts one off.
    pub(crate) async fn drain(&self) -> WriteGuard {
        let door = self.door.clone().lock_owned().await;
        WriteGuard { door, lock: self.clone(), since: Instant::now() }
    }

    pub(crate) fn is_held(&self) -> bool {
        self.door.try_lock().is_err()
    }

    /// The holder and the writers in line, for diagnose.
    pub(crate) fn state(&self) -> Queue {
        self.queue().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock() -> WriteLock {
        WriteLock::new(Path::new("/s.sln"), crate::events::ignored())
    }

    fn writer(tool: &str) -> Writer {
        Writer { tool: tool.to_owned(), session_id: "s1".to_owned() }
    }

    #[tokio::test]
    async fn a_writer_that_will_not_wait_is_refused_at_once_naming_the_holder() {
        let (lock, never) = (lock(), CancellationToken::new());
        let first = lock.acquire(writer("rename_symbol"), Duration::ZERO, &never).await.expect("first writer");
        assert!(lock.is_held());
        let Err(refused) = lock.acquire(writer("undo"), Duration::ZERO, &never).await else {
            panic!("a second writer that does not wait must be refused")
        };
        assert_eq!(refused.code, ErrorCode::WORKSPACE_BUSY);
        let details = refused.details.expect("details");
        assert_eq!(details["holder"]["tool"], "rename_symbol");
        assert_eq!(details["queueLength"], 0);
        drop(first);
        assert!(lock.state().holder.is_none(), "the holder goes with its guard");
        assert!(lock.acquire(writer("undo"), Duration::ZERO, &never).await.is_ok());
    }

    #[test]
    fn a_write_is_alone_only_while_no_other_is_on_its_way() {
        let lock = lock();
        let first = lock.announce();
        let second = lock.announce();
        assert!(first.alone() && !second.alone());
        drop((first, second));
        assert!(lock.announce().alone(), "both ended");
    }

    #[tokio::test]
    async fn a_write_that_comes_while_another_holds_the_lock_is_not_alone() {
        let (lock, never) = (lock(), CancellationToken::new());
        // An apply_plan or an undo takes the lock without announcing itself first.
        let applying = lock.acquire(writer("apply_plan"), Duration::ZERO, &never).await.expect("lock");
        assert!(!lock.announce().alone(), "queued behind the holder: it computes on what the holder leaves");
        drop(applying);
        assert!(lock.announce().alone());
    }

    #[tokio::test]
    async fn writers_that_wait_get_the_lock_in_arrival_order() {
        let (lock, never) = (lock(), CancellationToken::new());
        let first = lock.acquire(writer("first"), Duration::ZERO, &never).await.expect("first writer");
        let mut waiting = Vec::new();
        let (sender, mut landed) = tokio::sync::mpsc::unbounded_channel();
        for n in 0..3 {
            let (line, sender, never) = (lock.clone(), sender.clone(), never.clone());
            waiting.push(tokio::spawn(async move {
                let guard = line.acquire(writer(&format!("w{n}")), Duration::from_secs(600), &never).await;
                sender.send(n).expect("send");
                drop(guard);
            }));
            // Each in line before the next arrives.
            while lock.state().waiting < n + 1 {
                tokio::task::yield_now().await;
            }
        }
        assert_eq!(lock.state().waiting, 3);
        drop(first);
        let mut got = Vec::new();
        for _ in 0..3 {
            got.push(landed.recv().await.expect("landed"));
        }
        for writer in waiting {
            writer.await.expect("the writer ended");
        }
        assert_eq!(got, [0, 1, 2]);
        assert_eq!(lock.state().waiting, 0);
    }

    #[tokio::test]
    async fn a_writer_whose_wait_runs_out_is_refused_with_the_queue_it_left() {
        let (lock, never) = (lock(), CancellationToken::new());
        let _first = lock.acquire(writer("apply_plan"), Duration::ZERO, &never).await.expect("first writer");
        let refused =
            lock.acquire(writer("undo"), Duration::from_millis(1), &never).await.err().expect("refused after waiting");
        assert_eq!(refused.code, ErrorCode::WORKSPACE_BUSY);
        assert_eq!(lock.state().waiting, 0, "a writer that gave up leaves the line");
        let cancel = CancellationToken::new();
        cancel.cancel();
        let cancelled = lock.acquire(writer("undo"), Duration::from_secs(600), &cancel).await.err().expect("cancelled");
        assert_eq!(cancelled.code, ErrorCode::TIMEOUT);
        assert_eq!(lock.state().waiting, 0);
    }

    #[tokio::test]
    async fn a_guard_belongs_to_its_own_lock_only() {
        let (mine, other, never) = (lock(), lock(), CancellationToken::new());
        let guard = mine.acquire(writer("w"), Duration::ZERO, &never).await.expect("writer");
        assert!(guard.is_of(&mine));
        assert!(!guard.is_of(&other));
    }
}
