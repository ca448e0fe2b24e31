//! The disk barrier: before a call reads the solution, every change the file system reported before the call
//! came is in the host's snapshot. A fence goes through the folder watch (see [`crate::fence`]); once it is
//! handed over, every earlier change has been reported, and the call waits until the host took those in,
//! hurrying their batch rather than letting it settle. When nothing changed that is one file created (the
//! watch removes it) and one event read.

use crate::Workspace;
use protocol::ToolError;
use roslyn_host::{HostFailure, HostProcess};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Files waiting past which a barrier lets their batch settle rather than hurry it: a checkout or a generator
/// is writing, and a snapshot of the first part of its files would compile worse than before or after it.
/// A batch settles within the queue's cap.
const BURST: usize = 64;
/// How long a fence may take to come through the watch before the call goes on without it.
const FENCE_LIMIT: Duration = Duration::from_secs(5);

impl Workspace {
    /// Brings the host's view up to every change on disk reported before now, as every request does before it
    /// is sent: for a step that reads the solution's state without asking the host (a write settling its plan
    /// under the lock).
    pub async fn catch_up(&self, cancel: &CancellationToken) -> Result<(), ToolError> {
        let _in_use = self.begin_call().await;
        let host = self.warm_host(cancel).await?;
        self.barrier(&host, cancel).await
    }

    /// The files on disk whose changes are waiting to settle, when a burst of them is: a call about to wait
    /// for it says so.
    pub fn settling(&self) -> Option<usize> {
        self.shared.disk.waiting().filter(|files| *files >= BURST)
    }

    /// Waits until `host` took in every change the folder watch reported before now. Without a watch (it could
    /// not start) or a fence that never came through (said in the log), there is nothing to wait for.
    pub(crate) async fn barrier(&self, host: &HostProcess, cancel: &CancellationToken) -> Result<(), ToolError> {
        let Some(fence) = self.shared.fence.get() else { return Ok(()) };
        match fence.pass(FENCE_LIMIT).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(solution = %self.shared.solution.display(), "a fence did not come through the file watch in time");
                return Ok(());
            }
            Err(error) => {
                tracing::warn!(%error, "cannot create a fence through the file watch");
                return Ok(());
            }
        }
        let disk = &self.shared.disk;
        let upto = disk.reported();
        if disk.is_taken(upto) {
            return Ok(());
        }
        if disk.waiting().is_some_and(|files| files < BURST) {
            disk.hurry.notify_one();
        }
        let closed = host.connection().closed();
        tokio::select! {
            biased;
            () = cancel.cancelled() => Err(HostFailure::Cancelled.into()),
            // The request fails on the closed connection; a restarted host reads everything afresh.
            () = closed.cancelled() => Ok(()),
            () = disk.taken_up_to(upto) => Ok(()),
        }
    }
}
