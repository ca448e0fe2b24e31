//! Atomic replacement of several files: validate everything, copy the originals into the journal, write
//! temporaries beside their targets, then rename them into place. Any failure before the end restores every
//! file; a crash leaves a journal that [`recover`] undoes. Every path is admitted by the call's [`Roots`]
//! right before it is touched (the file operations take only an [`Admitted`] path), and replaced or
//! restored files keep their mode and owner.

use super::fault::{JournalHold, JournalStep};
use super::journal::{
    Access, Entry, Found, Journal, Manifest, PRIVATE_FILE, Stage, scan, sync_dir, wait_for, write_new,
};
use super::record::{Content, FileRecord};
use crate::checksum::{sha256_hex, with_bom_of, without_bom};
use paths::{Admitted, Roots};
use protocol::{ErrorCode, ToolError};
use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{ErrorKind, Read};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode a new file is created with, less the umask, as editors create them.
const NEW_FILE: u32 = 0o666;

/// One file of a write.
#[derive(Debug, Clone)]
pub struct FileWrite {
    pub path: PathBuf,
    pub change: Change,
}

#[derive(Debug, Clone)]
pub enum Change {
    /// New text for the file. `base` is the sha256 of the text it must have now, or `None` if it must not
    /// exist yet.
    Write {
        text: String,
        base: Option<String>,
    },
    Delete {
        base: String,
    },
    /// Exact bytes, as an undo or redo puts back: `base` as for `Write`; a file that does not exist now is
    /// created with `mode`.
    Restore {
        bytes: Vec<u8>,
        mode: u32,
        base: Option<String>,
    },
}

/// A path as a write or an undo left it: its text hash, or `None` when it no longer exists.
pub type Outcome = (PathBuf, Option<String>);

/// A file as it was before the write: its bytes, and its mode and owner.
pub struct Original {
    pub bytes: Vec<u8>,
    access: Access,
}

pub struct Transaction {
    journal: Journal,
    manifest: Manifest,
    roots: Roots,
    /// Every file before and after, for the history.
    records: Vec<FileRecord>,
    /// The test knob that pauses the write at one step of its journal.
    hold: Option<JournalHold>,
}

impl Transaction {
    /// Checks that every file is as the edits expect and can be written, saves the originals and writes the
    /// temporaries. No target is touched; on failure nothing is left behind.
    pub fn prepare(
        root: &Path,
        operation: &str,
        solution: &Path,
        roots: Roots,
        writes: &[FileWrite],
    ) -> Result<Self, ToolError> {
        let journal = Journal::create(root, operation).map_err(|e| {
            fs_error(root, "cannot create the write journal", &e).detail("journalDir", root.display().to_string())
        })?;
        let mut transaction = Self {
            journal,
            manifest: Manifest {
                operation: operation.to_owned(),
                solution: solution.to_path_buf(),
                stage: Stage::Staged,
                entries: Vec::new(),
                created_dirs: Vec::new(),
                walls: Some(roots.clone()),
            },
            roots,
            records: Vec::with_capacity(writes.len()),
            hold: None,
        };
        match transaction.stage(writes) {
            Ok(()) => Ok(transaction),
            Err(error) => {
                if let Err(undo) = transaction.rollback() {
                    tracing::error!(%undo, "cleaning up a refused write failed");
                }
                Err(error)
            }
        }
    }

    fn stage(&mut self, writes: &[FileWrite]) -> Result<(), ToolError> {
        let originals = self.current(writes)?;
        let mut contents = Vec::with_capacity(writes.len());
        for ((index, write), original) in writes.iter().enumerate().zip(originals) {
            let backup = match &original {
                Some(original) => {
                    let name = format!("{index}.orig");
                    self.journal
                        .save_backup(&name, &original.bytes)
                        .map_err(|e| fs_error(self.journal.dir(), "cannot save a copy of the original", &e))?;
                    Some(name)
                }
                None => None,
            };
            let (content, new_mode) = match &write.change {
                Change::Write { text, .. } => {
                    (Some(with_bom_of(original.as_ref().map(|o| o.bytes.as_slice()), text)), None)
                }
                Change::Restore { bytes, mode, .. } => (Some(bytes.clone()), Some(*mode)),
                Change::Delete { .. } => (None, None),
            };
            let temp = content.as_ref().map(|_| temp_beside(&write.path, &self.manifest.operation));
            self.records.push(FileRecord {
                path: write.path.clone(),
                before: original.as_ref().map(|o| Content { bytes: o.bytes.clone(), mode: o.access.mode }),
                // A file created anew gets its mode below, once its temporary exists.
                after: content
                    .clone()
                    .map(|bytes| Content { bytes, mode: original.as_ref().map_or(0, |o| o.access.mode) }),
            });
            contents.push(content.map(|bytes| (bytes, new_mode)));
            let access = original.map(|o| o.access);
            self.manifest.entries.push(Entry { path: write.path.clone(), temp, backup, access });
            for dir in missing_dirs(&write.path) {
                if !self.manifest.created_dirs.contains(&dir) {
                    self.manifest.created_dirs.push(dir);
                }
            }
        }
        self.save()?;
        for dir in &self.manifest.created_dirs {
            create_folder(&self.roots.admit_write(dir)?).map_err(|e| fs_error(dir, "cannot create the folder", &e))?;
        }
        for ((entry, content), record) in self.manifest.entries.iter().zip(contents).zip(&mut self.records) {
            if let (Some(temp), Some((bytes, mode))) = (&entry.temp, content) {
                write_temp(&self.roots.admit_write(temp)?, &bytes, entry.access.as_ref(), mode)
                    .map_err(|e| fs_error(&entry.path, "cannot write beside the file", &e))?;
                if let (Some(after), None) = (&mut record.after, &entry.access) {
                    after.mode = fs::symlink_metadata(temp).map(|m| m.permissions().mode() & 0o7777).unwrap_or(0o644);
                }
            }
        }
        Ok(())
    }

    /// Every file as it is now, each admitted and checked to be as its write expects; STALE_PLAN names every
    /// file that moved on, so that one refusal says all there is to recompute.
    fn current(&self, writes: &[FileWrite]) -> Result<Vec<Option<Original>>, ToolError> {
        let mut originals = Vec::with_capacity(writes.len());
        let mut stale = Vec::new();
        for write in writes {
            self.roots.admit_write(&write.path)?;
            match check(write) {
                Ok(original) => originals.push(original),
                Err(error) if error.code == ErrorCode::STALE_PLAN => stale.push(write.path.display().to_string()),
                Err(error) => return Err(error),
            }
        }
        if stale.is_empty() {
            return Ok(originals);
        }
        Err(ToolError::new(
            ErrorCode::STALE_PLAN,
            format!(
                "{} file(s) changed since the plan was computed: {}; nothing was written",
                stale.len(),
                stale.join(", ")
            ),
        )
        .detail("files", stale)
        .suggest("Compute the plan again: run the tool once more (with preview: true to review it first)"))
    }

    /// Pauses this write at `hold`'s step (a test knob; `Staged` is now).
    pub fn held(mut self, hold: Option<JournalHold>) -> Self {
        self.hold = hold;
        JournalHold::at(self.hold.as_ref(), JournalStep::Staged);
        self
    }

    /// Every file of the write, before and after: what the history keeps to undo it.
    pub fn records(&self) -> &[FileRecord] {
        &self.records
    }

    /// Renames every temporary into place and removes deleted files. On error some targets may be new:
    /// the caller rolls back.
    pub fn commit(&mut self) -> Result<(), ToolError> {
        // The last check before any target changes: a folder swapped for a link since staging is refused
        // while every file is still as it was.
        let mut admitted = Vec::with_capacity(self.manifest.entries.len());
        for entry in &self.manifest.entries {
            let temp = entry.temp.as_deref().map(|temp| self.roots.admit_write(temp)).transpose()?;
            admitted.push((temp, self.roots.admit_write(&entry.path)?));
        }
        self.manifest.stage = Stage::Committing;
        self.save()?;
        for (index, (entry, (temp, path))) in self.manifest.entries.iter().zip(&admitted).enumerate() {
            match temp {
                Some(temp) => {
                    fs::rename(temp, path).map_err(|e| fs_error(&entry.path, "cannot replace the file", &e))?
                }
                None => fs::remove_file(path).map_err(|e| fs_error(&entry.path, "cannot delete the file", &e))?,
            }
            if index == 0 {
                JournalHold::at(self.hold.as_ref(), JournalStep::Replacing);
            }
        }
        // The renames are durable once each folder they happened in is synced, once.
        let folders: BTreeSet<&Path> = self.manifest.entries.iter().filter_map(|e| e.path.parent()).collect();
        for folder in folders {
            let _ = sync_dir(folder);
        }
        Ok(())
    }

    /// The write is complete (the host and the history have it): it stands from here on, and the originals
    /// are forgotten. Recovery rolls a journal marked done forward, never back.
    pub fn finish(mut self) {
        JournalHold::at(self.hold.as_ref(), JournalStep::Recorded);
        self.manifest.stage = Stage::Done;
        if let Err(error) = self.save() {
            tracing::warn!(%error, "cannot mark a finished write's journal done");
        }
        self.remove_emptied_folders();
        if let Err(error) = self.journal.remove(self.hold.as_ref()) {
            tracing::warn!(%error, "cannot remove a finished write's journal");
        }
    }

    /// Removes each folder this write's deletions left empty, and each above it that is left empty in turn,
    /// up to the solution's folder or the deepest root holding the file (the workspace's or the client's),
    /// both kept. An undo that puts a file back creates its folders again. A folder something else fills in
    /// the meantime is not empty, so it stays.
    fn remove_emptied_folders(&self) {
        let solution = &self.manifest.solution;
        let Some(top) = (if solution.is_dir() { Some(solution.as_path()) } else { solution.parent() }) else { return };
        let mut folders: Vec<&Path> =
            self.manifest.entries.iter().filter(|e| e.temp.is_none()).filter_map(|e| e.path.parent()).collect();
        // Deepest first, so that a parent is tried after its children.
        folders.sort_by_key(|f| std::cmp::Reverse(f.components().count()));
        folders.dedup();
        for folder in folders {
            for dir in folder.ancestors().take_while(|d| d.starts_with(top) && *d != top) {
                let emptied = self
                    .roots
                    .admit_write(dir)
                    .is_ok_and(|dir| !self.roots.is_root(dir.path()) && fs::remove_dir(dir).is_ok());
                if !emptied {
                    break;
                }
            }
        }
    }

    /// Puts every file back as it was before [`Transaction::prepare`]; the journal stays if that fails.
    pub fn rollback(self) -> Result<Vec<Outcome>, ToolError> {
        undo(self.journal, &self.manifest)
    }

    fn save(&self) -> Result<(), ToolError> {
        self.journal.save(&self.manifest).map_err(|e| fs_error(self.journal.dir(), "cannot write the journal", &e))
    }
}

/// Whether the history records an operation of a solution: a write it records is complete.
pub type Recorded = std::sync::Arc<dyn Fn(&Path, &str) -> bool + Send + Sync>;

/// Settles every write a crash interrupted, returning the ids of those it undid: a write not yet done is
/// undone, one marked done, whose journal's removal began, or that the history already records (`recorded`:
/// the solution and the operation) stands, and its folder goes either way. A journal still locked (another process writes,
/// or a crashed one is still being torn down) is watched in the background and settled if its process ends
/// without finishing it.
pub fn recover(root: &Path, recorded: Recorded) -> Vec<String> {
    let mut undone = Vec::new();
    // Originals are restored from what the journal says: only from a folder nobody else controls.
    if root.exists() && !paths::is_private_dir(root) {
        tracing::warn!(journal = %root.display(), "not recovering from a journal folder that is not private");
        return undone;
    }
    for found in scan(root) {
        match found {
            Found::Held(dir) => {
                let recorded = recorded.clone();
                std::thread::spawn(move || {
                    if let Some(operation) = wait_for(&dir).and_then(|found| settle(found, &recorded)) {
                        tracing::warn!(operation, "undid a write whose process ended during start-up");
                    }
                });
            }
            found => undone.extend(settle(found, &recorded)),
        }
    }
    undone
}

/// Settles one journal nobody holds; the operation id when it was undone.
fn settle(found: Found, recorded: &Recorded) -> Option<String> {
    match found {
        Found::Held(_) => None,
        Found::Over(dir, manifest) => {
            remove_over(&dir, manifest.as_ref());
            None
        }
        Found::Abandoned(journal, Some(manifest)) if stands(&manifest, recorded) => {
            tracing::info!(operation = manifest.operation, "a finished write's journal was left: removed");
            let dir = journal.dir().to_path_buf();
            drop(journal);
            remove_over(&dir, Some(&manifest));
            None
        }
        Found::Abandoned(journal, Some(manifest)) => match undo(journal, &manifest) {
            Ok(_) => Some(manifest.operation),
            Err(error) => {
                tracing::error!(%error, operation = manifest.operation, "cannot undo an interrupted write");
                None
            }
        },
        Found::Abandoned(journal, None) => {
            // Died before its manifest (only copies of originals were written): nothing was touched.
            let _ = journal.remove(None);
            None
        }
    }
}

/// Whether an interrupted write is complete: marked done, or recorded in the history (which happens only
/// once every file is replaced and the host has them) and not cut short before its renames ended.
fn stands(manifest: &Manifest, recorded: &Recorded) -> bool {
    manifest.stage == Stage::Done
        || manifest.stage == Stage::Committing
            && manifest.entries.iter().filter_map(|e| e.temp.as_ref()).all(|temp| temp.symlink_metadata().is_err())
            && recorded(&manifest.solution, &manifest.operation)
}

/// The folder of a write that is over: its temporaries (none, unless its removal raced a crash) and the
/// folder itself go; the files stay as the write left them.
fn remove_over(dir: &Path, manifest: Option<&Manifest>) {
    if let Some(manifest) = manifest {
        let roots = manifest.roots();
        for temp in manifest.entries.iter().filter_map(|e| e.temp.as_ref()) {
            if let Ok(temp) = roots.admit_write(temp) {
                let _ = remove_if_present(&temp);
            }
        }
    }
    if let Err(error) = fs::remove_dir_all(dir) {
        tracing::warn!(%error, journal = %dir.display(), "cannot remove a finished write's journal");
    }
}

fn undo(journal: Journal, manifest: &Manifest) -> Result<Vec<Outcome>, ToolError> {
    let roots = manifest.roots();
    let mut outcomes = Vec::new();
    for entry in &manifest.entries {
        if let Some(temp) = &entry.temp {
            // Our own leftover, but removing it outside the roots would still be a write outside them.
            match roots.admit_write(temp) {
                Ok(temp) => remove_if_present(&temp)?,
                Err(refused) => tracing::warn!(%refused, "a temporary is left where the roots no longer reach"),
            }
        }
        if manifest.stage != Stage::Committing {
            continue;
        }
        let path = roots.admit_write(&entry.path)?;
        match &entry.backup {
            Some(name) => {
                let original =
                    journal.backup(name).map_err(|e| fs_error(journal.dir(), "cannot read a saved original", &e))?;
                if read_unlinked(path.path()).ok().map(|o| o.bytes).as_deref() != Some(original.as_slice()) {
                    let temp = roots.admit_write(&temp_beside(&entry.path, &manifest.operation))?;
                    write_temp(&temp, &original, entry.access.as_ref(), None)
                        .and_then(|()| fs::rename(&temp, &path))
                        .map_err(|e| fs_error(&entry.path, "cannot restore the file", &e))?;
                }
                outcomes.push((entry.path.clone(), Some(sha256_hex(without_bom(&original)))));
            }
            None => {
                remove_if_present(&path)?;
                outcomes.push((entry.path.clone(), None));
            }
        }
    }
    for dir in manifest.created_dirs.iter().rev().filter_map(|dir| roots.admit_write(dir).ok()) {
        let _ = fs::remove_dir(dir); // only when empty
    }
    journal.remove(None).map_err(|e| fs_error(&manifest.solution, "cannot remove the write journal", &e))?;
    Ok(outcomes)
}

/// The file as it is now, after checking that it is as the edit expects (else STALE_PLAN) and, if it
/// exists, writable (else FILESYSTEM_ERROR).
pub fn check(write: &FileWrite) -> Result<Option<Original>, ToolError> {
    let path = &write.path;
    let current = match read_unlinked(path) {
        Ok(original) => Some(original),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(fs_error(path, "cannot read the file", &e)),
    };
    let expected = match &write.change {
        Change::Write { base, .. } | Change::Restore { base, .. } => base.as_deref(),
        Change::Delete { base } => Some(base.as_str()),
    };
    let actual = current.as_ref().map(|o| sha256_hex(without_bom(&o.bytes)));
    if actual.as_deref() != expected {
        let what = match (&actual, expected) {
            (Some(_), None) => "now exists",
            (None, Some(_)) => "no longer exists",
            _ => "changed on disk",
        };
        return Err(ToolError::new(
            ErrorCode::STALE_PLAN,
            format!("{} {what} since the plan was computed", path.display()),
        )
        .detail("file", path.display().to_string())
        .suggest("Retry: the solution is updated from disk first"));
    }
    if current.as_ref().is_some_and(|o| o.access.mode & 0o222 == 0) {
        return Err(ToolError::new(
            ErrorCode::FILESYSTEM_ERROR,
            format!("{} is read-only; nothing was changed", path.display()),
        )
        .detail("file", path.display().to_string())
        .suggest("Make the file writable and retry"));
    }
    Ok(current)
}

/// The bytes of a file now, or none when it does not exist; a final link is not followed.
pub fn read_current(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    match read_unlinked(path) {
        Ok(original) => Ok(Some(original.bytes)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads a file without following a link in its last component: the write gate refuses links, and one that
/// appears after their check is not read through either.
fn read_unlinked(path: &Path) -> std::io::Result<Original> {
    let mut file = File::options().read(true).custom_flags(libc::O_NOFOLLOW).open(path)?;
    let access = Access::of(&file.metadata()?);
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(Original { bytes, access })
}

/// Writes a temporary that replaces a file: it gets the original's mode and owner before it is renamed
/// in (and is private until then); a new file gets `mode` when one is given (a file put back by undo),
/// else the usual mode.
fn write_temp(temp: &Admitted, bytes: &[u8], access: Option<&Access>, mode: Option<u32>) -> std::io::Result<()> {
    match (access, mode) {
        (Some(access), _) => write_new(temp.path(), bytes, PRIVATE_FILE, Some(access)),
        (None, Some(mode)) => {
            write_new(temp.path(), bytes, PRIVATE_FILE, None)?;
            fs::set_permissions(temp, fs::Permissions::from_mode(mode))
        }
        (None, None) => write_new(temp.path(), bytes, NEW_FILE, None),
    }
}

/// Creates one folder; one that appeared meanwhile is fine if it is a folder.
fn create_folder(dir: &Admitted) -> std::io::Result<()> {
    match fs::create_dir(dir) {
        Err(e) if e.kind() == ErrorKind::AlreadyExists && dir.path().symlink_metadata().is_ok_and(|m| m.is_dir()) => {
            Ok(())
        }
        other => other,
    }
}

/// Folders above `path` that do not exist yet, outermost first.
fn missing_dirs(path: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<PathBuf> =
        path.ancestors().skip(1).take_while(|dir| dir.symlink_metadata().is_err()).map(Path::to_path_buf).collect();
    missing.reverse();
    missing
}

fn temp_beside(path: &Path, operation: &str) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let short: String = operation.chars().take(8).collect();
    path.with_file_name(format!(".{name}.{short}.tmp"))
}

fn remove_if_present(path: &Admitted) -> Result<(), ToolError> {
    super::journal::remove_if_present(path.path()).map_err(|e| fs_error(path.path(), "cannot remove the file", &e))
}

fn fs_error(path: &Path, what: &str, error: &std::io::Error) -> ToolError {
    ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("{what}: {}: {error}", path.display()))
        .detail("file", path.display().to_string())
        .detail("ioError", error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never_recorded() -> Recorded {
        std::sync::Arc::new(|_, _| false)
    }

    struct Setup {
        _dir: tempfile::TempDir,
        root: PathBuf,
        journal: PathBuf,
    }

    impl Setup {
        fn roots(&self) -> Roots {
            Roots::new(vec![self.root.clone()], None)
        }
    }

    fn setup(files: &[(&str, &str)]) -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = fs::canonicalize(dir.path()).expect("canonical").join("src");
        fs::create_dir_all(&root).expect("src");
        for (name, text) in files {
            fs::write(root.join(name), text).expect("write");
        }
        let journal = dir.path().join("journal");
        Setup { _dir: dir, root, journal }
    }

    fn replace(path: &Path, old: &str, new: &str) -> FileWrite {
        FileWrite {
            path: path.to_path_buf(),
            change: Change::Write { text: new.into(), base: Some(sha256_hex(old.as_bytes())) },
        }
    }

    fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = walk(dir).into_iter().map(|p| (p.clone(), fs::read(&p).expect("read"))).collect();
        files.sort();
        files
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .flat_map(|e| if e.path().is_dir() { walk(&e.path()) } else { vec![e.path()] })
            .collect()
    }

    #[test]
    fn a_restore_puts_back_exact_bytes_and_the_mode_it_names_and_records_both_sides() {
        use std::os::unix::fs::PermissionsExt;
        let s = setup(&[("A.cs", "class A2 {}")]);
        let bom_bytes = b"\xEF\xBB\xBFclass A {}\r\n".to_vec();
        let writes = vec![
            FileWrite {
                path: s.root.join("A.cs"),
                change: Change::Restore {
                    bytes: bom_bytes.clone(),
                    mode: 0o600,
                    base: Some(sha256_hex(b"class A2 {}")),
                },
            },
            FileWrite {
                path: s.root.join("B.cs"),
                change: Change::Restore { bytes: b"b".to_vec(), mode: 0o666, base: None },
            },
        ];
        let mut transaction = Transaction::prepare(&s.journal, "op1", &s.root, s.roots(), &writes).expect("prepared");
        transaction.commit().expect("committed");
        let records = transaction.records().to_vec();
        transaction.finish();
        assert_eq!(
            fs::read(s.root.join("A.cs")).expect("A"),
            bom_bytes,
            "the bytes as given, byte order mark included"
        );
        let mode = |name: &str| fs::metadata(s.root.join(name)).expect("exists").permissions().mode() & 0o7777;
        assert_eq!(mode("B.cs"), 0o666, "a file brought back gets its own mode, not the umask's");
        assert_eq!(records[0].before.as_ref().map(|c| c.bytes.as_slice()), Some(b"class A2 {}".as_slice()));
        assert_eq!(records[1].before, None);
        assert_eq!(records[1].after.as_ref().map(|c| c.mode), Some(0o666));
    }

    #[test]
    fn commit_replaces_creates_and_deletes_then_forgets_the_journal() {
        let s = setup(&[("A.cs", "class A {}"), ("B.cs", "class B {}")]);
        let writes = vec![
            replace(&s.root.join("A.cs"), "class A {}", "class A2 {}"),
            FileWrite { path: s.root.join("B.cs"), change: Change::Delete { base: sha256_hex(b"class B {}") } },
            FileWrite {
                path: s.root.join("New/C.cs"),
                change: Change::Write { text: "class C {}".into(), base: None },
            },
        ];
        let mut transaction = Transaction::prepare(&s.journal, "op1", &s.root, s.roots(), &writes).expect("prepared");
        assert_eq!(fs::read_to_string(s.root.join("A.cs")).expect("A"), "class A {}", "prepare touches no target");
        transaction.commit().expect("committed");
        transaction.finish();
        assert_eq!(fs::read_to_string(s.root.join("A.cs")).expect("A"), "class A2 {}");
        assert!(!s.root.join("B.cs").exists());
        assert_eq!(fs::read_to_string(s.root.join("New/C.cs")).expect("C"), "class C {}");
        assert!(walk(&s.journal).is_empty(), "journal left: {:?}", walk(&s.journal));
        assert_eq!(walk(&s.root).len(), 2, "no temporaries left: {:?}", walk(&s.root));
    }

    #[test]
    fn folders_the_deletions_empty_are_removed_up_to_the_solution_folder_and_no_further() {
        let s = setup(&[("Keep.cs", "class K {}")]);
        for (name, text) in [("Deep/Er/X.cs", "class X {}"), ("Deep/Y.cs", "class Y {}"), ("Full/Z.cs", "class Z {}")] {
            fs::create_dir_all(s.root.join(name).parent().expect("folder")).expect("folder");
            fs::write(s.root.join(name), text).expect("write");
        }
        fs::write(s.root.join("Full/notes.txt"), "kept").expect("write");
        let delete = |name: &str, text: &str| FileWrite {
            path: s.root.join(name),
            change: Change::Delete { base: sha256_hex(text.as_bytes()) },
        };
        let writes = vec![
            delete("Deep/Er/X.cs", "class X {}"),
            delete("Deep/Y.cs", "class Y {}"),
            delete("Full/Z.cs", "class Z {}"),
            delete("Keep.cs", "class K {}"),
        ];
        let mut transaction = Transaction::prepare(&s.journal, "op1", &s.root, s.roots(), &writes).expect("prepared");
        transaction.commit().expect("committed");
        transaction.finish();
        assert!(!s.root.join("Deep").exists(), "Deep and Deep/Er are left empty: both go");
        assert!(s.root.join("Full").is_dir(), "a folder with another file stays");
        assert!(s.root.is_dir(), "the solution's folder stays, even empty of C#");
    }

    #[test]
    fn emptied_folders_are_removed_up_to_the_deepest_root_holding_the_file_never_a_root_itself() {
        let s = setup(&[]);
        let files = [("Client/Sub/A.cs", "class A {}"), ("Ws/Deep/B.cs", "class B {}")];
        let mut writes = Vec::new();
        for (name, text) in files {
            fs::create_dir_all(s.root.join(name).parent().expect("folder")).expect("folder");
            fs::write(s.root.join(name), text).expect("write");
            writes.push(FileWrite {
                path: s.root.join(name),
                change: Change::Delete { base: sha256_hex(text.as_bytes()) },
            });
        }
        // A client root that each write empties, and a workspace root below a client root.
        let roots = Roots::new(
            vec![s.root.clone(), s.root.join("Ws/Deep")],
            Some(vec![s.root.join("Client"), s.root.join("Ws")]),
        );
        let mut transaction = Transaction::prepare(&s.journal, "op1", &s.root, roots, &writes).expect("prepared");
        transaction.commit().expect("committed");
        transaction.finish();
        assert!(!s.root.join("Client/Sub").exists(), "a folder left empty under the root goes");
        assert!(s.root.join("Client").is_dir(), "the client's root stays, empty");
        assert!(s.root.join("Ws/Deep").is_dir(), "a workspace root stays, empty");
    }

    #[test]
    fn a_failure_in_the_middle_of_the_renames_restores_every_file() {
        let s = setup(&[("A.cs", "class A {}"), ("B.cs", "class B {}")]);
        let before = snapshot(&s.root);
        let writes = vec![
            replace(&s.root.join("A.cs"), "class A {}", "class A2 {}"),
            replace(&s.root.join("B.cs"), "class B {}", "class B2 {}"),
            FileWrite {
                path: s.root.join("New/C.cs"),
                change: Change::Write { text: "class C {}".into(), base: None },
            },
        ];
        let mut transaction = Transaction::prepare(&s.journal, "op2", &s.root, s.roots(), &writes).expect("prepared");
        // The second rename fails: its temporary is gone.
        fs::remove_file(s.root.join(".B.cs.op2.tmp")).expect("temp of B");
        assert_eq!(transaction.commit().expect_err("rename fails").code, ErrorCode::FILESYSTEM_ERROR);
        assert_eq!(fs::read_to_string(s.root.join("A.cs")).expect("A"), "class A2 {}", "A was already replaced");
        let restored = transaction.rollback().expect("rolled back");
        assert_eq!(restored.len(), 3);
        assert_eq!(snapshot(&s.root), before);
        assert!(!s.root.join("New").exists(), "the created folder is removed again");
        assert!(walk(&s.journal).is_empty());
    }

    #[test]
    fn a_stale_or_read_only_file_is_refused_before_anything_is_written() {
        let s = setup(&[("A.cs", "class A {}"), ("B.cs", "class B {}")]);
        let before = snapshot(&s.root);
        let stale = vec![replace(&s.root.join("A.cs"), "class A {}", "x"), replace(&s.root.join("B.cs"), "old", "y")];
        let error = Transaction::prepare(&s.journal, "op3", &s.root, s.roots(), &stale).err().expect("stale");
        assert_eq!(error.code, ErrorCode::STALE_PLAN);
        let exists =
            vec![FileWrite { path: s.root.join("A.cs"), change: Change::Write { text: "x".into(), base: None } }];
        assert_eq!(
            Transaction::prepare(&s.journal, "op4", &s.root, s.roots(), &exists).err().map(|e| e.code),
            Some(ErrorCode::STALE_PLAN)
        );
        let mut permissions = fs::metadata(s.root.join("B.cs")).expect("B").permissions();
        permissions.set_readonly(true);
        fs::set_permissions(s.root.join("B.cs"), permissions).expect("chmod");
        let writes =
            vec![replace(&s.root.join("A.cs"), "class A {}", "x"), replace(&s.root.join("B.cs"), "class B {}", "y")];
        let error = Transaction::prepare(&s.journal, "op5", &s.root, s.roots(), &writes).err().expect("read-only");
        assert_eq!(error.code, ErrorCode::FILESYSTEM_ERROR);
        assert_eq!(snapshot(&s.root), before);
        assert!(walk(&s.journal).is_empty());
    }

    #[test]
    fn recovery_undoes_a_write_whose_process_died_and_waits_for_a_live_one() {
        let s = setup(&[("A.cs", "class A {}")]);
        let before = snapshot(&s.root);
        let writes = vec![
            replace(&s.root.join("A.cs"), "class A {}", "class A2 {}"),
            FileWrite { path: s.root.join("C.cs"), change: Change::Write { text: "class C {}".into(), base: None } },
        ];
        let mut crashed = Transaction::prepare(&s.journal, "crashed", &s.root, s.roots(), &writes).expect("prepared");
        crashed.commit().expect("committed");
        // A crash: the process ends without finishing or rolling back, and its lock goes with it.
        drop(crashed);
        assert_eq!(recover(&s.journal, never_recorded()), vec!["crashed".to_owned()]);
        assert_eq!(snapshot(&s.root), before);
        assert!(walk(&s.journal).is_empty());

        let mut live = Transaction::prepare(&s.journal, "live", &s.root, s.roots(), &writes).expect("prepared");
        live.commit().expect("committed");
        assert!(
            recover(&s.journal, never_recorded()).is_empty(),
            "a write whose owner holds its lock is not undone under it"
        );
        assert_ne!(snapshot(&s.root), before);
        drop(live); // its owner dies after all: the watcher undoes it
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while snapshot(&s.root) != before || !walk(&s.journal).is_empty() {
            assert!(std::time::Instant::now() < deadline, "not undone: {:?}", walk(&s.journal));
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    #[test]
    fn a_journal_whose_removal_was_cut_short_is_removed_and_its_write_stands() {
        let s = setup(&[("A.cs", "class A {}"), ("B.cs", "class B {}")]);
        let writes = vec![
            replace(&s.root.join("A.cs"), "class A {}", "class A2 {}"),
            replace(&s.root.join("B.cs"), "class B {}", "class B2 {}"),
        ];
        let mut transaction = Transaction::prepare(&s.journal, "op8", &s.root, s.roots(), &writes).expect("prepared");
        transaction.commit().expect("committed");
        let after = snapshot(&s.root);
        // As a daemon killed while removing the folder leaves it: still `committing`, no lock file, some of
        // the originals gone.
        let folder = s.journal.join("op8");
        fs::remove_file(folder.join("lock")).expect("lock");
        fs::remove_file(folder.join("0.orig")).expect("an original");
        drop(transaction);
        assert!(recover(&s.journal, never_recorded()).is_empty(), "nothing is undone");
        assert_eq!(snapshot(&s.root), after, "the write stands");
        assert!(!folder.exists(), "the folder is removed");
    }

    #[test]
    fn a_journal_marked_done_is_rolled_forward_and_one_still_being_made_is_left_to_its_maker() {
        let s = setup(&[("A.cs", "class A {}")]);
        let writes = vec![replace(&s.root.join("A.cs"), "class A {}", "class A2 {}")];
        let mut transaction = Transaction::prepare(&s.journal, "op9", &s.root, s.roots(), &writes).expect("prepared");
        transaction.commit().expect("committed");
        transaction.manifest.stage = Stage::Done;
        transaction.save().expect("marked done");
        drop(transaction); // killed before removing its folder
        let making = s.journal.join(".op10.making");
        fs::create_dir(&making).expect("a folder an instant old, without its lock yet");
        assert!(recover(&s.journal, never_recorded()).is_empty());
        assert_eq!(fs::read_to_string(s.root.join("A.cs")).expect("A"), "class A2 {}", "rolled forward");
        assert!(!s.journal.join("op9").exists());
        assert!(making.exists(), "a folder being made is its maker's");
    }

    #[test]
    fn a_write_that_finishes_while_watched_is_left_as_written() {
        let s = setup(&[("A.cs", "class A {}")]);
        let writes = vec![replace(&s.root.join("A.cs"), "class A {}", "class A2 {}")];
        let mut live = Transaction::prepare(&s.journal, "live", &s.root, s.roots(), &writes).expect("prepared");
        live.commit().expect("committed");
        assert!(recover(&s.journal, never_recorded()).is_empty());
        live.finish();
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(fs::read_to_string(s.root.join("A.cs")).expect("A"), "class A2 {}");
        assert!(walk(&s.journal).is_empty());
    }

    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::symlink_metadata(path).expect("metadata").permissions().mode() & 0o7777
    }

    fn chmod(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
    }

    #[test]
    fn replaced_and_restored_files_keep_their_modes_and_the_journal_is_private() {
        let s = setup(&[("A.cs", "class A {}"), ("B.cs", "class B {}")]);
        chmod(&s.root.join("A.cs"), 0o600);
        chmod(&s.root.join("B.cs"), 0o640);
        let writes = vec![
            replace(&s.root.join("A.cs"), "class A {}", "class A2 {}"),
            replace(&s.root.join("B.cs"), "class B {}", "class B2 {}"),
        ];
        let mut transaction = Transaction::prepare(&s.journal, "op6", &s.root, s.roots(), &writes).expect("prepared");
        let journal = s.journal.join("op6");
        assert_eq!(mode(&journal), 0o700);
        for copy in walk(&journal) {
            assert_eq!(mode(&copy), 0o600, "{} is readable by others", copy.display());
        }
        assert_eq!(mode(&s.root.join(".A.cs.op6.tmp")), 0o600, "the temporary has the original's mode");
        assert_eq!(mode(&s.root.join(".B.cs.op6.tmp")), 0o640);
        transaction.commit().expect("committed");
        assert_eq!((mode(&s.root.join("A.cs")), mode(&s.root.join("B.cs"))), (0o600, 0o640), "replaced");
        transaction.rollback().expect("rolled back");
        assert_eq!(fs::read_to_string(s.root.join("A.cs")).expect("A"), "class A {}");
        assert_eq!((mode(&s.root.join("A.cs")), mode(&s.root.join("B.cs"))), (0o600, 0o640), "restored");
    }

    #[test]
    fn a_folder_swapped_for_a_link_after_staging_is_refused_before_any_rename() {
        let s = setup(&[("A.cs", "class A {}")]);
        let writes = vec![replace(&s.root.join("A.cs"), "class A {}", "class A2 {}")];
        let mut transaction = Transaction::prepare(&s.journal, "op7", &s.root, s.roots(), &writes).expect("prepared");
        // The project's folder is moved out of the roots and a link takes its place.
        let outside = s.journal.parent().expect("base").join("elsewhere");
        fs::rename(&s.root, &outside).expect("move away");
        std::os::unix::fs::symlink(&outside, &s.root).expect("link");
        let error = transaction.commit().expect_err("refused");
        assert_eq!(error.code, ErrorCode::SOURCE_NOT_IN_WORKSPACE);
        assert_eq!(fs::read_to_string(outside.join("A.cs")).expect("A"), "class A {}", "nothing written outside");
        transaction.rollback().expect("nothing to undo");
        assert!(outside.join(".A.cs.op7.tmp").exists(), "a temporary where the roots no longer reach is left");
        assert!(walk(&s.journal).is_empty());
    }

    #[test]
    fn a_temporary_swapped_for_a_link_after_staging_is_never_renamed_in() {
        let s = setup(&[("A.cs", "class A {}")]);
        let outside = s.journal.parent().expect("base").join("secret.cs");
        fs::write(&outside, "secret").expect("outside");
        let writes = vec![replace(&s.root.join("A.cs"), "class A {}", "class A2 {}")];
        let mut transaction = Transaction::prepare(&s.journal, "op8", &s.root, s.roots(), &writes).expect("prepared");
        // Whoever can write the project's folder replaces our temporary with a link to a file outside it,
        // which the rename would put in place of A.cs.
        let temp = s.root.join(".A.cs.op8.tmp");
        fs::remove_file(&temp).expect("temporary");
        std::os::unix::fs::symlink(&outside, &temp).expect("link");
        let error = transaction.commit().expect_err("refused");
        assert_eq!(error.code, ErrorCode::SOURCE_NOT_IN_WORKSPACE);
        transaction.rollback().expect("rolled back");
        let a = s.root.join("A.cs");
        assert!(!a.symlink_metadata().expect("A").file_type().is_symlink(), "A.cs is no link");
        assert_eq!(fs::read_to_string(a).expect("A"), "class A {}");
        assert_eq!(fs::read_to_string(&outside).expect("outside"), "secret");
    }
}
