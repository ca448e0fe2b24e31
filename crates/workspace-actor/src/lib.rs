//! One workspace per loaded solution: a kameo actor that supervises the Roslyn host and owns the folder
//! watcher, and the write lock beside it. [`Workspace`] is the handle the broker keeps in its registry.

mod activity;
mod actor;
mod apply;
mod barrier;
pub mod checksum;
mod disk_queue;
mod events;
pub mod fence;
mod generators;
pub mod history;
mod host_update;
mod liveness;
pub mod merge;
mod own_writes;
mod phase;
mod restarts;
mod settings;
mod shared;
pub mod snapshots;
mod status;
mod warm_gate;
mod warm_up;
mod watch_fault;
mod watcher;
mod write;
mod write_lock;

pub use actor::WorkspaceActor;
pub use events::WorkspaceEvents;
pub use generators::{BuildRequest, Built, GeneratorBuilder};
pub use history::Recording;
pub use liveness::PING_LIMIT;
pub use settings::WorkspaceSettings;
pub use write::{Change, FileWrite, JournalHold, Original, Outcome, check, read_current};
use write_lock::WriteLock;
pub use write_lock::{Coming, WriteGuard, Writer};

use actor::{Demand, WorkspaceArgs};
use kameo::actor::{Actor, ActorId, ActorRef, Spawn};
use phase::Step;
use protocol::host::{HostHello, RequestBody, WorkspaceSummary};
use protocol::tools::diagnose::WorkspaceStatus;
use protocol::{ErrorCode, ToolError};
use roslyn_host::{HostInstall, HostReply};
use shared::Shared;
use snapshots::{Since, Snapshot, Source};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Settles every write a crash interrupted under `journal` (see [`write::recover`]): one that the history under
/// `history` records is complete and stands, unless it was written to be verified and its tests gave no
/// verdict: that one is rolled back, as a failed verification would have. The operations undone.
pub fn recover(journal: &Path, history: &Path) -> Vec<String> {
    let root = history.to_path_buf();
    let recorded: write::Recorded = Arc::new(move |solution: &Path, operation: &str| {
        history::History::new(&root, solution, history::DEFAULT_BOUND).has(operation)
    });
    let mut undone = write::recover(journal, recorded);
    for unverified in history::History::unverified(history) {
        let id = unverified.operation.id.clone();
        let rolled_back = match roll_back_unverified(journal, &unverified) {
            Ok(rolled_back) => rolled_back,
            Err(error) => {
                // Left pending: the next start tries again.
                tracing::error!(%error, operation = id, "cannot roll back a write whose tests were cut off");
                continue;
            }
        };
        match history::History::interrupted(&unverified.operation.folder, rolled_back) {
            Ok(()) if rolled_back => undone.push(id),
            Ok(()) => tracing::error!(operation = id, "a write whose tests were cut off stands: its files moved on"),
            Err(error) => tracing::error!(%error, operation = id, "cannot record a cut-off verification"),
        }
    }
    undone
}

/// Undoes an operation whose verification was cut off, as one journaled write within the roots it was
/// written in: whether it is undone now (it may have been already); not when its files moved on since.
fn roll_back_unverified(journal: &Path, unverified: &history::Unverified) -> Result<bool, ToolError> {
    let operation = &unverified.operation;
    if operation.state == protocol::tools::plans::OperationState::Undone {
        return Ok(true);
    }
    let Ok(writes) = operation.writes(history::Direction::Undo) else { return Ok(false) };
    let name = format!("unverified-{}", operation.id);
    let mut transaction =
        write::Transaction::prepare(journal, &name, &unverified.solution, unverified.roots.clone(), &writes)?;
    match transaction.commit() {
        Ok(()) => {
            transaction.finish();
            Ok(true)
        }
        Err(error) => {
            transaction.rollback()?;
            Err(error)
        }
    }
}

pub struct Workspace {
    actor: ActorRef<WorkspaceActor>,
    /// What the actor owns and the handle reads: the host, its phase and status, the workspace's tasks.
    shared: Arc<Shared>,
    write_lock: WriteLock,
    /// Held shared by every request; `stop` takes it exclusively, so eviction never cuts a call off.
    in_use: tokio::sync::RwLock<()>,
    /// The files the last `sync_files` brought up to date: the next one brings them up to date again, so a
    /// file changed and then put back is seen put back even before the watcher tells of it.
    synced: std::sync::Mutex<BTreeSet<PathBuf>>,
}

/// Why a request got no answer.
pub enum RequestError {
    /// It never reached a host: the workspace was stopped (evicted), or its host was found dead before
    /// sending. Sending it again is safe; the body comes back for that.
    Unsent(Box<RequestBody>, ToolError),
    Failed(ToolError),
}

impl From<RequestError> for ToolError {
    fn from(error: RequestError) -> Self {
        match error {
            RequestError::Unsent(_, error) | RequestError::Failed(error) => error,
        }
    }
}

impl Workspace {
    /// Spawns the actor, linked to `supervisor` before it runs (which hears of its end), and returns at
    /// once: the actor watches the folder as it starts, and starts the host when the first call asks for it.
    /// Whoever opens a workspace never waits on either.
    pub fn spawn<S: Actor>(
        solution: PathBuf,
        install: Result<HostInstall, ToolError>,
        settings: WorkspaceSettings,
        supervisor: &ActorRef<S>,
    ) -> Self {
        let write_lock = WriteLock::new(&solution, settings.events.clone());
        let shared = Arc::new(Shared::new(solution, settings));
        let args = WorkspaceArgs { shared: shared.clone(), install };
        let prepared = WorkspaceActor::prepare();
        let actor = prepared.actor_ref().clone();
        let supervisor = supervisor.clone();
        shared.spawn_whole(async move {
            supervisor.link(prepared.actor_ref()).await;
            prepared.spawn(args);
        });
        Self { actor, shared, write_lock, in_use: tokio::sync::RwLock::new(()), synced: std::sync::Mutex::default() }
    }

    pub fn solution(&self) -> &Path {
        &self.shared.solution
    }

    /// The actor's id, by which its supervisor tells which workspace ended.
    pub fn actor_id(&self) -> ActorId {
        self.actor.id()
    }

    /// A snapshot for diagnose: reads published state only.
    pub fn status(&self) -> WorkspaceStatus {
        let mut status = WorkspaceStatus::clone(&self.shared.status.get());
        status.write_locked = self.write_lock.is_held();
        let queue = self.write_lock.state();
        (status.write_holder, status.writes_waiting) = (queue.holder, queue.waiting);
        status
    }

    /// What every answer on the solution says of it: its generators that do not run as their sources say.
    pub fn notices(&self) -> Vec<String> {
        generators::notices(&self.shared.status.get().generators, self.shared.settings.generators.is_some())
    }

    /// The projects as last loaded; `None` until the first load.
    pub fn summary(&self) -> Option<Arc<WorkspaceSummary>> {
        self.shared.status.summary()
    }

    /// The snapshot the running host holds now.
    pub fn snapshot(&self) -> Option<Snapshot> {
        let host_pid = self.host_pid()?;
        Some(Snapshot { host_pid, version: self.shared.status.get().workspace_version })
    }

    /// What changed from `basis` to the snapshot the host holds now (`Unknown` when no host is running).
    pub fn changes_since(&self, basis: Snapshot) -> Since {
        match self.snapshot() {
            Some(now) => self.shared.status.snapshots.since(basis, now),
            None => Since::Unknown("no Roslyn host holds the solution now".into()),
        }
    }

    /// The running host's process id.
    pub fn host_pid(&self) -> Option<u32> {
        self.shared.host().map(|host| host.pid())
    }

    /// Versions the running host reported in its handshake.
    pub fn host_hello(&self) -> Option<HostHello> {
        self.shared.host().map(|host| host.connection().hello().clone())
    }

    /// The limit of one read.
    pub fn request_timeout(&self) -> std::time::Duration {
        self.shared.settings.request_timeout
    }

    /// The limit of what a write does holding the write lock, from taking it to the host's updated view.
    pub fn write_timeout(&self) -> std::time::Duration {
        self.shared.settings.write_timeout
    }

    /// The limit of a write's computation in the host.
    pub fn compute_timeout(&self) -> std::time::Duration {
        self.shared.settings.compute_timeout
    }

    /// Counts a write on its way to the lock, from before it computes its plan until the answer drops.
    pub fn announce_write(&self) -> Coming {
        self.write_lock.announce()
    }

    /// The write lock for `writer`, after the writers ahead of it, waiting at most `wait` while another write
    /// holds it (then WORKSPACE_BUSY naming the holder); [`Workspace::write`] takes it.
    pub async fn begin_write(
        &self,
        writer: Writer,
        wait: std::time::Duration,
        cancel: &CancellationToken,
    ) -> Result<WriteGuard, ToolError> {
        self.write_lock.acquire(writer, wait, cancel).await
    }

    /// Sends one request to the host, loading the solution first if needed and waiting for its warm-up, within
    /// `limit` (the read timeout by default; a write's computation has its own), counted from when the host
    /// gets it; the host's progress on the way goes to `progress`. It is sent once: what may be sent again is
    /// the caller's one retry policy, told by [`RequestError::Unsent`]. A host that dies while answering
    /// fails the request, which may be what killed it.
    pub async fn request_within(
        &self,
        body: RequestBody,
        limit: Option<std::time::Duration>,
        cancel: &CancellationToken,
        progress: Option<roslyn_host::ProgressSink>,
    ) -> Result<HostReply, RequestError> {
        let limit = limit.unwrap_or(self.shared.settings.request_timeout);
        let _in_use = self.begin_call().await;
        let host = match self.acquire(cancel).await {
            Ok(host) => host,
            Err(error) if self.is_stopped() => return Err(RequestError::Unsent(Box::new(body), error)),
            Err(error) => return Err(RequestError::Failed(error)),
        };
        if host.connection().is_closed() {
            // Died between being handed out and being asked: the next acquire restarts it.
            let error = ToolError::new(ErrorCode::ROSLYN_ERROR, format!("the Roslyn host (pid {}) died", host.pid()));
            return Err(RequestError::Unsent(Box::new(body), error));
        }
        // A call waits for the warm-up after a load outside its own time limit: it would wait for the same
        // compilations anyway, and the warm-up's are shared.
        if !self.shared.warm_gate.passed(cancel).await {
            return Err(RequestError::Failed(roslyn_host::HostFailure::Cancelled.into()));
        }
        // Answered on the files as the caller left them: what was written just before is in the snapshot.
        self.barrier(&host, cancel).await.map_err(RequestError::Failed)?;
        host.connection().request_reporting(body, limit, cancel, progress).await.map_err(|failure| {
            RequestError::Failed(if failure.is_crash() {
                died_answering(host.pid(), failure)
            } else {
                ToolError::from(failure)
            })
        })
    }

    /// Brings the host's view of `paths` to what is on disk now, for a question about the files as they are:
    /// the watcher may not have told it yet. The host keeps a document whose text did not change as it was.
    /// The files of the previous call come along: one of them put back as it was (no longer among `paths`)
    /// would otherwise keep its changed text until the watcher's news, which would then move the snapshot
    /// under the question's cursor.
    pub async fn sync_files(&self, paths: Vec<PathBuf>, cancel: &CancellationToken) -> Result<(), ToolError> {
        let _in_use = self.begin_call().await;
        let host = self.warm_host(cancel).await?;
        let paths: BTreeSet<PathBuf> = paths.into_iter().collect();
        let previous = std::mem::replace(&mut *self.synced.lock().unwrap_or_else(|p| p.into_inner()), paths.clone());
        let paths = paths.union(&previous).cloned();
        host_update::send(&host, &self.shared.status, paths, Source::Disk, self.shared.settings.request_timeout, cancel)
            .await
            .map_err(ToolError::from)
    }

    /// The live host once no warm-up runs (see [`Workspace::acquire`]); the caller holds its call guard.
    async fn warm_host(&self, cancel: &CancellationToken) -> Result<Arc<roslyn_host::HostProcess>, ToolError> {
        let host = self.acquire(cancel).await?;
        if !self.shared.warm_gate.passed(cancel).await {
            return Err(roslyn_host::HostFailure::Cancelled.into());
        }
        Ok(host)
    }

    /// Ensures the solution is loaded.
    pub async fn load(&self) -> Result<(), ToolError> {
        let _in_use = self.begin_call().await;
        self.acquire(&CancellationToken::new()).await.map(drop)
    }

    /// The live host: the ready one, else the one the start under way brings (asking the actor for a start
    /// when none is). Waits on the published phase, so `cancel` or a stop ends the wait at once.
    async fn acquire(&self, cancel: &CancellationToken) -> Result<Arc<roslyn_host::HostProcess>, ToolError> {
        let mut phase = self.shared.phase.subscribe();
        let mut answered_by = None;
        loop {
            // The phase before the host: the actor stores a host before it says its round ended.
            let seen = phase.borrow_and_update().clone();
            if let Some(host) = self.shared.live_host() {
                return Ok(host);
            }
            match phase::step(&seen, &mut answered_by) {
                Step::Wait => {}
                Step::Demand => {
                    if self.actor.tell(Demand).await.is_err() {
                        return Err(self.unloaded());
                    }
                }
                Step::Fail(error) => return Err(error),
                Step::Stopped => return Err(self.unloaded()),
            }
            tokio::select! {
                biased;
                () = self.shared.stopping.cancelled() => return Err(self.unloaded()),
                () = cancel.cancelled() => return Err(roslyn_host::HostFailure::Cancelled.into()),
                changed = phase.changed() => if changed.is_err() { return Err(self.unloaded()) },
            }
        }
    }

    fn unloaded(&self) -> ToolError {
        ToolError::new(ErrorCode::WORKSPACE_NOT_LOADED, "the workspace was unloaded")
            .detail("solutionPath", self.shared.solution.display().to_string())
            .suggest("Retry: the solution loads again on demand")
    }

    /// How long no call has been under way; zero while one is.
    pub fn idle_for(&self) -> std::time::Duration {
        self.shared.activity.idle_for()
    }

    async fn begin_call(&self) -> CallGuard<'_> {
        let busy = self.shared.activity.begin();
        CallGuard { _shared: self.in_use.read().await, _busy: busy }
    }

    /// Whether the workspace is stopping or stopped (evicted); a caller holding it should open the solution
    /// again.
    pub fn is_stopped(&self) -> bool {
        self.shared.stopping.is_cancelled() || !self.actor.is_alive()
    }

    /// Ends the workspace's tasks (a start or warm-up under way among them: the calls waiting for it give up
    /// as unsent), waits for a write in progress, then for calls, then stops the actor, which stops the host,
    /// and waits for every task to have ended. The write before the calls: its own requests take part in
    /// calls, and a write begun later is refused meanwhile.
    pub async fn stop(&self) {
        self.shared.stopping.cancel();
        let _write = self.write_lock.drain().await;
        let _calls = self.in_use.write().await;
        if self.actor.stop_gracefully().await.is_ok() {
            self.actor.wait_for_shutdown().await;
        }
        self.shared.tasks_ended().await;
    }
}

/// A host that died with the request in flight. It is not sent again: a request that crashed one host (a stack
/// overflow) would crash the next, stalling every other call on the solution while it restarts.
fn died_answering(pid: u32, failure: roslyn_host::HostFailure) -> ToolError {
    ToolError::new(
        ErrorCode::ROSLYN_ERROR,
        format!("The Roslyn host (pid {pid}) died while answering this request; it was not retried ({failure})"),
    )
    .detail("hostPid", pid)
    .detail("retried", false)
    .suggest("The host restarts for the next call; if this request kills it again, simplify the request")
}

/// One call under way: keeps the workspace from being stopped and from counting as idle.
struct CallGuard<'a> {
    _shared: tokio::sync::RwLockReadGuard<'a, ()>,
    _busy: activity::Busy,
}
