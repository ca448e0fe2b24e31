//! Warm-up after each load: the host compiles every project in turn (one `WarmUp` request each, so the
//! actor knows the progress it publishes), and calls that arrive meanwhile wait at the [`WarmGate`] before
//! they are sent, so the wait never counts against their own time limit.

use crate::status::StatusCell;
use protocol::host::ask;
use protocol::host::{WarmUpRequest, WorkspaceSummary};
use protocol::tools::diagnose::{WarmUp, WarmUpPhase};
use roslyn_host::HostProcess;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Closed while a warm-up runs (it counts them: one of a host that died may still be ending when the next
/// host's begins), open otherwise.
#[derive(Clone)]
pub struct WarmGate(Arc<watch::Sender<u32>>);

impl Default for WarmGate {
    fn default() -> Self {
        Self(Arc::new(watch::channel(0).0))
    }
}

impl WarmGate {
    /// Waits until no warm-up runs; false when `cancel` fires first.
    pub async fn passed(&self, cancel: &CancellationToken) -> bool {
        let mut running = self.0.subscribe();
        tokio::select! {
            biased;
            result = running.wait_for(|running| *running == 0) => result.is_ok(),
            () = cancel.cancelled() => false,
        }
    }

    fn close(&self) {
        self.0.send_modify(|running| *running += 1);
    }

    fn open(&self) {
        self.0.send_modify(|running| *running -= 1);
    }
}

/// Closes the gate and compiles the loaded projects of `host` in the background, each within `limit`; the
/// gate opens when every project is done, one fails or times out, the host goes away or `cancel` fires (the
/// workspace stops).
pub fn start(
    host: &Arc<HostProcess>,
    summary: &WorkspaceSummary,
    status: Arc<StatusCell>,
    gate: WarmGate,
    limit: Duration,
    cancel: CancellationToken,
) {
    let projects: Vec<String> = summary.projects.iter().map(|p| p.name.clone()).collect();
    let project_count = projects.len() as u32;
    gate.close();
    let publish = move |phase, projects_warmed, began: Instant| {
        let ms = began.elapsed().as_millis() as u64;
        status.update(|s| s.warm_up = Some(WarmUp { phase, projects_warmed, project_count, ms }));
    };
    let began = Instant::now();
    publish(WarmUpPhase::Compiling, 0, began);
    let host = Arc::downgrade(host);
    tokio::spawn(async move {
        let mut phase = WarmUpPhase::Done;
        let mut warmed = 0;
        for project in projects {
            let Some(host) = host.upgrade().filter(|h| !h.connection().is_closed()) else {
                phase = WarmUpPhase::Stopped;
                break;
            };
            let request = ask::warm_up(WarmUpRequest { project: project.clone() });
            match host.connection().ask(request, limit, &cancel).await {
                Ok(_) => warmed += 1,
                outcome => {
                    tracing::warn!(project, ?outcome, "warm-up stopped");
                    phase = WarmUpPhase::Stopped;
                    break;
                }
            }
            publish(WarmUpPhase::Compiling, warmed, began);
        }
        publish(phase, warmed, began);
        tracing::info!(projects = warmed, ms = began.elapsed().as_millis() as u64, ?phase, "warm-up ended");
        gate.open();
    });
}

#[cfg(test)]
mod tests {
    use super::WarmGate;
    use tokio_util::sync::CancellationToken;

    #[tokio::test]
    async fn calls_pass_only_once_every_warm_up_has_ended_or_when_cancelled() {
        let gate = WarmGate::default();
        assert!(gate.passed(&CancellationToken::new()).await, "open before any load");
        gate.close();
        gate.close();
        let cancelled = CancellationToken::new();
        cancelled.cancel();
        assert!(!gate.passed(&cancelled).await, "a cancelled call stops waiting");
        let waiting = tokio::spawn({
            let gate = gate.clone();
            async move { gate.passed(&CancellationToken::new()).await }
        });
        gate.open();
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "one warm-up still runs");
        gate.open();
        assert!(waiting.await.expect("waiter"), "open once both ended");
    }
}
