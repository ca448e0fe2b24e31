//! A plan as the client sees it: per-file diffs and checksums in a preview, the file lists and checksums
//! of an applied write; and a plan's edits as the file writes that apply it.

use crate::tools::diff::{self, Budget};
use protocol::host::{EditKind, FileEdit};
use protocol::tools::plans::{ChangeType, FileChangeSummary, PendingChange, PlanSummary};
use std::collections::BTreeMap;
use std::path::Path;
use workspace_actor::checksum::sha256_hex;
use workspace_actor::{Change, FileWrite, Outcome};

/// One entry per edit, with its diff against `current` (the text on disk, none for a new file), every diff
/// within one [`Budget`]. CPU work in proportion to the texts: call it off the async threads.
pub fn pending_changes(edits: &[FileEdit], current: &[Option<String>], root: &Path) -> Vec<PendingChange> {
    let mut budget = Budget::default();
    edits
        .iter()
        .zip(current)
        .map(|(edit, old)| {
            let old = old.as_deref().unwrap_or_default();
            let (diff, content, truncated) = match edit.kind {
                EditKind::Create => {
                    let shown = diff::content(&edit.new_text, &mut budget);
                    (None, Some(shown.text), shown.cut)
                }
                EditKind::Modify | EditKind::Delete => {
                    let shown = diff::unified(&relative(root, &edit.path), old, &edit.new_text, &mut budget);
                    (Some(shown.text), None, shown.cut)
                }
            };
            PendingChange {
                file: edit.path.clone(),
                change_type: change_type(edit.kind),
                description: edit.description.clone(),
                diff,
                content,
                truncated,
                sha256: (edit.kind != EditKind::Delete).then(|| sha256_hex(edit.new_text.as_bytes())),
                base_sha256: (edit.kind != EditKind::Create).then(|| edit.base_sha256.clone()),
            }
        })
        .collect()
}

/// A warning per file whose diff or content a preview cut.
pub fn cut_warnings(changes: &[PendingChange]) -> impl Iterator<Item = String> + '_ {
    changes.iter().filter_map(|change| {
        let cut = change.truncated.as_ref()?;
        Some(format!("{}: {cut}; applying writes the whole change (sha256 in the plan)", change.file))
    })
}

/// The files of a plan by what happens to them.
pub fn changes(edits: &[FileEdit]) -> FileChangeSummary {
    let mut changes =
        FileChangeSummary { files_modified: Vec::new(), files_created: Vec::new(), files_deleted: Vec::new() };
    for edit in edits {
        let list = match edit.kind {
            EditKind::Modify => &mut changes.files_modified,
            EditKind::Create => &mut changes.files_created,
            EditKind::Delete => &mut changes.files_deleted,
        };
        list.push(edit.path.clone());
    }
    changes
}

/// The counts of a plan, given the edits and references the host counted.
pub fn summary(edits: &[FileEdit], text_edits: u32, references: u32) -> PlanSummary {
    let count = |kind| edits.iter().filter(|e| e.kind == kind).count() as u32;
    PlanSummary {
        files_modified: count(EditKind::Modify),
        files_created: count(EditKind::Create),
        files_deleted: count(EditKind::Delete),
        edits: text_edits,
        references,
    }
}

/// sha256 of every file left with text, by path.
pub fn checksums(outcomes: &[Outcome]) -> BTreeMap<String, String> {
    outcomes.iter().filter_map(|(path, sha256)| Some((path.display().to_string(), sha256.clone()?))).collect()
}

/// The plan's edits as file writes, each expecting the text the plan was computed from.
pub fn writes(edits: &[FileEdit]) -> Vec<FileWrite> {
    edits
        .iter()
        .map(|edit| FileWrite {
            path: edit.path.clone().into(),
            change: match edit.kind {
                EditKind::Modify => Change::Write { text: edit.new_text.clone(), base: Some(edit.base_sha256.clone()) },
                EditKind::Create => Change::Write { text: edit.new_text.clone(), base: None },
                EditKind::Delete => Change::Delete { base: edit.base_sha256.clone() },
            },
        })
        .collect()
}

fn relative(root: &Path, path: &str) -> String {
    Path::new(path).strip_prefix(root).map(|p| p.display().to_string()).unwrap_or(path.to_owned())
}

fn change_type(kind: EditKind) -> ChangeType {
    match kind {
        EditKind::Modify => ChangeType::Modify,
        EditKind::Create => ChangeType::Create,
        EditKind::Delete => ChangeType::Delete,
    }
}
