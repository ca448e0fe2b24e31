//! Warm-up after each load: the host compiles every project in turn (one `WarmUp` request each, so the
//! actor knows the progress it publishes), and calls that arrive meanwhile wait at the warm gate
//! ([`crate::warm_gate`]) before they are sent, so the wait never counts against their own time limit.

use crate::shared::Shared;
use protocol::host::ask;
use protocol::host::{WarmUpRequest, WorkspaceSummary};
use protocol::tools::diagnose::{WarmUp, WarmUpPhase};
use roslyn_host::HostProcess;
use std::sync::Arc;
use std::time::Instant;
use tokio_util::sync::CancellationToken;

/// Closes the gate and compiles the loaded projects of `host` in a task of the workspace, each within the load
/// limit; the gate opens when every project is done, one fails or times out, the host goes away or the
/// workspace stops.
pub fn start(shared: &Arc<Shared>, host: &Arc<HostProcess>, summary: &WorkspaceSummary) {
    let projects: Vec<String> = summary.projects.iter().map(|p| p.name.clone()).collect();
    let project_count = projects.len() as u32;
    let closed = shared.warm_gate.close();
    let (limit, warmed_up) = (shared.settings.load_timeout, shared.clone());
    let publish = move |phase, projects_warmed, began: Instant| {
        let ms = began.elapsed().as_millis() as u64;
        warmed_up.status.update(|s| s.warm_up = Some(WarmUp { phase, projects_warmed, project_count, ms }));
    };
    let began = Instant::now();
    publish(WarmUpPhase::Compiling, 0, began);
    let host = Arc::downgrade(host);
    let cancel = CancellationToken::new();
    shared.spawn(async move {
        let _closed = closed;
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
    });
}
