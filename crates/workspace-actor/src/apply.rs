//! A refactoring's write: under the caller's write lock, files are replaced atomically and the host is told
//! before the write counts as done. A failure, a timeout or a cancellation at any step restores every file.
//! Every path is admitted by the call's [`Walls`] at the moment it is touched.

use crate::checksum::sha256_hex;
use crate::host_update;
use crate::write::{Change, FileWrite, Outcome, Transaction, Walls};
use crate::{Workspace, WriteGuard};
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostProcess;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

impl Workspace {
    /// Writes `writes` as one operation and brings the host's view up to date, all before `deadline`,
    /// touching nothing outside `walls`, under this workspace's write lock (held until the write ends).
    pub async fn write(
        &self,
        guard: WriteGuard,
        operation: &str,
        walls: Walls,
        writes: Vec<FileWrite>,
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<Vec<Outcome>, ToolError> {
        if !guard.is_of(&self.write_lock) {
            return Err(ToolError::new(ErrorCode::ROSLYN_ERROR, "a write was given the lock of another workspace"));
        }
        let _guard = guard;
        let _in_use = self.begin_call().await;
        let host = self.acquire().await?;
        // Known before anything is written, so that the watcher can never see these files as foreign.
        let planned: Vec<Outcome> = writes.iter().map(planned_outcome).collect();
        let (root, op, solution) = (self.settings.journal_dir.clone(), operation.to_owned(), self.solution.clone());
        let transaction = blocking(move || Transaction::prepare(&root, &op, &solution, walls, &writes)).await?;
        if Instant::now() >= deadline {
            return Err(self.roll_back(transaction, &host, self.timeout_error()).await);
        }
        self.remember(&planned);
        let (transaction, committed) = blocking(move || {
            let mut transaction = transaction;
            let result = transaction.commit();
            Ok((transaction, result))
        })
        .await?;
        let result = match committed {
            Ok(()) => self.confirm(&host, &planned, deadline, cancel).await,
            Err(error) => Err(error),
        };
        match result {
            Ok(()) => {
                blocking(move || {
                    transaction.finish();
                    Ok(())
                })
                .await?;
                Ok(planned)
            }
            Err(error) => Err(self.roll_back(transaction, &host, error).await),
        }
    }

    /// Tells the host which files changed and waits for its new snapshot, within the deadline.
    async fn confirm(
        &self,
        host: &HostProcess,
        outcomes: &[Outcome],
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<(), ToolError> {
        let work = async {
            if let Some(release) = &self.settings.apply_hold {
                while !release.exists() {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            let limit = deadline.saturating_duration_since(Instant::now());
            host_update::send(host, &self.status, paths(outcomes), limit, cancel).await
        };
        match tokio::time::timeout_at(deadline, work).await {
            Err(_) => Err(self.timeout_error()),
            Ok(Err(failure)) if failure.is_crash() => {
                Err(ToolError::new(ErrorCode::ROSLYN_ERROR, "The Roslyn host exited while the write was being applied")
                    .suggest("Retry: the host restarts and loads the solution from disk"))
            }
            Ok(Err(failure)) => Err(ToolError::from(failure)),
            Ok(Ok(())) => Ok(()),
        }
    }

    /// Restores every file, tells a live host, and returns `error` marked as rolled back.
    async fn roll_back(&self, transaction: Transaction, host: &Arc<HostProcess>, error: ToolError) -> ToolError {
        match blocking(move || transaction.rollback()).await {
            Ok(restored) => {
                self.remember(&restored);
                if !host.connection().is_closed() {
                    let never = CancellationToken::new();
                    let sent =
                        host_update::send(host, &self.status, paths(&restored), self.settings.request_timeout, &never);
                    if let Err(failure) = sent.await {
                        tracing::warn!(%failure, "host did not take the restored files");
                    }
                }
                error.detail("rolledBack", true)
            }
            Err(undo) => {
                tracing::error!(%undo, %error, "a failed write could not be undone; its journal is kept");
                undo.detail("rolledBack", false).detail("cause", error.to_string())
            }
        }
    }

    fn remember(&self, outcomes: &[Outcome]) {
        for (path, sha256) in outcomes {
            self.own_writes.record(path, sha256.clone());
        }
    }

    fn timeout_error(&self) -> ToolError {
        ToolError::new(ErrorCode::TIMEOUT, "The write exceeded its time limit; every file was restored")
            .detail("timeoutMs", self.settings.write_timeout.as_millis() as u64)
            .suggest("Retry, or raise the write timeout (at most 120 s)")
    }
}

/// What a write leaves at its path: the hash of the new text, or nothing for a deletion.
fn planned_outcome(write: &FileWrite) -> Outcome {
    let sha256 = match &write.change {
        Change::Write { text, .. } => Some(sha256_hex(text.as_bytes())),
        Change::Delete { .. } => None,
    };
    (write.path.clone(), sha256)
}

fn paths(outcomes: &[Outcome]) -> impl Iterator<Item = PathBuf> + '_ {
    outcomes.iter().map(|(path, _)| path.clone())
}

/// File-system work off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("file-system task failed: {e}"))))
}
