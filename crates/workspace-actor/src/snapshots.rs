//! Which solution snapshot the host holds, and what moved it on: each change the host took (a write's files,
//! or files changed on disk), so that a plan computed on an older snapshot can tell what changed since it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

/// Changes remembered; a plan older than these replays without knowing what changed.
const REMEMBERED: usize = 512;

/// A solution snapshot: the host that holds it and its version there (a restarted host counts afresh).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    pub host_pid: u32,
    pub version: u64,
}

/// What made a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An editor, `git checkout`, another program: seen by the folder watcher, or read before a question.
    Disk,
    /// A write of this service.
    Write { operation: String, tool: String, session_id: String },
}

/// One new snapshot: the files that changed to make it, and who changed them.
#[derive(Debug, Clone)]
pub struct SnapshotChange {
    pub to: Snapshot,
    pub paths: Vec<PathBuf>,
    pub source: Source,
    pub at: SystemTime,
}

/// What happened between a plan's snapshot and the current one.
#[derive(Debug)]
pub enum Since {
    Same,
    /// Every change in between, oldest first.
    Changes(Vec<SnapshotChange>),
    /// Not known change by change: why (the host restarted, or the changes were forgotten).
    Unknown(String),
}

#[derive(Default)]
pub struct SnapshotLog(Mutex<VecDeque<SnapshotChange>>);

impl SnapshotLog {
    /// Remembers the change that made snapshot `change.to`; one that left the version as it was changed nothing.
    pub fn record(&self, change: SnapshotChange) {
        let mut entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.back().is_some_and(|last| last.to == change.to) {
            return;
        }
        if entries.len() == REMEMBERED {
            entries.pop_front();
        }
        entries.push_back(change);
    }

    /// The changes from `basis` to `now`. The host counts one version per change it takes, so the changes are
    /// known only when every version in between is remembered.
    pub fn since(&self, basis: Snapshot, now: Snapshot) -> Since {
        if basis == now {
            return Since::Same;
        }
        if basis.host_pid != now.host_pid {
            return Since::Unknown("the Roslyn host restarted and loaded the solution from disk again".into());
        }
        let entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let changes: Vec<SnapshotChange> = entries
            .iter()
            .filter(|c| c.to.host_pid == now.host_pid && c.to.version > basis.version && c.to.version <= now.version)
            .cloned()
            .collect();
        if now.version < basis.version || changes.len() as u64 != now.version - basis.version {
            return Since::Unknown("the solution was reloaded, or changed more often than is remembered".into());
        }
        Since::Changes(changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(version: u64, source: Source) -> SnapshotChange {
        let to = Snapshot { host_pid: 7, version };
        SnapshotChange { to, paths: vec![PathBuf::from(format!("/w/{version}.cs"))], source, at: SystemTime::now() }
    }

    #[test]
    fn the_changes_between_two_snapshots_are_known_only_when_none_is_missing() {
        let log = SnapshotLog::default();
        log.record(change(3, Source::Disk));
        log.record(change(3, Source::Disk));
        let write = Source::Write { operation: "op-1".into(), tool: "rename_symbol".into(), session_id: "s".into() };
        log.record(change(4, write.clone()));
        let at = |version| Snapshot { host_pid: 7, version };
        assert!(matches!(log.since(at(4), at(4)), Since::Same));
        let Since::Changes(changes) = log.since(at(2), at(4)) else { panic!("both changes are remembered") };
        assert_eq!(changes.iter().map(|c| c.to.version).collect::<Vec<_>>(), [3, 4]);
        assert_eq!(changes[1].source, write);
        // Version 2 came from a load, which is not a recorded change.
        assert!(matches!(log.since(at(1), at(4)), Since::Unknown(_)));
        assert!(matches!(log.since(at(2), Snapshot { host_pid: 8, version: 1 }), Since::Unknown(_)));
    }
}
