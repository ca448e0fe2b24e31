//! Where test runs build and leave their results: a private folder of the service per solution holding a copy
//! of its repository ([`mirror`]), never the solution's own `bin/` and `obj/`, so a run collides neither with
//! the user's builds nor with their IDE.

pub mod build_log;
pub mod compiler;
pub mod generators;
mod mirror;
pub mod process;

use paths::Roots;
use protocol::{ErrorCode, ToolError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedMutexGuard;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use workspace_actor::checksum::sha256_hex;

/// The test runs of every solution the service serves.
pub struct TestRuns {
    dir: PathBuf,
    /// The service's state folder, never copied into a run's copy.
    state: PathBuf,
    /// One run per solution at a time: a second build would overwrite the assemblies the first one's tests
    /// are running from.
    locks: Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>,
}

/// One run's folders, held for the run: the copy of the solution's repository it builds in (kept between runs
/// with its build output, so a build is incremental) and this run's results (removed when the run is over).
pub struct RunFolders {
    /// The repository's folder the copy mirrors.
    source: PathBuf,
    tree: PathBuf,
    state: PathBuf,
    /// A mark per project whose packages were restored in the copy since a file restoring reads last changed.
    restored: PathBuf,
    pub results: PathBuf,
    _turn: OwnedMutexGuard<()>,
}

impl TestRuns {
    /// The runs under `dir`, whose results folders a killed service left are removed in the background.
    pub fn new(dir: PathBuf, state: PathBuf) -> Self {
        let swept = dir.clone();
        std::thread::spawn(move || sweep_results(&swept));
        let state = paths::existing_real_path(&state).unwrap_or(state);
        Self { dir, state, locks: Mutex::default() }
    }

    /// Waits for the solution's previous run to end (until `deadline`: then WORKSPACE_BUSY), then makes this
    /// run's folders. The copy's root lies inside the call's `roots`, or in the repository at the folder holding
    /// the project folders the solution `reached` there.
    pub async fn begin(
        &self,
        solution: &Path,
        projects: &[&Path],
        roots: &Roots,
        reached: &[PathBuf],
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<RunFolders, ToolError> {
        let lock = self
            .locks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .entry(solution.to_path_buf())
            .or_default()
            .clone();
        let turn = tokio::select! {
            turn = tokio::time::timeout_at(deadline, lock.lock_owned()) => turn.map_err(|_| {
                ToolError::new(ErrorCode::WORKSPACE_BUSY, "Another test run of this solution lasted past this call's time limit")
                    .detail("solutionPath", solution.display().to_string())
                    .suggest("Retry once the other run is over")
            })?,
            () = cancel.cancelled() => return Err(ToolError::new(ErrorCode::TIMEOUT, "The call was cancelled")),
        };
        let base = self.dir.join(digest(solution));
        let (tree, restored) = (base.join("tree"), base.join("restored"));
        let results = base.join(format!("run-{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()));
        // Each level checked, not only made: a folder someone else planted would let them swap what runs. The
        // copy's root is found by looking at the folders above: file-system work, off the async workers too.
        crate::offload::cpu(|| {
            let folder = solution.parent().unwrap_or(Path::new("/"));
            // The projects the solution reaches in sibling folders of its repository come along: the copy
            // starts at their common folder, though it lies above the roots.
            let repository = folder.ancestors().find(|dir| dir.join(".git").exists());
            let reaching = |dir: &Path| {
                repository.is_some_and(|top| dir.starts_with(top)) && reached.iter().any(|f| f.starts_with(dir))
            };
            let all = projects.iter().copied().chain(reached.iter().map(PathBuf::as_path));
            let source = mirror::source_root(folder, all, |dir| roots.contains(dir) || reaching(dir));
            for dir in [&self.dir, &base, &tree, &restored, &results] {
                paths::create_private_dir(dir).map_err(|e| {
                    ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("preparing the test run's folder failed: {e}"))
                })?;
            }
            Ok(RunFolders { source, tree, state: self.state.clone(), restored, results, _turn: turn })
        })
    }
}

impl RunFolders {
    /// Brings the copy up to date with the repository: what the run builds from now on. When a file that
    /// restoring reads changed, every project is restored again at its next build.
    pub fn sync(&self) -> Result<(), ToolError> {
        crate::offload::cpu(|| {
            let synced = mirror::sync(&self.source, &self.tree, &self.state)?;
            if synced.restore_inputs {
                std::fs::remove_dir_all(&self.restored)?;
                paths::create_private_dir(&self.restored)?;
            }
            Ok(())
        })
        .map_err(|e: std::io::Error| {
            ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("copying the solution for the test run failed: {e}"))
        })
    }

    /// Whether the project's packages are restored in the copy as its files are now: its build may skip the
    /// restore (seconds on a large solution).
    pub fn restored(&self, project: &Path) -> bool {
        crate::offload::cpu(|| self.restored.join(digest(project)).exists())
    }

    /// Marks the project restored, after a build that restored it succeeded.
    pub fn mark_restored(&self, project: &Path) {
        // Only a lost speed-up if it cannot be written: the next build restores.
        let _ = crate::offload::cpu(|| std::fs::write(self.restored.join(digest(project)), []));
    }

    /// Whether the copy holds the file: a test project elsewhere is left out of the run.
    pub fn holds(&self, path: &Path) -> bool {
        path.starts_with(&self.source)
    }

    /// Where a file of the repository is in the copy.
    pub fn in_copy(&self, path: &Path) -> PathBuf {
        path.strip_prefix(&self.source).map_or_else(|_| path.to_path_buf(), |rest| self.tree.join(rest))
    }

    /// A runner's or compiler's text (a message, a stack trace, a build log) with the copy's paths made the
    /// repository's again.
    pub fn in_source(&self, text: &str) -> String {
        text.replace(&*self.tree.to_string_lossy(), &self.source.to_string_lossy())
    }
}

/// Removes the results folders (`<solution>/run-<pid>-<id>`) of runs whose service is gone: killed
/// mid-run, it never removed them.
fn sweep_results(dir: &Path) {
    let gone = |name: &str| {
        let pid = name.strip_prefix("run-").and_then(|rest| rest.split('-').next()?.parse::<u32>().ok());
        pid.is_some_and(|pid| !roslyn_host::running(pid))
    };
    for solution in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for run in std::fs::read_dir(solution.path()).into_iter().flatten().flatten() {
            if run.file_name().to_str().is_some_and(gone) && run.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(run.path());
            }
        }
    }
}

/// A path's short name in the service's folders.
fn digest(path: &Path) -> String {
    sha256_hex(path.as_os_str().as_encoded_bytes())[..16].to_owned()
}

impl Drop for RunFolders {
    fn drop(&mut self) {
        // A suite's TRX files can be megabytes: removed off the async workers.
        let _ = crate::offload::cpu(|| std::fs::remove_dir_all(&self.results));
    }
}
