//! A refactoring's write: under the caller's write lock, files are replaced atomically and the host is told
//! before the write counts as done. A failure, a timeout or a cancellation at any step restores every file.
//! Every path is admitted by the call's [`Roots`] at the moment it is touched.

use crate::checksum::{sha256_hex, without_bom};
use crate::history::{Direction, History, Operation, Recording};
use crate::host_update;
use crate::snapshots::Source;
use crate::write::{Change, FileWrite, Outcome, Transaction};
use crate::{Workspace, WriteGuard};
use paths::Roots;
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostProcess;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

impl Workspace {
    /// The operations applied to this solution.
    pub fn history(&self) -> History {
        History::new(
            &self.shared.settings.history_dir,
            &self.shared.solution,
            self.shared.settings.history_bound.clone(),
        )
    }

    /// Undoes or redoes the operation `id` of this solution's history, under the write lock. A file that still
    /// holds what the operation (or its undo) left there is put back; one a later write changed takes the step
    /// merged into it (3-way) where the two changed different places, and the merged files must then compile
    /// (the host checks them first); otherwise STALE_PLAN naming the files and the later operations that
    /// changed them, and nothing changes. The same journaled write as any refactoring's.
    pub async fn step(
        &self,
        guard: &WriteGuard,
        id: &str,
        direction: Direction,
        roots: Roots,
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<(Operation, Vec<Outcome>), ToolError> {
        let history = self.history();
        let (key, way) = (id.to_owned(), direction);
        let (operation, steps) = blocking(move || {
            let operation = history.load(&key, way)?;
            let steps = operation.merged_writes(way).map_err(|files| {
                let later = history.later_touching(&operation.id, &files);
                let refused = operation.refusal(way, files);
                if later.is_empty() {
                    return refused;
                }
                let message = format!("{}; changed at the same places by {}", refused.message, later.join(", "));
                ToolError { message, ..refused }.detail("laterOperations", later)
            })?;
            Ok((operation, steps))
        })
        .await?;
        if !steps.merged.is_empty() {
            self.check_step(&steps.writes, deadline, cancel).await?;
        }
        let writes = steps.writes;
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        let journal = format!("{}-{stamp}-{id}", if direction == Direction::Undo { "undo" } else { "redo" });
        let outcomes = self
            .write(
                guard,
                &journal,
                roots,
                writes,
                deadline,
                cancel,
                Recording::Step(operation.folder.clone(), direction),
            )
            .await?;
        Ok((operation, outcomes))
    }

    /// Writes `writes` as one operation and brings the host's view up to date, all before `deadline`,
    /// touching nothing outside `roots`, under this workspace's write lock (held until the write ends), and
    /// records it in the history as `recording` says.
    #[allow(clippy::too_many_arguments)]
    pub async fn write(
        &self,
        guard: &WriteGuard,
        operation: &str,
        roots: Roots,
        writes: Vec<FileWrite>,
        deadline: Instant,
        cancel: &CancellationToken,
        recording: Recording,
    ) -> Result<Vec<Outcome>, ToolError> {
        if !guard.is_of(&self.write_lock) {
            return Err(ToolError::new(ErrorCode::ROSLYN_ERROR, "a write was given the lock of another workspace"));
        }
        let _in_use = self.begin_call().await;
        let host = self.acquire(cancel).await?;
        // Known before anything is written, so that the watcher can never see these files as foreign.
        let planned: Vec<Outcome> = writes.iter().map(planned_outcome).collect();
        let (root, op, solution) =
            (self.shared.settings.journal_dir.clone(), operation.to_owned(), self.shared.solution.clone());
        let hold = self.shared.settings.journal_hold.clone();
        let transaction =
            blocking(move || Ok(Transaction::prepare(&root, &op, &solution, roots, &writes)?.held(hold))).await?;
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
            Ok(()) => self.confirm(&host, &planned, guard.source(operation), deadline, cancel).await,
            Err(error) => Err(error),
        };
        let (transaction, result) = match result {
            Ok(()) => {
                let (history, operation) = (self.history(), operation.to_owned());
                blocking(move || {
                    let recorded = match recording {
                        Recording::New(meta) => history.record(&operation, &meta, transaction.records()),
                        Recording::Step(folder, direction) => History::mark(&folder, direction),
                    };
                    Ok((transaction, recorded))
                })
                .await?
            }
            Err(error) => (transaction, Err(error)),
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

    /// Asks the host whether a step with texts merged outside Roslyn compiles as well as the files it replaces:
    /// every file it changes in place, together.
    async fn check_step(
        &self,
        writes: &[FileWrite],
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<(), ToolError> {
        let edits = writes
            .iter()
            .filter_map(|write| match &write.change {
                Change::Restore { bytes, base: Some(base), .. } => Some(protocol::host::FileEdit {
                    path: write.path.display().to_string(),
                    kind: protocol::host::EditKind::Modify,
                    base_sha256: base.clone(),
                    new_text: String::from_utf8_lossy(without_bom(bytes)).into_owned(),
                    description: "Undo or redo".into(),
                }),
                _ => None,
            })
            .collect();
        let body =
            protocol::host::RequestBody::CheckEdits(protocol::host::CheckEditsRequest { edits, names: Vec::new() });
        let limit = deadline.saturating_duration_since(Instant::now());
        self.request_within(body, Some(limit), cancel, None).await.map(drop).map_err(ToolError::from)
    }

    /// Tells the host which files changed and waits for its new snapshot, within the deadline.
    async fn confirm(
        &self,
        host: &HostProcess,
        outcomes: &[Outcome],
        source: Source,
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<(), ToolError> {
        let work = async {
            if let Some(release) = &self.shared.settings.apply_hold {
                // A cancellation reaches a held write as it would reach the host's update.
                while !release.exists() {
                    if cancel.is_cancelled() {
                        return Err(roslyn_host::HostFailure::Cancelled);
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            let limit = deadline.saturating_duration_since(Instant::now());
            host_update::send(host, &self.shared.status, paths(outcomes), source, limit, cancel).await
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
                    let (status, limit) = (&self.shared.status, self.shared.settings.request_timeout);
                    let sent = host_update::send(host, status, paths(&restored), Source::Disk, limit, &never);
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
        self.shared.own_writes.record(outcomes.iter().map(|(path, sha256)| (path.as_path(), sha256.clone())));
    }

    fn timeout_error(&self) -> ToolError {
        ToolError::new(ErrorCode::TIMEOUT, "The write exceeded its time limit; every file was restored")
            .detail("timeoutMs", self.shared.settings.write_timeout.as_millis() as u64)
            .suggest("Retry, or raise the write timeout (at most 120 s)")
    }
}

/// What a write leaves at its path: the hash of the new text, or nothing for a deletion.
fn planned_outcome(write: &FileWrite) -> Outcome {
    let sha256 = match &write.change {
        Change::Write { text, .. } => Some(sha256_hex(text.as_bytes())),
        Change::Restore { bytes, .. } => Some(sha256_hex(without_bom(bytes))),
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
