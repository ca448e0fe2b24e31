//! The on-disk record of a write in progress, so that a crash in the middle is undone at the next start.
//!
//! Each write has a folder `<journal dir>/<operation id>/` holding `manifest.json`, a copy of every file it
//! replaces or deletes (`<n>.orig`), and `lock`, locked by the writing process for as long as the write
//! runs: recovery leaves a folder alone while its lock is held, so several service processes can share
//! one journal directory. A folder is made under a hidden name and renamed into place with its lock, so a
//! visible folder without `lock` is one whose removal began: its write was over, finished or undone. The
//! copies hold other people's source: folders are 0700, files 0600.

use super::fault::{JournalHold, JournalStep};
use paths::Roots;
use serde::{Deserialize, Serialize};
use std::fs::{self, DirBuilder, File, Permissions};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

const MANIFEST: &str = "manifest.json";
const LOCK: &str = "lock";
/// The end of a folder's hidden name while it is made, before it is renamed into place with its lock.
const MAKING: &str = ".making";
/// Modes of the journal's folders and files: only the service's user reads the copies.
const PRIVATE_DIR: u32 = 0o700;
pub const PRIVATE_FILE: u32 = 0o600;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Stage {
    /// Temporaries and copies are being written; no target was touched.
    Staged,
    /// Targets are being replaced: a crash leaves some old and some new files.
    Committing,
    /// Every target is replaced, the host has the new files and the history has the operation: the write
    /// stands, whatever happens to this folder now.
    Done,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub operation: String,
    pub solution: PathBuf,
    pub stage: Stage,
    pub entries: Vec<Entry>,
    /// Folders the write creates, outermost first; removed again on undo when empty.
    pub created_dirs: Vec<PathBuf>,
    /// Where the write, and so its undo, may touch files. Absent in journals of earlier versions: the
    /// solution's folder then.
    #[serde(default)]
    pub walls: Option<Roots>,
}

impl Manifest {
    pub fn roots(&self) -> Roots {
        self.walls
            .clone()
            .unwrap_or_else(|| Roots::new(vec![self.solution.parent().unwrap_or(&self.solution).to_path_buf()], None))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub path: PathBuf,
    /// The temporary beside `path` that replaces it; none for a deletion.
    pub temp: Option<PathBuf>,
    /// File name (in the operation's folder) of the copy of the original; none for a new file.
    pub backup: Option<String>,
    /// The original's mode and owner, which its replacement and its restoration get.
    #[serde(default)]
    pub access: Option<Access>,
}

/// A file's mode and owner: what a replaced or restored file keeps besides its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

impl Access {
    pub fn of(metadata: &fs::Metadata) -> Self {
        Self { mode: metadata.mode() & 0o7777, uid: metadata.uid(), gid: metadata.gid() }
    }

    /// Gives `file` this owner where permitted (as root, or a group of the same user) and this mode.
    fn apply(&self, file: &File) -> std::io::Result<()> {
        let now = Self::of(&file.metadata()?);
        if (now.uid, now.gid) != (self.uid, self.gid) {
            match std::os::unix::fs::fchown(file, Some(self.uid), Some(self.gid)) {
                Err(e) if e.kind() == ErrorKind::PermissionDenied => {
                    tracing::debug!(uid = self.uid, gid = self.gid, "cannot give a file its owner back")
                }
                other => other?,
            }
        }
        // After the owner: changing it may clear set-id bits.
        file.set_permissions(Permissions::from_mode(self.mode))
    }
}

/// An open journal folder, locked by this process until dropped or removed.
pub struct Journal {
    dir: PathBuf,
    _lock: File,
}

impl Journal {
    pub fn create(root: &Path, operation: &str) -> std::io::Result<Self> {
        paths::create_private_dir(root)?;
        let (making, dir) = (root.join(format!(".{operation}{MAKING}")), root.join(operation));
        DirBuilder::new().mode(PRIVATE_DIR).create(&making)?;
        let lock = File::options().write(true).create_new(true).mode(PRIVATE_FILE).open(making.join(LOCK))?;
        lock.lock()?;
        if dir.symlink_metadata().is_ok() {
            let _ = fs::remove_dir_all(&making);
            return Err(std::io::Error::new(ErrorKind::AlreadyExists, format!("{} exists", dir.display())));
        }
        fs::rename(&making, &dir)?;
        Ok(Self { dir, _lock: lock })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a copy of an original file, durably.
    pub fn save_backup(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        write_new(&self.dir.join(name), bytes, PRIVATE_FILE, None)
    }

    pub fn backup(&self, name: &str) -> std::io::Result<Vec<u8>> {
        fs::read(self.dir.join(name))
    }

    /// Replaces the manifest atomically.
    pub fn save(&self, manifest: &Manifest) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(manifest).map_err(std::io::Error::other)?;
        let temp = self.dir.join("manifest.json.tmp");
        remove_if_present(&temp)?; // left by a save that failed half-way
        write_new(&temp, &json, PRIVATE_FILE, None)?;
        fs::rename(&temp, self.dir.join(MANIFEST))?;
        sync_dir(&self.dir)
    }

    /// The write is over (done or undone): nothing is left to recover. The lock file goes first, so a
    /// removal cut short leaves a folder that recovery knows to be over.
    pub fn remove(self, hold: Option<&JournalHold>) -> std::io::Result<()> {
        remove_if_present(&self.dir.join(LOCK))?;
        sync_dir(&self.dir)?;
        JournalHold::at(hold, JournalStep::Removing);
        fs::remove_dir_all(&self.dir)
    }
}

/// A journal folder found at start.
pub enum Found {
    /// Its process is gone: the write was interrupted.
    Abandoned(Journal, Option<Manifest>),
    /// Locked: a process is writing, or one that just died is still being torn down.
    Held(PathBuf),
    /// Its removal began (no lock file): the write was over; what is left is leftovers.
    Over(PathBuf, Option<Manifest>),
}

/// Every journal folder under `root`; folders still being made are skipped while their maker may live.
pub fn scan(root: &Path) -> Vec<Found> {
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for dir in entries.flatten().map(|e| e.path()).filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir())) {
        let making = dir.file_name().is_some_and(|n| n.to_string_lossy().ends_with(MAKING));
        match open_lock(&dir) {
            Ok(lock) if lock.try_lock().is_err() => found.push(Found::Held(dir)),
            Ok(_) if making => {
                // Its maker died before renaming it into place: nothing was written under it.
                let _ = fs::remove_dir_all(&dir);
            }
            Ok(lock) => {
                let manifest = read_manifest(&dir);
                found.push(Found::Abandoned(Journal { dir, _lock: lock }, manifest));
            }
            Err(_) if making => {
                // Made an instant ago (its lock comes next), or by a process that died in that instant.
                let stale = dir
                    .symlink_metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t.elapsed().unwrap_or_default() > std::time::Duration::from_secs(60));
                if stale {
                    let _ = fs::remove_dir_all(&dir);
                }
            }
            Err(_) => {
                let manifest = read_manifest(&dir);
                found.push(Found::Over(dir, manifest));
            }
        }
    }
    found
}

/// Waits until the process holding a journal releases it; `None` when it finished and removed the folder.
pub fn wait_for(dir: &Path) -> Option<Found> {
    let lock = open_lock(dir).ok()?;
    lock.lock().ok()?;
    if !dir.exists() {
        return None;
    }
    let manifest = read_manifest(dir);
    if !dir.join(LOCK).exists() {
        // Its process began removing it, and died doing so.
        return Some(Found::Over(dir.to_path_buf(), manifest));
    }
    Some(Found::Abandoned(Journal { dir: dir.to_path_buf(), _lock: lock }, manifest))
}

fn open_lock(dir: &Path) -> std::io::Result<File> {
    // Never created here: a folder without its lock file is one whose removal began.
    File::options().write(true).open(dir.join(LOCK))
}

fn read_manifest(dir: &Path) -> Option<Manifest> {
    fs::read(dir.join(MANIFEST)).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok())
}

/// Creates `path` with `bytes`, durably: never through an existing file or link (`create_new`), with
/// `mode` (less the umask) from the start, then `access` when given, before the data is synced.
pub fn write_new(path: &Path, bytes: &[u8], mode: u32, access: Option<&Access>) -> std::io::Result<()> {
    let mut file = File::options().write(true).create_new(true).mode(mode).open(path)?;
    file.write_all(bytes)?;
    if let Some(access) = access {
        access.apply(&file)?;
    }
    file.sync_all()
}

pub fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}
