//! Watches a solution's folder and forwards changes of source and project files to the ready host, in
//! order. Each event is reported to the workspace's [`DiskQueue`] as it arrives; a batch goes to the host once
//! it settled, or at once when a call's barrier needs it (see [`crate::Workspace::barrier`]). Changes seen
//! while no host is ready wait for the next one (a fresh load reads them anyway). Files the service wrote
//! itself are not forwarded: the write already told the host.

use crate::disk_queue::{Batch, Report};
use crate::fence::Fence;
use crate::host_update;
use crate::shared::Shared;
use crate::snapshots::Source;
use crate::watch_fault::{OverflowFault, Seen};
use notify::event::{CreateKind, Flag, ModifyKind, RemoveKind, RenameMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Extensions whose changes the host must see.
const WATCHED: &[&str] = &["cs", "csproj", "props", "targets", "sln", "slnx"];
/// Folders whose contents are build output or tooling state, never sources (below the solution's folder:
/// a solution may itself live under a folder of such a name).
const IGNORED_DIRS: &[&str] = &["bin", "obj", ".git", ".vs", "node_modules"];
/// How often a waiting batch looks for a ready host.
const RETRY: Duration = Duration::from_millis(100);

/// Watches the solution's folder off the async threads, until the workspace stops; when it cannot, says so in
/// the status.
pub async fn start(shared: &Arc<Shared>) {
    if let Some(hold) = &shared.settings.start_hold {
        while hold.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let watched = shared.clone();
    let error = match tokio::task::spawn_blocking(move || watch(watched)).await {
        Ok(Ok(())) => return,
        Ok(Err(error)) => error.to_string(),
        Err(panicked) => panicked.to_string(),
    };
    // Usually the inotify watch limit: the service still answers, but edits are not seen.
    tracing::error!(%error, solution = %shared.solution.display(), "cannot watch the solution folder");
    shared.status.update(|s| s.warnings.push(format!("file watching unavailable: {error}")));
}

/// Starts watching the solution's folder and the fence's, on one watch so that their events come in the
/// order they happened. The forwarder owns the watch: both end when the workspace stops.
fn watch(shared: Arc<Shared>) -> notify::Result<()> {
    let root = shared.solution.parent().unwrap_or(&shared.solution).to_path_buf();
    let fence = match Fence::new(&shared.settings.fence_dir) {
        Ok(fence) => Some(Arc::new(fence)),
        Err(error) => {
            // Changes are still forwarded once settled; a call may answer before the latest are in.
            tracing::error!(%error, "cannot make the file watch's fence folder");
            shared.status.update(|s| s.warnings.push(format!("no disk barrier (fence folder: {error})")));
            None
        }
    };
    let reported = (shared.clone(), fence.clone(), root.clone());
    let fault = shared.settings.overflow_fault.clone().map(OverflowFault::new);
    let mut watcher = notify::recommended_watcher(move |result: notify::Result<Event>| match result {
        Ok(event) => match fault.as_ref().map_or(Seen::Pass, |fault| fault.sees(&event)) {
            Seen::Pass => report(&reported.0, reported.1.as_deref(), &reported.2, event),
            Seen::Drop => {}
            Seen::Overflow => {
                report(&reported.0, reported.1.as_deref(), &reported.2, Event::default().set_flag(Flag::Rescan))
            }
        },
        Err(error) => tracing::warn!(%error, "file watcher error"),
    })?;
    if let Some(fence) = &fence {
        watcher.watch(fence.dir(), RecursiveMode::NonRecursive)?;
    }
    watcher.watch(&root, RecursiveMode::Recursive)?;
    let watcher = Arc::new(Mutex::new(watcher));
    if let Some(fence) = fence {
        let _ = shared.fence.set(fence);
    }
    shared.spawn(Forwarder { shared: shared.clone(), watcher }.run());
    Ok(())
}

/// Puts one event in the queue, on the watch's own thread, in the order events come.
fn report(shared: &Shared, fence: Option<&Fence>, root: &Path, event: Event) {
    let queue = &shared.disk;
    if event.need_rescan() {
        // Events were lost, fences perhaps among them: every call waiting on one goes on to the resync.
        tracing::warn!(solution = %shared.solution.display(), "the file watch overflowed; reading the solution again");
        shared.status.update(|s| s.watch_overflows += 1);
        queue.report(Report::Overflow);
        if let Some(fence) = fence {
            fence.release_all();
        }
        return;
    }
    for path in event.paths {
        if fence.is_some_and(|fence| fence.arrived(&path, &event.kind)) {
            continue;
        }
        if ignored(path.strip_prefix(root).unwrap_or(&path)) {
            continue;
        }
        if watched(&path) {
            if changes_content(&event.kind) {
                queue.report(Report::File(path));
            }
            continue;
        }
        match event.kind {
            EventKind::Create(CreateKind::Folder)
            | EventKind::Create(CreateKind::Any)
            | EventKind::Modify(ModifyKind::Name(RenameMode::To))
                if path.is_dir() =>
            {
                queue.report(Report::Folder(path))
            }
            EventKind::Remove(RemoveKind::Folder) | EventKind::Modify(ModifyKind::Name(RenameMode::From))
                if !editor_scratch(&path) =>
            {
                queue.report(Report::Gone(path))
            }
            _ => {}
        }
    }
}

/// Reads (the host's own loads among them) and metadata changes leave a file's text as it was; a rename's
/// `Both` repeats its `From` and `To`.
fn changes_content(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Access(_)
            | EventKind::Modify(ModifyKind::Metadata(_))
            | EventKind::Modify(ModifyKind::Name(RenameMode::Both))
    )
}

fn watched(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| WATCHED.contains(&e))
}

fn ignored(path: &Path) -> bool {
    path.components().any(|c| IGNORED_DIRS.iter().any(|d| c.as_os_str() == *d))
}

/// An editor's swap or backup file renamed away: never a folder of sources.
fn editor_scratch(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.starts_with('.') || name.ends_with('~') || name.ends_with(".swp") || name.ends_with(".tmp")
}

/// Where reported changes go: the ready host of one solution.
struct Forwarder {
    shared: Arc<Shared>,
    watcher: Arc<Mutex<RecommendedWatcher>>,
}

impl Forwarder {
    async fn run(self) {
        let queue = &self.shared.disk;
        loop {
            while queue.waiting().is_none() {
                queue.arrived.notified().await;
            }
            self.settled().await;
            let host = self.host().await;
            let (batch, upto) = queue.take();
            let (shared, watcher) = (self.shared.clone(), self.watcher.clone());
            let paths = tokio::task::spawn_blocking(move || expand(&shared, &watcher, batch)).await.unwrap_or_default();
            if !paths.is_empty() {
                self.send(&host, paths).await;
            }
            queue.taken(upto);
        }
    }

    /// Once no change came for the settle time (or the batch is at its cap), or a call's barrier hurries it.
    async fn settled(&self) {
        let queue = &self.shared.disk;
        while let Some(due) = queue.due(self.shared.settings.debounce) {
            if tokio::time::Instant::now() >= due {
                return;
            }
            tokio::select! {
                biased;
                () = queue.hurry.notified() => return,
                () = tokio::time::sleep_until(due) => {}
                () = queue.arrived.notified() => {}
            }
        }
    }

    async fn host(&self) -> Arc<roslyn_host::HostProcess> {
        loop {
            if let Some(host) = self.shared.live_host() {
                return host;
            }
            tokio::time::sleep(RETRY).await;
        }
    }

    async fn send(&self, host: &roslyn_host::HostProcess, paths: Vec<PathBuf>) {
        let shared = &self.shared;
        shared.settings.events.files_changed(&shared.solution, paths.len());
        let (cancel, limit) = (CancellationToken::new(), shared.settings.request_timeout);
        match host_update::send(host, &shared.status, paths, Source::Disk, limit, &cancel).await {
            Ok(()) => {}
            // The restarted host loads everything afresh.
            Err(error) if error.is_crash() => tracing::warn!(%error, "host lost while applying file changes"),
            Err(error) => tracing::warn!(%error, "host refused file changes"),
        }
    }
}

/// The paths a batch tells the host of: its files but those the service wrote itself, the files of new
/// folders (watched first, then read, so that none written meanwhile is missed), the paths gone that may have
/// been folders, and after lost events the solution itself (which reloads it).
fn expand(shared: &Shared, watcher: &Mutex<RecommendedWatcher>, batch: Batch) -> Vec<PathBuf> {
    let Batch { mut files, folders, gone, resync } = batch;
    for folder in folders {
        if let Err(error) =
            watcher.lock().unwrap_or_else(PoisonError::into_inner).watch(&folder, RecursiveMode::Recursive)
        {
            tracing::debug!(%error, folder = %folder.display(), "a new folder went before it was watched");
        }
        sources_in(&folder, &mut files);
    }
    files.retain(|path| !shared.own_writes.is_own(path));
    files.extend(gone.into_iter().filter(|path| !path.exists()));
    if resync {
        files.insert(shared.solution.clone());
    }
    files.into_iter().collect()
}

/// The source and project files under `folder`, build output and tooling state left out; symbolic links
/// are not followed.
fn sources_in(folder: &Path, found: &mut std::collections::BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let (path, Ok(kind)) = (entry.path(), entry.file_type()) else { continue };
        if IGNORED_DIRS.iter().any(|d| entry.file_name() == *d) {
            continue;
        }
        if kind.is_dir() {
            sources_in(&path, found);
        } else if kind.is_file() && watched(&path) {
            found.insert(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_of_a_new_folder_are_found_at_any_depth_without_its_build_output() {
        let dir = tempfile::tempdir().expect("temp dir");
        let deep = dir.path().join("Feature/Deep/Deeper");
        std::fs::create_dir_all(&deep).expect("folders");
        std::fs::create_dir_all(dir.path().join("Feature/obj")).expect("obj");
        std::fs::write(deep.join("A.cs"), "class A {}").expect("write");
        std::fs::write(dir.path().join("Feature/B.cs"), "class B {}").expect("write");
        std::fs::write(dir.path().join("Feature/notes.txt"), "").expect("write");
        std::fs::write(dir.path().join("Feature/obj/G.cs"), "class G {}").expect("write");
        let mut found = std::collections::BTreeSet::new();
        sources_in(&dir.path().join("Feature"), &mut found);
        let names: Vec<_> = found.iter().map(|p| p.strip_prefix(dir.path()).expect("under").to_owned()).collect();
        assert_eq!(names, [PathBuf::from("Feature/B.cs"), PathBuf::from("Feature/Deep/Deeper/A.cs")]);
    }
}
