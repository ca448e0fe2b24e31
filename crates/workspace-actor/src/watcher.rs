//! Watches a solution's folder and forwards settled changes of source and project files to the ready host,
//! in order. Changes seen while no host is ready wait for the next one (a fresh load reads them anyway).
//! Files the service wrote itself are not forwarded: the write already told the host.

use crate::host_update;
use crate::shared::Shared;
use crate::snapshots::Source;
use notify::event::ModifyKind;
use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

pub type FolderWatcher = Debouncer<notify::RecommendedWatcher, RecommendedCache>;

/// Extensions whose changes the host must see.
const WATCHED: &[&str] = &["cs", "csproj", "props", "targets", "sln", "slnx"];
/// Folders whose contents are build output or tooling state, never sources.
const IGNORED_DIRS: &[&str] = &["bin", "obj", ".git", ".vs", "node_modules"];
/// How often a waiting batch looks for a ready host.
const RETRY: Duration = Duration::from_millis(100);

/// Watches the solution's folder off the async threads; `None` (with a warning in the status) when it cannot.
pub async fn start(shared: &Arc<Shared>) -> Option<FolderWatcher> {
    if let Some(hold) = &shared.settings.start_hold {
        while hold.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let watched = shared.clone();
    let error = match tokio::task::spawn_blocking(move || watch(watched)).await {
        Ok(Ok(watcher)) => return Some(watcher),
        Ok(Err(error)) => error.to_string(),
        Err(panicked) => panicked.to_string(),
    };
    // Usually the inotify watch limit: the service still answers, but edits are not seen.
    tracing::error!(%error, solution = %shared.solution.display(), "cannot watch the solution folder");
    shared.status.update(|s| s.warnings.push(format!("file watching unavailable: {error}")));
    None
}

/// Starts watching the solution's folder; the forwarder stops when the returned watcher is dropped.
fn watch(shared: Arc<Shared>) -> notify::Result<FolderWatcher> {
    let root = shared.solution.parent().unwrap_or(&shared.solution).to_path_buf();
    let (solution, own_writes) = (shared.solution.clone(), shared.own_writes.clone());
    let (tx, rx) = mpsc::unbounded_channel::<Vec<PathBuf>>();
    let mut debouncer =
        new_debouncer(shared.settings.debounce, None, move |result: DebounceEventResult| match result {
            Ok(events) => {
                let rescan = events.iter().any(|e| e.event.need_rescan());
                let mut paths: Vec<PathBuf> = events
                    .into_iter()
                    .filter(|e| changes_content(&e.event.kind))
                    .flat_map(|e| e.event.paths)
                    .filter(|p| relevant(p) && !own_writes.is_own(p))
                    .collect();
                if rescan {
                    // Events were lost: a changed solution file makes the host reload everything.
                    tracing::warn!("file watcher overflowed; reloading the solution");
                    paths.push(solution.clone());
                }
                if !paths.is_empty() {
                    let _ = tx.send(paths);
                }
            }
            Err(errors) => tracing::warn!(?errors, "file watcher error"),
        })?;
    debouncer.watch(&root, RecursiveMode::Recursive)?;
    shared.spawn(Forwarder(shared.clone()).run(rx));
    Ok(debouncer)
}

/// Reads (the host's own loads among them) and metadata changes leave a file's text as it was.
fn changes_content(kind: &EventKind) -> bool {
    !matches!(kind, EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)))
}

fn relevant(path: &Path) -> bool {
    let watched = path.extension().and_then(|e| e.to_str()).is_some_and(|e| WATCHED.contains(&e));
    watched && !path.components().any(|c| IGNORED_DIRS.iter().any(|d| c.as_os_str() == *d))
}

/// Where settled changes go: the ready host of one solution.
struct Forwarder(Arc<Shared>);

impl Forwarder {
    async fn run(self, mut rx: mpsc::UnboundedReceiver<Vec<PathBuf>>) {
        let mut waiting = BTreeSet::new();
        loop {
            if waiting.is_empty() {
                match rx.recv().await {
                    Some(paths) => waiting.extend(paths),
                    None => return,
                }
            }
            while let Ok(paths) = rx.try_recv() {
                waiting.extend(paths);
            }
            let Some(host) = self.0.live_host() else {
                tokio::select! {
                    _ = tokio::time::sleep(RETRY) => continue,
                    more = rx.recv() => match more {
                        Some(paths) => { waiting.extend(paths); continue }
                        None => return,
                    },
                }
            };
            let paths = std::mem::take(&mut waiting);
            let shared = &self.0;
            shared.settings.events.files_changed(&shared.solution, paths.len());
            let (cancel, limit) = (CancellationToken::new(), shared.settings.request_timeout);
            match host_update::send(&host, &shared.status, paths, Source::Disk, limit, &cancel).await {
                Ok(()) => {}
                Err(error) if error.is_crash() => {
                    // The restarted host loads everything afresh.
                    tracing::warn!(%error, "host lost while applying file changes");
                }
                Err(error) => tracing::warn!(%error, "host refused file changes"),
            }
        }
    }
}
