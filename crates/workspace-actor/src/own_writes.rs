//! Files the service wrote itself, so that the watcher does not report them back to the host as foreign
//! edits: an event for such a path is dropped while the file still holds what the service wrote.

use crate::checksum::{sha256_hex, without_bom};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Events arrive within the debounce time; an entry older than this is forgotten.
const REMEMBER_FOR: Duration = Duration::from_secs(60);

/// What the service left at a path (its text hash, or `None` for deleted), and when.
type Left = (Option<String>, Instant);

#[derive(Clone, Default)]
pub struct OwnWrites(Arc<Mutex<HashMap<PathBuf, Left>>>);

impl OwnWrites {
    /// The service left each path with its text hash, or deleted it (`None`). Entries past their time are
    /// forgotten once per batch, not once per file.
    pub fn record<'a>(&self, left: impl IntoIterator<Item = (&'a Path, Option<String>)>) {
        let mut entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|_, (_, at)| at.elapsed() < REMEMBER_FOR);
        let now = Instant::now();
        for (path, sha256) in left {
            entries.insert(path.to_path_buf(), (sha256, now));
        }
    }

    /// Whether `path` is as the service left it, so that an event for it carries nothing new.
    pub fn is_own(&self, path: &Path) -> bool {
        // Read outside the lock: a write recording its files does not wait for the watcher's reads.
        let expected = {
            let entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            match entries.get(path) {
                Some((expected, at)) if at.elapsed() < REMEMBER_FOR => expected.clone(),
                _ => return false,
            }
        };
        match std::fs::read(path) {
            Ok(bytes) => expected.as_deref() == Some(sha256_hex(without_bom(&bytes)).as_str()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => expected.is_none(),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_own_until_someone_else_changes_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("A.cs");
        std::fs::write(&path, "class A {}").expect("write");
        let own = OwnWrites::default();
        assert!(!own.is_own(&path), "never recorded");
        own.record([(path.as_path(), Some(sha256_hex(b"class A {}")))]);
        assert!(own.is_own(&path));
        std::fs::write(&path, "class B {}").expect("write");
        assert!(!own.is_own(&path), "edited by someone else");
        std::fs::remove_file(&path).expect("remove");
        own.record([(path.as_path(), None)]);
        assert!(own.is_own(&path), "deleted by the service");
    }
}
