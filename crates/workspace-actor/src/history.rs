//! The operations applied to one solution, kept on disk under the state folder so that they survive a
//! restart: for every file an operation touched, its bytes and mode before and after. `undo` and `redo`
//! write one side back, merged into a file that changed since where the changes are at other places.
//! Bounded per solution by a count and a size; the oldest operations are forgotten first.
//!
//! Layout: `<history>/<solution key>/<sequence>-<operation id>/record.json` plus one blob per side of each
//! file (`3.before`, `3.after`). An operation's folder is written whole under a temporary name and renamed
//! into place; its state changes by replacing `record.json` the same way. Folders are private (0700), files
//! 0600: they hold the solution's source.

use crate::checksum::{sha256_hex, with_bom_of, without_bom};
use crate::write::{Change, Content, FileRecord, FileWrite, read_current};
use paths::Roots;
use protocol::tools::plans::{FileChangeSummary, HistoryBound, OperationRecord, OperationState, Verification};
use protocol::{ErrorCode, ToolError};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::ErrorKind;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

const RECORD: &str = "record.json";
const PRIVATE_FILE: u32 = 0o600;

/// How a write enters the solution's history: as a new operation, or as the undo or redo of the one kept in
/// a folder. Either is part of the write: if the history cannot keep it, every file is restored.
pub enum Recording {
    New(OperationMeta),
    Step(PathBuf, Direction),
}

/// What the history keeps per solution, unless configured otherwise.
pub const DEFAULT_BOUND: HistoryBound = HistoryBound { max_operations: 100, max_bytes: 256 * 1024 * 1024 };

/// What an applied write is, for the history.
#[derive(Debug, Clone)]
pub struct OperationMeta {
    pub tool: String,
    pub summary: String,
    /// Its tests run after it is written (`verify: "tests"`), within these roots: until their verdict is
    /// recorded it is pending, and a service that ends before that rolls it back at its next start.
    pub verifying: Option<Roots>,
}

/// A written operation whose tests never gave their verdict: the service ended while they ran.
#[derive(Debug)]
pub struct Unverified {
    pub operation: Operation,
    pub solution: PathBuf,
    pub roots: Roots,
}

/// Which way to move an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Undo,
    Redo,
}

impl Direction {
    /// The side of `file` moving this way leaves, and the one it puts back.
    fn sides(self, file: &FileRecord) -> (Option<&Content>, Option<&Content>) {
        match self {
            Direction::Undo => (file.after.as_ref(), file.before.as_ref()),
            Direction::Redo => (file.before.as_ref(), file.after.as_ref()),
        }
    }

    /// The state an operation is in once moved this way.
    pub fn end_state(self) -> OperationState {
        self.states().1
    }

    /// The state an operation must be in to go this way, and the one it ends in.
    fn states(self) -> (OperationState, OperationState) {
        match self {
            Direction::Undo => (OperationState::Applied, OperationState::Undone),
            Direction::Redo => (OperationState::Undone, OperationState::Applied),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    operation_id: String,
    tool: String,
    summary: String,
    applied_at: String,
    state: OperationState,
    files: Vec<FileEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    verification: Option<Verification>,
    /// Written, its tests not done yet: what rolling it back at the next start needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<Pending>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Pending {
    solution: PathBuf,
    roots: Roots,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileEntry {
    path: PathBuf,
    before: Option<Side>,
    after: Option<Side>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Side {
    /// sha256 of the text (byte order mark ignored), as every check of the service compares files.
    sha256: String,
    mode: u32,
    blob: String,
}

/// The history of one solution.
#[derive(Debug, Clone)]
pub struct History {
    dir: PathBuf,
    solution: PathBuf,
    bound: HistoryBound,
}

/// A loaded operation, ready to be written one way or the other.
#[derive(Debug)]
pub struct Operation {
    pub id: String,
    pub state: OperationState,
    pub files: Vec<FileRecord>,
    pub(crate) folder: PathBuf,
}

impl History {
    /// The history of `solution` under `root` (the service's history folder).
    pub fn new(root: &Path, solution: &Path, bound: HistoryBound) -> Self {
        let key = sha256_hex(solution.as_os_str().as_encoded_bytes());
        Self { dir: root.join(&key[..16]), solution: solution.to_path_buf(), bound }
    }

    pub fn bound(&self) -> HistoryBound {
        self.bound.clone()
    }

    /// Keeps a new applied operation, then forgets the oldest ones beyond the bound.
    pub fn record(&self, id: &str, meta: &OperationMeta, files: &[FileRecord]) -> Result<(), ToolError> {
        self.ensure_dir()?;
        let temp = self.dir.join(format!(".new-{id}"));
        let written = (|| {
            create_private(&temp)?;
            let mut entries = Vec::with_capacity(files.len());
            for (index, file) in files.iter().enumerate() {
                let side = |content: &Option<Content>, name: &str| -> std::io::Result<Option<Side>> {
                    let Some(content) = content else { return Ok(None) };
                    let blob = format!("{index}.{name}");
                    write_private(&temp.join(&blob), &content.bytes)?;
                    Ok(Some(Side { sha256: sha256_hex(without_bom(&content.bytes)), mode: content.mode, blob }))
                };
                entries.push(FileEntry {
                    path: file.path.clone(),
                    before: side(&file.before, "before")?,
                    after: side(&file.after, "after")?,
                });
            }
            let record = Record {
                operation_id: id.to_owned(),
                tool: meta.tool.clone(),
                summary: meta.summary.clone(),
                applied_at: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
                state: OperationState::Applied,
                files: entries,
                verification: None,
                pending: meta.verifying.clone().map(|roots| Pending { solution: self.solution.clone(), roots }),
            };
            write_record(&temp, &record)?;
            fs::rename(&temp, self.dir.join(format!("{:020}-{id}", self.next_sequence())))
        })();
        if let Err(error) = written {
            let _ = fs::remove_dir_all(&temp);
            return Err(history_error(&self.dir, "cannot record the operation for undo", &error));
        }
        self.prune();
        Ok(())
    }

    /// Whether the operation `id` is recorded (in whatever state).
    pub fn has(&self, id: &str) -> bool {
        self.folder_of(id).is_some()
    }

    /// Every retained operation, newest first, with whether it can be undone or redone now.
    pub fn list(&self) -> Vec<OperationRecord> {
        self.folders()
            .into_iter()
            .rev()
            .filter_map(|folder| Some((read_record(&folder).ok()?, folder)))
            .map(|(record, folder)| {
                let changed = moved_on(&record);
                let state = record.state;
                let mut files: Vec<String> = record.files.iter().map(|f| f.path.display().to_string()).collect();
                files.sort();
                let mut listed = OperationRecord {
                    operation_id: record.operation_id.clone(),
                    tool: record.tool.clone(),
                    summary: record.summary.clone(),
                    applied_at: record.applied_at.clone(),
                    state,
                    files,
                    can_undo: false,
                    can_redo: false,
                    changed_since: Vec::new(),
                    verification: record.verification.clone(),
                };
                // Files later writes changed still let the step through when it merges into them.
                let direction = if state == OperationState::Applied { Direction::Undo } else { Direction::Redo };
                let steps =
                    changed.is_empty() || operation(folder, record).is_ok_and(|o| o.merged_writes(direction).is_ok());
                (listed.can_undo, listed.can_redo) =
                    (steps && direction == Direction::Undo, steps && direction == Direction::Redo);
                listed.changed_since = changed;
                listed
            })
            .collect()
    }

    /// The operation with this id, checked to be in the state `direction` starts from.
    pub fn load(&self, id: &str, direction: Direction) -> Result<Operation, ToolError> {
        let operation = self.read(id)?;
        let (from, _) = direction.states();
        if operation.state != from {
            let what = if direction == Direction::Undo { "already undone" } else { "not undone" };
            return Err(ToolError::new(ErrorCode::OPERATION_NOT_APPLICABLE, format!("Operation {id} is {what}"))
                .detail("operationId", id)
                .detail("state", serde_json::to_value(operation.state).unwrap_or_default()));
        }
        Ok(operation)
    }

    /// The operations after `id` (newest last) that changed any of `files`: `op-… (tool: summary)`.
    pub fn later_touching(&self, id: &str, files: &[String]) -> Vec<String> {
        let (folders, suffix) = (self.folders(), format!("-{id}"));
        let Some(at) =
            folders.iter().position(|f| f.file_name().is_some_and(|n| n.to_string_lossy().ends_with(&suffix)))
        else {
            return Vec::new();
        };
        folders[at + 1..]
            .iter()
            .filter_map(|folder| read_record(folder).ok())
            .filter(|record| record.files.iter().any(|f| files.iter().any(|p| Path::new(p) == f.path)))
            .map(|record| format!("{} ({}: {})", record.operation_id, record.tool, record.summary))
            .collect()
    }

    /// The operation with this id, in whatever state it is.
    pub fn read(&self, id: &str) -> Result<Operation, ToolError> {
        let folder = self.folder(id)?;
        let record = read_record(&folder).map_err(|e| history_error(&folder, "cannot read the operation", &e))?;
        operation(folder, record)
    }

    /// Records what the operation's tests found (after it, under the write lock).
    pub fn verified(&self, id: &str, verification: &Verification) -> Result<(), ToolError> {
        self.update(id, |record| {
            record.verification = Some(verification.clone());
            record.pending = None;
        })
    }

    /// The operation's verification ended without a verdict, the operation undone: nothing is left to roll
    /// back at the next start.
    pub fn settled(&self, id: &str) -> Result<(), ToolError> {
        self.update(id, |record| record.pending = None)
    }

    fn update(&self, id: &str, change: impl FnOnce(&mut Record)) -> Result<(), ToolError> {
        change_record(&self.folder(id)?, "cannot record the verification", change)
    }

    /// Every operation, of every solution under the history folder `root`, written to be verified and left
    /// without a verdict.
    pub fn unverified(root: &Path) -> Vec<Unverified> {
        let solutions = fs::read_dir(root).into_iter().flatten().flatten().map(|e| e.path());
        solutions
            .flat_map(|dir| operation_folders(&dir))
            .filter_map(|folder| {
                let mut record = read_record(&folder).ok()?;
                let Pending { solution, roots } = record.pending.take()?;
                Some(Unverified { operation: operation(folder, record).ok()?, solution, roots })
            })
            .collect()
    }

    /// Records that the operation in `folder` was cut off by the service's end while its tests ran: undone
    /// when `rolled_back`, else left as it is (its files moved on since).
    pub fn interrupted(folder: &Path, rolled_back: bool) -> Result<(), ToolError> {
        change_record(folder, "cannot record the verification", |record| {
            record.pending = None;
            record.verification = Some(Verification { interrupted: true, ..Verification::default() });
            if rolled_back {
                record.state = OperationState::Undone;
            }
        })
    }

    /// Marks the operation kept in `folder` as moved `direction`; called once its files are written, under
    /// the write lock.
    pub fn mark(folder: &Path, direction: Direction) -> Result<(), ToolError> {
        change_record(folder, "cannot record the operation's new state", |record| record.state = direction.end_state())
    }

    fn ensure_dir(&self) -> Result<(), ToolError> {
        if let Some(parent) = self.dir.parent() {
            paths::create_private_dir(parent).map_err(|e| history_error(parent, "cannot create", &e))?;
        }
        paths::create_private_dir(&self.dir).map_err(|e| history_error(&self.dir, "cannot create", &e))
    }

    fn folder_of(&self, id: &str) -> Option<PathBuf> {
        let suffix = format!("-{id}");
        self.folders()
            .into_iter()
            .find(|folder| folder.file_name().is_some_and(|n| n.to_string_lossy().ends_with(&suffix)))
    }

    /// The folder of operation `id`, else OPERATION_NOT_FOUND.
    fn folder(&self, id: &str) -> Result<PathBuf, ToolError> {
        self.folder_of(id).ok_or_else(|| {
            ToolError::new(ErrorCode::OPERATION_NOT_FOUND, format!("No operation {id} in this solution's history"))
                .detail("operationId", id)
                .suggest("list_operations shows the operations kept for the solution")
        })
    }

    /// Operation folders, oldest first.
    fn folders(&self) -> Vec<PathBuf> {
        operation_folders(&self.dir)
    }

    fn next_sequence(&self) -> u64 {
        let last = self
            .folders()
            .last()
            .and_then(|f| f.file_name()?.to_string_lossy().split('-').next().and_then(|n| n.parse::<u64>().ok()));
        last.map_or(1, |n| n + 1)
    }

    /// Forgets the oldest operations beyond the count, then beyond the size (the newest is always kept).
    fn prune(&self) {
        let mut folders = self.folders();
        let mut sizes: Vec<u64> = folders.iter().map(|f| folder_size(f)).collect();
        while folders.len() > 1
            && (folders.len() > self.bound.max_operations as usize || sizes.iter().sum::<u64>() > self.bound.max_bytes)
        {
            if let Err(error) = fs::remove_dir_all(&folders[0]) {
                tracing::warn!(%error, folder = %folders[0].display(), "cannot forget an old operation");
                return;
            }
            folders.remove(0);
            sizes.remove(0);
        }
    }
}

impl Operation {
    /// The files as moving `direction` changes them: modified, created or deleted.
    pub fn changes(&self, direction: Direction) -> FileChangeSummary {
        let mut changes =
            FileChangeSummary { files_modified: Vec::new(), files_created: Vec::new(), files_deleted: Vec::new() };
        for file in &self.files {
            let list = match direction.sides(file) {
                (_, None) => &mut changes.files_deleted,
                (None, Some(_)) => &mut changes.files_created,
                (Some(_), Some(_)) => &mut changes.files_modified,
            };
            list.push(file.path.display().to_string());
        }
        changes
    }

    /// The writes that move every file from one side to the other, each expecting the side it leaves; STALE_PLAN
    /// naming every file that moved on since (nothing is written then).
    pub fn writes(&self, direction: Direction) -> Result<Vec<FileWrite>, ToolError> {
        let moved: Vec<String> = self
            .files
            .iter()
            .filter(|file| !holds(&file.path, direction.sides(file).0))
            .map(|file| file.path.display().to_string())
            .collect();
        if !moved.is_empty() {
            return Err(self.refusal(direction, moved));
        }
        Ok(self.files.iter().filter_map(|file| step(file, direction)).collect())
    }

    /// As [`Operation::writes`], but a file a later write changed takes the step merged into what it holds now
    /// (3-way, word by word), where the two changed different places: those files are also `merged`. A file
    /// created or deleted on either side, or changed at the same places, still refuses the step: the files
    /// that do (see [`Operation::refusal`]).
    pub fn merged_writes(&self, direction: Direction) -> Result<Steps, Vec<String>> {
        let mut steps = Steps::default();
        let mut conflicts = Vec::new();
        for file in &self.files {
            let (from, to) = direction.sides(file);
            if holds(&file.path, from) {
                steps.writes.extend(step(file, direction));
                continue;
            }
            let now = read_current(&file.path).ok().flatten();
            let merged = match (from, to, &now) {
                (Some(from), Some(to), Some(now)) => merge_text(&from.bytes, &to.bytes, now),
                _ => None,
            };
            let (Some(text), Some(now), Some(to)) = (merged, now, to) else {
                conflicts.push(file.path.display().to_string());
                continue;
            };
            let base = Some(sha256_hex(without_bom(&now)));
            steps.merged.push(file.path.clone());
            let bytes = with_bom_of(Some(&to.bytes), &text);
            steps
                .writes
                .push(FileWrite { path: file.path.clone(), change: Change::Restore { bytes, mode: to.mode, base } });
        }
        if conflicts.is_empty() { Ok(steps) } else { Err(conflicts) }
    }

    /// STALE_PLAN: moving `direction` is refused, since `moved` changed since.
    pub fn refusal(&self, direction: Direction, moved: Vec<String>) -> ToolError {
        let verb = if direction == Direction::Undo { "undone" } else { "redone" };
        ToolError::new(
            ErrorCode::STALE_PLAN,
            format!("Operation {} cannot be {verb}: {} changed since: {}", self.id, moved.len(), moved.join(", ")),
        )
        .detail("operationId", self.id.clone())
        .detail("files", moved)
        .suggest("Nothing was changed; list_operations shows what can still be undone")
    }
}

/// The writes of a step, and the files among them that later writes made merge (then the host checks the
/// whole step to compile before it is written).
#[derive(Debug, Default)]
pub struct Steps {
    pub writes: Vec<FileWrite>,
    pub merged: Vec<PathBuf>,
}

/// The write that moves one file `direction`, expecting the side it leaves.
fn step(file: &FileRecord, direction: Direction) -> Option<FileWrite> {
    let (from, to) = direction.sides(file);
    let base = from.map(|c| sha256_hex(without_bom(&c.bytes)));
    let change = match (to, base) {
        (Some(to), base) => Change::Restore { bytes: to.bytes.clone(), mode: to.mode, base },
        (None, Some(base)) => Change::Delete { base },
        (None, None) => return None,
    };
    Some(FileWrite { path: file.path.clone(), change })
}

/// `to` (the side a step puts back, changed from `from`) merged into `now`; none for a text that is not UTF-8
/// or a conflict.
fn merge_text(from: &[u8], to: &[u8], now: &[u8]) -> Option<String> {
    let text = |bytes: &[u8]| std::str::from_utf8(without_bom(bytes)).ok().map(str::to_owned);
    crate::merge::merge3(&text(from)?, &text(to)?, &text(now)?).ok()
}

/// Whether the file at `path` holds `content` (by the text rule), or is absent when `content` is none.
fn holds(path: &Path, content: Option<&Content>) -> bool {
    text_sha256(path) == content.map(|c| sha256_hex(without_bom(&c.bytes)))
}

/// The text hash of the file now (byte order mark ignored), or none when it does not exist.
fn text_sha256(path: &Path) -> Option<String> {
    read_current(path).ok().flatten().map(|bytes| sha256_hex(without_bom(&bytes)))
}

/// The files that no longer hold what the operation's current state left there.
fn moved_on(record: &Record) -> Vec<String> {
    let mut moved: Vec<String> = record
        .files
        .iter()
        .filter(|file| {
            let side = if record.state == OperationState::Applied { &file.after } else { &file.before };
            text_sha256(&file.path).as_deref() != side.as_ref().map(|s| s.sha256.as_str())
        })
        .map(|file| file.path.display().to_string())
        .collect();
    moved.sort();
    moved
}

/// The operation folders of one solution's history folder `dir`, oldest first.
fn operation_folders(dir: &Path) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    folders.sort();
    folders
}

/// The operation `record` (read from `folder`) describes, with every file's saved sides.
fn operation(folder: PathBuf, record: Record) -> Result<Operation, ToolError> {
    let mut files = Vec::with_capacity(record.files.len());
    for entry in record.files {
        let read = |side: Option<Side>| -> std::io::Result<Option<Content>> {
            side.map(|s| Ok(Content { bytes: fs::read(folder.join(&s.blob))?, mode: s.mode })).transpose()
        };
        let (before, after) = (read(entry.before), read(entry.after));
        let (before, after) =
            before.and_then(|b| Ok((b, after?))).map_err(|e| history_error(&folder, "cannot read a saved file", &e))?;
        files.push(FileRecord { path: entry.path, before, after });
    }
    Ok(Operation { id: record.operation_id, state: record.state, files, folder })
}

/// Reads `record.json` of `folder`, lets `change` change it, and replaces it atomically; `what` says what a
/// failure could not record.
fn change_record(folder: &Path, what: &str, change: impl FnOnce(&mut Record)) -> Result<(), ToolError> {
    let mut record = read_record(folder).map_err(|e| history_error(folder, "cannot read", &e))?;
    change(&mut record);
    write_record(folder, &record).map_err(|e| history_error(folder, what, &e))
}

fn read_record(folder: &Path) -> std::io::Result<Record> {
    let bytes = fs::read(folder.join(RECORD))?;
    serde_json::from_slice(&bytes).map_err(std::io::Error::other)
}

/// Replaces `record.json` atomically.
fn write_record(folder: &Path, record: &Record) -> std::io::Result<()> {
    let temp = folder.join(".record.json.tmp");
    let _ = fs::remove_file(&temp);
    write_private(&temp, &serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?)?;
    fs::rename(&temp, folder.join(RECORD))
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = fs::File::options().write(true).create_new(true).mode(PRIVATE_FILE).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

fn create_private(dir: &Path) -> std::io::Result<()> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    paths::create_private_dir(dir)
}

fn folder_size(folder: &Path) -> u64 {
    fs::read_dir(folder).into_iter().flatten().flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum()
}

fn history_error(path: &Path, what: &str, error: &std::io::Error) -> ToolError {
    ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("{what}: {}: {error}", path.display()))
        .detail("historyDir", path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(text: &str, mode: u32) -> Option<Content> {
        Some(Content { bytes: text.as_bytes().to_vec(), mode })
    }

    fn meta(summary: &str) -> OperationMeta {
        OperationMeta { tool: "rename_symbol".into(), summary: summary.into(), verifying: None }
    }

    struct Setup {
        _dir: tempfile::TempDir,
        src: PathBuf,
        history: History,
    }

    fn setup(bound: HistoryBound) -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let src = dir.path().join("src");
        fs::create_dir_all(&src).expect("src");
        let history = History::new(&dir.path().join("history"), &src.join("App.sln"), bound);
        Setup { _dir: dir, src, history }
    }

    /// A.cs modified from `old` to `new`, B.cs created with `new`.
    fn applied(s: &Setup, id: &str, old: &str, new: &str) -> Vec<FileRecord> {
        let (a, b) = (s.src.join("A.cs"), s.src.join("B.cs"));
        fs::write(&a, new).expect("A");
        fs::write(&b, new).expect("B");
        let files = vec![
            FileRecord { path: a, before: content(old, 0o640), after: content(new, 0o640) },
            FileRecord { path: b, before: None, after: content(new, 0o644) },
        ];
        s.history.record(id, &meta(&format!("op {id}")), &files).expect("recorded");
        files
    }

    #[test]
    fn an_operation_is_listed_newest_first_and_undone_only_while_its_files_hold_what_it_wrote() {
        let s = setup(DEFAULT_BOUND);
        applied(&s, "op-1", "class A {}", "class A1 {}");
        applied(&s, "op-2", "class A1 {}", "class A2 {}");
        let listed = s.history.list();
        assert_eq!(listed.iter().map(|o| o.operation_id.as_str()).collect::<Vec<_>>(), ["op-2", "op-1"]);
        assert!(listed[0].can_undo, "op-2's files hold what it wrote");
        assert!(!listed[1].can_undo, "op-1's files moved on (op-2 wrote over them)");
        assert_eq!(listed[1].changed_since.len(), 2);

        let operation = s.history.load("op-2", Direction::Undo).expect("loaded");
        let writes = operation.writes(Direction::Undo).expect("undoable");
        assert!(
            matches!(&writes[0].change, Change::Restore { bytes, mode: 0o640, base: Some(_) } if bytes == b"class A1 {}")
        );
        assert!(matches!(&writes[1].change, Change::Delete { .. }), "B.cs did not exist before");
        let changes = operation.changes(Direction::Undo);
        assert_eq!((changes.files_modified.len(), changes.files_deleted.len()), (1, 1));

        fs::write(s.src.join("B.cs"), "edited").expect("edit");
        let refused = operation.writes(Direction::Undo).expect_err("refused");
        assert_eq!(refused.code, ErrorCode::STALE_PLAN);
        assert_eq!(
            refused.details.expect("details")["files"],
            serde_json::json!([s.src.join("B.cs").display().to_string()])
        );
    }

    #[test]
    fn an_undone_operation_is_redone_not_undone_again_and_unknown_ids_are_named() {
        let s = setup(DEFAULT_BOUND);
        applied(&s, "op-1", "class A {}", "class A1 {}");
        let operation = s.history.load("op-1", Direction::Undo).expect("loaded");
        History::mark(&operation.folder, Direction::Undo).expect("marked");
        let again = s.history.load("op-1", Direction::Undo).expect_err("refused");
        assert_eq!(again.code, ErrorCode::OPERATION_NOT_APPLICABLE);
        assert_eq!(s.history.load("op-1", Direction::Redo).expect("redoable").state, OperationState::Undone);
        assert_eq!(s.history.load("op-9", Direction::Undo).expect_err("unknown").code, ErrorCode::OPERATION_NOT_FOUND);
        assert_eq!(s.history.list()[0].state, OperationState::Undone);
    }

    #[test]
    fn a_verification_is_kept_with_its_operation_across_a_change_of_state() {
        let s = setup(DEFAULT_BOUND);
        applied(&s, "op-1", "class A {}", "class A1 {}");
        assert_eq!(s.history.list()[0].verification, None);
        let verification = Verification { tests_selected: 2, cases_run: 3, passed: 2, ms: 5, ..Default::default() };
        s.history.verified("op-1", &verification).expect("recorded");
        let operation = s.history.load("op-1", Direction::Undo).expect("loaded");
        History::mark(&operation.folder, Direction::Undo).expect("marked");
        assert_eq!(s.history.list()[0].verification, Some(verification.clone()));
        assert_eq!(
            s.history.verified("op-9", &verification).expect_err("unknown").code,
            ErrorCode::OPERATION_NOT_FOUND
        );
    }

    #[test]
    fn the_oldest_operations_are_forgotten_beyond_the_count_and_the_size() {
        let s = setup(HistoryBound { max_operations: 2, max_bytes: u64::MAX });
        for n in 1..=3 {
            applied(&s, &format!("op-{n}"), "a", "b");
        }
        let ids: Vec<_> = s.history.list().into_iter().map(|o| o.operation_id).collect();
        assert_eq!(ids, ["op-3", "op-2"]);

        let s = setup(HistoryBound { max_operations: 100, max_bytes: 1 });
        applied(&s, "op-1", "a", "b");
        applied(&s, "op-2", "a", "b");
        let ids: Vec<_> = s.history.list().into_iter().map(|o| o.operation_id).collect();
        assert_eq!(ids, ["op-2"], "over the size, only the newest is kept");
    }

    #[test]
    fn the_history_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let s = setup(DEFAULT_BOUND);
        applied(&s, "op-1", "a", "b");
        let folder = s.history.folders().pop().expect("one folder");
        for path in [s.history.dir.clone(), folder.clone(), folder.join(RECORD), folder.join("0.before")] {
            let mode = fs::metadata(&path).expect("exists").permissions().mode() & 0o777;
            assert_eq!(mode & 0o077, 0, "{} is {mode:o}", path.display());
        }
    }
}
