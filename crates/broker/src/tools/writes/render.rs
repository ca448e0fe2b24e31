//! A plan as the client sees it: per-file diffs and checksums in a preview, the file lists and checksums
//! of an applied write; and a plan's edits as the file writes that apply it.

use protocol::host::{EditKind, FileEdit};
use protocol::tools::plans::{ChangeType, FileChangeSummary, PendingChange, PlanSummary};
use std::collections::BTreeMap;
use std::path::Path;
use workspace_actor::checksum::sha256_hex;
use workspace_actor::{Change, FileWrite, Outcome};

/// One entry per edit, with its diff against `current` (the text on disk, none for a new file).
pub fn pending_changes(edits: &[FileEdit], current: &[Option<String>], root: &Path) -> Vec<PendingChange> {
    edits
        .iter()
        .zip(current)
        .map(|(edit, old)| {
            let old = old.as_deref().unwrap_or_default();
            let (diff, content) = match edit.kind {
                EditKind::Create => (None, Some(edit.new_text.clone())),
                EditKind::Modify | EditKind::Delete => {
                    (Some(unified_diff(root, &edit.path, old, &edit.new_text)), None)
                }
            };
            PendingChange {
                file: edit.path.clone(),
                change_type: change_type(edit.kind),
                description: edit.description.clone(),
                diff,
                content,
                sha256: (edit.kind != EditKind::Delete).then(|| sha256_hex(edit.new_text.as_bytes())),
                base_sha256: (edit.kind != EditKind::Create).then(|| edit.base_sha256.clone()),
            }
        })
        .collect()
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

fn unified_diff(root: &Path, path: &str, old: &str, new: &str) -> String {
    let relative = Path::new(path).strip_prefix(root).map(|p| p.display().to_string()).unwrap_or(path.to_owned());
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{relative}"), &format!("b/{relative}"))
        .to_string()
}

fn change_type(kind: EditKind) -> ChangeType {
    match kind {
        EditKind::Modify => ChangeType::Modify,
        EditKind::Create => ChangeType::Create,
        EditKind::Delete => ChangeType::Delete,
    }
}
