//! A liveness watchdog per host: it pings every few seconds and publishes whether the host answered within
//! [`PING_LIMIT`], so that diagnose, which never waits on a host, tells a stopped or wedged host from a
//! healthy one.

use crate::shared::Shared;
use protocol::host::{PingRequest, RequestBody};
use protocol::tools::diagnose::{WorkspaceState, WorkspaceStatus};
use roslyn_host::{HostFailure, HostProcess};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Time between pings.
const PERIOD: Duration = Duration::from_secs(2);

/// A host that takes longer than this to answer a ping, [`MISSES`] times in a row, is reported `Unresponsive`.
pub const PING_LIMIT: Duration = Duration::from_secs(1);

/// Pings missed in a row before the host counts as unresponsive: one late answer is a scheduling hiccup of a
/// busy machine, not a stopped host.
const MISSES: u32 = 2;

/// Pings `host` until its connection ends or it is dropped, flipping its workspace between `Ready` and
/// `Unresponsive`; the crash watcher and the actor own every other state.
pub fn watch(shared: &Arc<Shared>, host: &Arc<HostProcess>) {
    let (pid, watched) = (host.pid(), shared.clone());
    let host = Arc::downgrade(host);
    shared.spawn(async move {
        let status = &watched.status;
        let mut period = tokio::time::interval(PERIOD);
        period.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut missed = 0;
        loop {
            period.tick().await;
            let Some(host) = host.upgrade().filter(|h| !h.connection().is_closed()) else { return };
            let ping = RequestBody::Ping(PingRequest { delay_ms: 0 });
            missed = match host.connection().request(ping, PING_LIMIT, &CancellationToken::new()).await {
                Ok(_) => 0,
                Err(HostFailure::Timeout(_)) => missed + 1,
                Err(_) => return,
            };
            let state = if missed >= MISSES { WorkspaceState::Unresponsive } else { WorkspaceState::Ready };
            // Only this host's Ready/Unresponsive is ours to flip; loads and restarts belong to the actor.
            let flips = |s: &WorkspaceStatus| {
                s.host_pid == Some(pid)
                    && matches!(s.state, WorkspaceState::Ready | WorkspaceState::Unresponsive)
                    && s.state != state
            };
            let current = status.get();
            if flips(&current) {
                tracing::warn!(pid, ?state, solution = %current.solution_path, "Roslyn host liveness changed");
                status.update(|s| {
                    if flips(s) {
                        s.state = state;
                    }
                });
            }
        }
    });
}
