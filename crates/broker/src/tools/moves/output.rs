//! A move plan as the client sees it: per-file diffs and checksums in a preview, the file lists and
//! checksums of an applied write.

use protocol::host::{EditKind, FileEdit, MovePlan, MovedSymbol, Position};
use protocol::tools::moves::*;
use std::collections::BTreeMap;
use std::path::Path;
use workspace_actor::checksum::sha256_hex;
use workspace_actor::{Change, FileWrite, Outcome};

/// Shared by both answers.
pub struct Summary {
    pub operation_id: String,
    pub execution_time_ms: u64,
    pub solution: String,
}

pub fn preview(plan: &MovePlan, current: &[Option<String>], root: &Path, summary: Summary) -> MovePreview {
    let pending_changes = plan
        .edits
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
        .collect();
    MovePreview {
        success: true,
        preview: true,
        operation_id: summary.operation_id.clone(),
        pending_changes,
        outline: outline(plan, summary),
    }
}

pub fn applied(plan: &MovePlan, outcomes: &[Outcome], summary: Summary) -> MoveApplied {
    let mut changes =
        FileChangeSummary { files_modified: Vec::new(), files_created: Vec::new(), files_deleted: Vec::new() };
    for edit in &plan.edits {
        let list = match edit.kind {
            EditKind::Modify => &mut changes.files_modified,
            EditKind::Create => &mut changes.files_created,
            EditKind::Delete => &mut changes.files_deleted,
        };
        list.push(edit.path.clone());
    }
    let checksums: BTreeMap<String, String> =
        outcomes.iter().filter_map(|(path, sha256)| Some((path.display().to_string(), sha256.clone()?))).collect();
    MoveApplied {
        success: true,
        operation_id: summary.operation_id.clone(),
        changes,
        checksums,
        outline: outline(plan, summary),
    }
}

fn outline(plan: &MovePlan, summary: Summary) -> MoveOutline {
    MoveOutline {
        symbol: moved_type(&plan.symbol),
        references_updated: plan.references_updated,
        using_directives_added: plan.usings_added,
        using_directives_removed: plan.usings_removed,
        execution_time_ms: summary.execution_time_ms,
        resolved_from_solution: summary.solution,
    }
}

/// The plan's edits as file writes, each expecting the text the plan was computed from.
pub fn writes(plan: &MovePlan) -> Vec<FileWrite> {
    plan.edits
        .iter()
        .map(|edit: &FileEdit| FileWrite {
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

fn moved_type(symbol: &MovedSymbol) -> MovedType {
    let position = |p: &Position| FilePosition { file: p.file.clone(), line: p.line, column: p.column };
    MovedType {
        name: symbol.name.clone(),
        kind: symbol.kind.clone(),
        fully_qualified_name: symbol.fully_qualified_name.clone(),
        previous_fully_qualified_name: symbol.previous_fully_qualified_name.clone(),
        previous_namespace: symbol.previous_namespace.clone(),
        new_namespace: symbol.new_namespace.clone(),
        previous_location: position(&symbol.previous_location),
        new_location: position(&symbol.new_location),
    }
}
