//! The state a workspace's handle and its actor share, in one place the actor owns: where the host stands
//! (the ready host, the phase, the published status), the write and call bookkeeping beside it, and the tasks
//! that run for the workspace (its start, the folder watch, the warm-up, the liveness and crash watchers, the
//! spare's replenishing), held in one tracker that a stop ends and waits for.

use crate::activity::Activity;
use crate::disk_queue::DiskQueue;
use crate::fence::Fence;
use crate::own_writes::OwnWrites;
use crate::phase::Phase;
use crate::settings::WorkspaceSettings;
use crate::status::StatusCell;
use crate::warm_gate::WarmGate;
use arc_swap::ArcSwapOption;
use protocol::tools::diagnose::WorkspaceState;
use roslyn_host::HostProcess;
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub(crate) struct Shared {
    pub solution: PathBuf,
    pub settings: WorkspaceSettings,
    pub status: StatusCell,
    /// The host calls are sent to; a start stores it before it says its round ended.
    ready: ArcSwapOption<HostProcess>,
    /// Where the host stands, as the actor publishes it; calls wait on it, never in the mailbox.
    pub phase: watch::Sender<Phase>,
    /// Cancelled as the workspace begins to stop: every task ends, waiting calls give up.
    pub stopping: CancellationToken,
    /// Cancelled once the folder is watched (or cannot be): a load waits for it, so that no change made
    /// during the first load is missed.
    pub watching: CancellationToken,
    pub own_writes: OwnWrites,
    /// What the folder watch reported that the host has yet to take in.
    pub disk: DiskQueue,
    /// The fence through the folder watch, once the folder is watched.
    pub fence: OnceLock<Arc<Fence>>,
    pub warm_gate: WarmGate,
    pub activity: Activity,
    tasks: TaskTracker,
}

impl Shared {
    pub fn new(solution: PathBuf, settings: WorkspaceSettings) -> Self {
        Self {
            status: StatusCell::new(solution.display().to_string()),
            solution,
            settings,
            ready: ArcSwapOption::empty(),
            phase: watch::channel(Phase::Ended(0, None)).0,
            stopping: CancellationToken::new(),
            watching: CancellationToken::new(),
            own_writes: OwnWrites::default(),
            disk: DiskQueue::default(),
            fence: OnceLock::new(),
            warm_gate: WarmGate::default(),
            activity: Activity::default(),
            tasks: TaskTracker::new(),
        }
    }

    /// Runs `task` for this workspace until it ends or the workspace stops, whichever comes first.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> JoinHandle<()> {
        let stopping = self.stopping.clone();
        self.tasks.spawn(async move {
            tokio::select! {
                biased;
                () = stopping.cancelled() => {}
                () = task => {}
            }
        })
    }

    /// Runs `task` for this workspace to its end, a stop or not: a short step that must complete (the actor
    /// linked to its supervisor and spawned, so that a stop reaches it and the supervisor hears of its end).
    pub fn spawn_whole(&self, task: impl Future<Output = ()> + Send + 'static) {
        self.tasks.spawn(task);
    }

    /// Waits for every task to end, once the workspace is stopping.
    pub async fn tasks_ended(&self) {
        self.tasks.close();
        self.tasks.wait().await;
    }

    /// Tasks not ended yet.
    #[cfg(test)]
    pub fn tasks_left(&self) -> usize {
        self.tasks.len()
    }

    /// The ready host while it lives. A host that went away unasked is retired here, the one place: taken
    /// out and counted as a crash once, whoever notices it first (the crash watcher, a call, the actor); a
    /// host stopped on purpose is out of `ready` already and never counts.
    pub fn live_host(&self) -> Option<Arc<HostProcess>> {
        let host = self.ready.load_full()?;
        if !host.connection().is_closed() {
            return Some(host);
        }
        let previous = self.ready.compare_and_swap(&Some(host.clone()), None);
        if previous.as_ref().is_some_and(|p| Arc::ptr_eq(p, &host)) {
            tracing::warn!(solution = %self.solution.display(), pid = host.pid(), "Roslyn host died");
            self.status.update(|s| {
                s.state = WorkspaceState::Restarting;
                s.host_pid = None;
                s.host_restarts += 1;
            });
        }
        None
    }

    /// The ready host, alive or not (diagnose's pid and handshake).
    pub fn host(&self) -> Option<Arc<HostProcess>> {
        self.ready.load_full()
    }

    pub fn set_ready(&self, host: Arc<HostProcess>) {
        self.ready.store(Some(host));
    }

    /// Takes the host out, to stop it.
    pub fn take_host(&self) -> Option<Arc<HostProcess>> {
        self.ready.swap(None)
    }
}
