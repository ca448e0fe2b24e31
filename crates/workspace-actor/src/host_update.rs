//! Telling a host which files changed on disk, and recording the snapshot it then reports: the one way both
//! the folder watcher and a refactoring's write bring the host's view up to date.

use crate::snapshots::{Snapshot, SnapshotChange, Source};
use crate::status::StatusCell;
use protocol::host::FileChanges;
use protocol::host::ask;
use roslyn_host::{HostFailure, HostProcess};
use std::path::PathBuf;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Sends `paths` as changed (they exist) or removed (they do not) and waits for the host's new snapshot, which
/// is recorded as made by `source`.
pub async fn send(
    host: &HostProcess,
    status: &StatusCell,
    paths: impl IntoIterator<Item = PathBuf>,
    source: Source,
    limit: Duration,
    cancel: &CancellationToken,
) -> Result<(), HostFailure> {
    let paths: Vec<PathBuf> = paths.into_iter().collect();
    let (changed, removed): (Vec<&PathBuf>, Vec<&PathBuf>) = paths.iter().partition(|p| p.exists());
    let changes = FileChanges {
        changed: changed.iter().map(|p| p.display().to_string()).collect(),
        removed: removed.iter().map(|p| p.display().to_string()).collect(),
    };
    tracing::debug!(changed = changes.changed.len(), removed = changes.removed.len(), "applying file changes");
    let reply = host.connection().ask(ask::apply_file_changes(changes), limit, cancel).await?;
    status.loaded(&reply.body, reply.workspace_version);
    let to = Snapshot { host_pid: host.pid(), version: reply.workspace_version };
    status.snapshots.record(SnapshotChange { to, paths, source, at: std::time::SystemTime::now() });
    Ok(())
}
