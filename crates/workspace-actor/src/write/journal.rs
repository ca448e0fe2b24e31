//! The on-disk record of a write in progress, so that a crash in the middle is undone at the next start.
//!
//! Each write has a folder `<journal dir>/<operation id>/` holding `manifest.json`, a copy of every file it
//! replaces or deletes (`<n>.orig`), and `lock`, locked by the writing process for as long as the write
//! runs: recovery leaves a folder alone while its lock is held, so several service processes can share
//! one journal directory.

use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

const MANIFEST: &str = "manifest.json";
const LOCK: &str = "lock";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Stage {
    /// Temporaries and copies are being written; no target was touched.
    Staged,
    /// Targets are being replaced: a crash leaves some old and some new files.
    Committing,
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
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub path: PathBuf,
    /// The temporary beside `path` that replaces it; none for a deletion.
    pub temp: Option<PathBuf>,
    /// File name (in the operation's folder) of the copy of the original; none for a new file.
    pub backup: Option<String>,
}

/// An open journal folder, locked by this process until dropped or removed.
pub struct Journal {
    dir: PathBuf,
    _lock: File,
}

impl Journal {
    pub fn create(root: &Path, operation: &str) -> std::io::Result<Self> {
        let dir = root.join(operation);
        fs::create_dir_all(&dir)?;
        let lock = File::create(dir.join(LOCK))?;
        lock.lock()?;
        Ok(Self { dir, _lock: lock })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a copy of an original file, durably.
    pub fn save_backup(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        write_durably(&self.dir.join(name), bytes)
    }

    pub fn backup(&self, name: &str) -> std::io::Result<Vec<u8>> {
        fs::read(self.dir.join(name))
    }

    /// Replaces the manifest atomically.
    pub fn save(&self, manifest: &Manifest) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(manifest).map_err(std::io::Error::other)?;
        let temp = self.dir.join("manifest.json.tmp");
        write_durably(&temp, &json)?;
        fs::rename(&temp, self.dir.join(MANIFEST))?;
        sync_dir(&self.dir)
    }

    /// The write is over (done or undone): nothing is left to recover.
    pub fn remove(self) -> std::io::Result<()> {
        fs::remove_dir_all(&self.dir)
    }
}

/// A journal folder found at start.
pub enum Found {
    /// Its process is gone: the write was interrupted.
    Abandoned(Journal, Option<Manifest>),
    /// Locked: a process is writing, or one that just died is still being torn down.
    Held(PathBuf),
}

/// Every journal folder under `root`.
pub fn scan(root: &Path) -> Vec<Found> {
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for dir in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let Ok(lock) = open_lock(&dir) else {
            continue;
        };
        if lock.try_lock().is_err() {
            found.push(Found::Held(dir));
            continue;
        }
        let manifest = read_manifest(&dir);
        found.push(Found::Abandoned(Journal { dir, _lock: lock }, manifest));
    }
    found
}

/// Waits until the process holding a journal releases it; `None` when it finished and removed the folder.
pub fn wait_for(dir: &Path) -> Option<(Journal, Option<Manifest>)> {
    let lock = open_lock(dir).ok()?;
    lock.lock().ok()?;
    if !dir.exists() {
        return None;
    }
    let manifest = read_manifest(dir);
    Some((Journal { dir: dir.to_path_buf(), _lock: lock }, manifest))
}

fn open_lock(dir: &Path) -> std::io::Result<File> {
    // Never created here: a folder without its lock file is not a journal.
    File::options().write(true).open(dir.join(LOCK))
}

fn read_manifest(dir: &Path) -> Option<Manifest> {
    fs::read(dir.join(MANIFEST)).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok())
}

pub fn write_durably(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}
