//! Start-up and shutdown shared by the daemon and the embedded service: undo what a crash interrupted
//! before serving, and hear the signals that end the service.

use crate::config::ServiceArgs;

/// A crash in the middle of a write left its journal: put those files back before serving.
pub fn recover_interrupted_writes(args: &ServiceArgs) {
    let journal = args.journal_dir();
    for operation in workspace_actor::recover(&journal, &args.state_dir().join("history")) {
        tracing::warn!(operation, journal = %journal.display(), "undid a write that a crash interrupted");
    }
}

pub async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}
