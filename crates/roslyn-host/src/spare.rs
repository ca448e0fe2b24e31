//! One host started before any load needs it. Starting a host costs about 0.8 s before it can load
//! anything: the process and its handshake, and Roslyn's MEF composition, which the host begins as it
//! starts. A spare has paid that while idle, and has rehearsed a load on a project of its own
//! (`--rehearse-load`: a process's first load is slower than the next), so a load (or a restart) that
//! takes it only pays for loading.

use crate::failure::HostFailure;
use crate::locate::HostInstall;
use crate::process::HostProcess;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;
use tokio::task::JoinHandle;

/// What a spare's log lines name until a solution takes it.
const SPARE_LABEL: &str = "(spare)";

/// Spares lost in a row while idle after which no other is started until a load takes one: a spare that
/// keeps dying (a broken install, a memory limit) must not become a loop of starts.
const MAX_LOST_IN_ROW: u32 = 3;

pub struct SpareHost {
    install: HostInstall,
    limit: Duration,
    next: Mutex<Option<Next>>,
    /// Idle spares that exited since a load last took one.
    lost_in_row: AtomicU32,
}

/// The spare starting or ready: its start, and its process id once started.
struct Next {
    start: JoinHandle<Result<HostProcess, HostFailure>>,
    pid: Arc<OnceLock<u32>>,
}

/// What diagnose and /metrics show of the spare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpareState {
    /// Its process is starting (the handshake; Roslyn's composition and the rehearsal follow while ready).
    Starting,
    /// Started, with this process id, and not taken yet.
    Ready(u32),
}

impl std::fmt::Debug for SpareHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpareHost").field("host_dll", &self.install.host_dll).finish_non_exhaustive()
    }
}

impl SpareHost {
    /// Spares of `install`, each started within `limit`; none runs until [`SpareHost::replenish`].
    pub fn new(install: HostInstall, limit: Duration) -> Self {
        Self { install, limit, next: Mutex::new(None), lost_in_row: AtomicU32::new(0) }
    }

    /// Starts a spare unless one is ready or starting. Needs a Tokio runtime.
    pub fn replenish(self: &Arc<Self>) {
        let mut next = self.lock();
        if next.is_none() {
            let (install, limit, spares) = (self.install.clone(), self.limit, Arc::downgrade(self));
            let pid = Arc::new(OnceLock::new());
            let known = pid.clone();
            let start = tokio::spawn(async move {
                let started = HostProcess::start_spare(&install, SPARE_LABEL, limit).await;
                match &started {
                    Ok(host) => {
                        let _ = known.set(host.pid());
                        tracing::info!(host_pid = host.pid(), "spare host started");
                        replace_when_lost(spares, host);
                    }
                    Err(error) => tracing::warn!(%error, "spare host did not start"),
                }
                started
            });
            *next = Some(Next { start, pid });
        }
    }

    /// `pid` exited: when it is the spare still waiting for a load, another starts in its place.
    fn lost(self: &Arc<Self>, pid: u32) {
        {
            let mut next = self.lock();
            // A taken spare's connection closes when its workspace stops: not ours any more.
            if next.as_ref().and_then(|n| n.pid.get()) != Some(&pid) {
                return;
            }
            *next = None;
        }
        let lost = self.lost_in_row.fetch_add(1, Ordering::Relaxed) + 1;
        if lost > MAX_LOST_IN_ROW {
            tracing::warn!(host_pid = pid, lost, "spare host exited while idle; not starting another until a load");
            return;
        }
        tracing::warn!(host_pid = pid, "spare host exited while idle; starting another");
        self.replenish();
    }

    /// The spare now: none when it is taken, failed to start or is not asked for yet.
    pub fn state(&self) -> Option<SpareState> {
        let next = self.lock();
        let next = next.as_ref()?;
        match next.pid.get() {
            Some(&pid) => Some(SpareState::Ready(pid)),
            None if next.start.is_finished() => None,
            None => Some(SpareState::Starting),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Next>> {
        self.next.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The spare, waited for if it is still starting, now serving `label`; a host started now when there is
    /// none, or the spare failed to start or has exited since.
    pub async fn take(&self, label: &str) -> Result<HostProcess, HostFailure> {
        let spare = self.lock().take();
        self.lost_in_row.store(0, Ordering::Relaxed);
        if let Some(Next { start, .. }) = spare
            && let Ok(Ok(host)) = start.await
            && !host.connection().is_closed()
        {
            host.relabel(label);
            return Ok(host);
        }
        HostProcess::start(&self.install, label, self.limit).await
    }
}

/// Watches an idle spare's connection, so that one that exits (killed, out of memory) is replaced before a
/// load needs it rather than when the load finds it dead.
fn replace_when_lost(spares: Weak<SpareHost>, host: &HostProcess) {
    let (closed, pid) = (host.connection().closed(), host.pid());
    tokio::spawn(async move {
        closed.cancelled().await;
        if let Some(spares) = spares.upgrade() {
            spares.lost(pid);
        }
    });
}
