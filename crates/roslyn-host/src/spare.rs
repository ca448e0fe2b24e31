//! One host started before any load needs it. Starting a host costs about 0.8 s before it can load
//! anything: the process and its handshake, and Roslyn's MEF composition, which the host begins as it
//! starts. A spare has paid that while idle, and has rehearsed a load on a project of its own
//! (`--rehearse-load`: a process's first load is slower than the next), so a load (or a restart) that
//! takes it only pays for loading.

use crate::failure::HostFailure;
use crate::locate::HostInstall;
use crate::process::HostProcess;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::task::JoinHandle;

/// What a spare's log lines name until a solution takes it.
const SPARE_LABEL: &str = "(spare)";

pub struct SpareHost {
    install: HostInstall,
    limit: Duration,
    next: Mutex<Option<Next>>,
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
        Self { install, limit, next: Mutex::new(None) }
    }

    /// Starts a spare unless one is ready or starting. Needs a Tokio runtime.
    pub fn replenish(&self) {
        let mut next = self.lock();
        if next.is_none() {
            let (install, limit) = (self.install.clone(), self.limit);
            let pid = Arc::new(OnceLock::new());
            let known = pid.clone();
            let start = tokio::spawn(async move {
                let started = HostProcess::start_spare(&install, SPARE_LABEL, limit).await;
                match &started {
                    Ok(host) => {
                        let _ = known.set(host.pid());
                        tracing::info!(host_pid = host.pid(), "spare host started");
                    }
                    Err(error) => tracing::warn!(%error, "spare host did not start"),
                }
                started
            });
            *next = Some(Next { start, pid });
        }
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
