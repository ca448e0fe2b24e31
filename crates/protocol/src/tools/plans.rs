//! What every writing tool answers, and the tools that act on plans and on applied operations: a preview is
//! a plan (kept by the service under its `planId` until it expires), `apply_plan` writes it (carried onto
//! files changed since: kept, merged or replayed), and every applied write is an operation in the solution's history that `undo` and `redo` act on.

use super::groups::tool_input;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A writing tool's answer: the plan (preview), or what was written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum WriteOutput<O> {
    Applied(Applied<O>),
    Preview(PlanPreview<O>),
}

/// A computed plan, nothing written: apply it with `apply_plan { planId }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanPreview<O> {
    /// Always true.
    pub success: bool,
    /// Always true: nothing was written.
    pub preview: bool,
    /// The tool that computed the plan.
    pub tool: String,
    /// Pass to `apply_plan` to write exactly these changes. Absent when the plan could not be kept
    /// (`notKept` says why): run the tool again without preview to apply it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    /// When the service forgets the plan (RFC 3339, UTC); `apply_plan` then answers PLAN_NOT_FOUND. Absent with
    /// `planId`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Why the plan was shown but not kept (it is larger than a session may keep).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_kept: Option<String>,
    /// One entry per file, sorted by path.
    pub pending_changes: Vec<PendingChange>,
    pub summary: PlanSummary,
    /// What to know before applying, e.g. that a file is renamed too.
    pub warnings: Vec<String>,
    pub execution_time_ms: u64,
    pub resolved_from_solution: String,
    #[serde(flatten)]
    pub outline: O,
}

/// A write that happened: every file it touched, and the operation that can undo it; or, with `changed: false`,
/// a plan that left every file as it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Applied<O> {
    /// Always true.
    pub success: bool,
    pub tool: String,
    /// False when the plan changed no file: nothing was written and no operation recorded, so there is
    /// nothing to undo.
    pub changed: bool,
    /// Pass to `undo` to restore every file as it was before. Absent when nothing changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// The plan that was written.
    pub plan_id: String,
    pub changes: FileChangeSummary,
    /// sha256 (lowercase hex) of the text of every modified and created file as written, by path.
    pub checksums: BTreeMap<String, String>,
    pub summary: PlanSummary,
    pub warnings: Vec<String>,
    pub execution_time_ms: u64,
    pub resolved_from_solution: String,
    /// With `verify: "tests"`: the tests the write reached, run after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
    /// Present when the solution changed between computing the plan and writing it: how the plan was brought
    /// onto the solution as it is, and what differs from what was previewed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebased: Option<Rebased>,
    #[serde(flatten)]
    pub outline: O,
}

/// A plan written on a newer snapshot of the solution than the one it was computed on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Rebased {
    /// `kept`: nothing that changed could touch what the plan depends on; written as computed, after the
    /// compile check of the solution as it is. `merged`: the same, its edits merged word by word (3-way) into
    /// those of its files that changed elsewhere, then the compile check. `replayed`: computed again on the solution as it is (the same
    /// symbol, the same arguments) and checked as the original was.
    pub how: RebaseKind,
    /// What changed between the plan's snapshot and the one it was written on.
    pub changed_since: Vec<SnapshotChange>,
    /// What the written plan does that the previewed one did not, or no longer does, e.g. `also changes
    /// src/Extra.cs (1 edit)`; empty when both change the same places.
    pub differences: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum RebaseKind {
    Kept,
    Replayed,
    Merged,
}

impl RebaseKind {
    /// As it is serialized (the answer's `how`, the metric's `outcome`).
    pub fn name(self) -> &'static str {
        match self {
            RebaseKind::Kept => "kept",
            RebaseKind::Replayed => "replayed",
            RebaseKind::Merged => "merged",
        }
    }
}

/// One change of the solution: a write of this service (its operation, tool and session) or files changed on
/// disk by something else (an editor, `git checkout`); or, when the changes are not known one by one, why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotChange {
    /// `write`, `disk` or `unknown`.
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    pub files: Vec<String>,
    /// When the service took it (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// For `unknown`: why the changes are not known one by one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// How a write proves itself before it is kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Verify {
    /// The solution must still compile (what every write checks).
    #[default]
    Compile,
    /// Also: the tests the write reaches run after it; if one that passed before now fails, the write is
    /// rolled back (TESTS_FAILED).
    Tests,
}

/// What running a write's tests found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    /// Test methods the write reaches (find_tests' selection).
    pub tests_selected: u32,
    /// Their cases that ran, and of those the ones that passed.
    pub cases_run: u32,
    pub passed: u32,
    /// Cases that fail after the write and failed before it too: they do not block it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_before_and_after: Vec<String>,
    /// Cases that passed before the write and fail after it: the write was rolled back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_failures: Vec<String>,
    /// Building and running, the second run on the rolled-back files included.
    pub ms: u64,
    /// Test projects and tests the write reaches that lie outside the roots: never built or run.
    #[serde(default, skip_serializing_if = "super::testing::is_zero")]
    pub omitted_outside_roots: u32,
    /// The service ended while the tests ran: no verdict was given, and the write was rolled back when the
    /// service started again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// Counts over the whole plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanSummary {
    pub files_modified: u32,
    pub files_created: u32,
    pub files_deleted: u32,
    /// Text edits over every file (a created or deleted file counts as one).
    pub edits: u32,
    /// Source places of the symbol the plan updates (0 where the tool has no symbol).
    pub references: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileChangeSummary {
    /// Sorted absolute paths.
    pub files_modified: Vec<String>,
    pub files_created: Vec<String>,
    pub files_deleted: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ChangeType {
    Modify,
    Create,
    Delete,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingChange {
    pub file: String,
    pub change_type: ChangeType,
    pub description: String,
    /// Unified diff against the file on disk (Modify and Delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The whole new file (Create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Present when `diff` or `content` was cut to keep the preview bounded: what was left out. The plan
    /// still writes the whole change (`sha256`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<String>,
    /// sha256 of the file as it would be written (Modify and Create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// sha256 of the text the plan was computed from (Modify and Delete): applying tells by it whether the
    /// file changed since, and carries the plan over if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_sha256: Option<String>,
}

tool_input! {
    pub struct ApplyPlanInput(;) {
        pub plan_id: String,
        #[serde(default)]
        pub verify: Option<Verify>,
        #[serde(default)]
        #[schemars(range(max = 300))]
        pub wait_seconds: Option<u32>,
        #[serde(default)]
        pub exact: Option<bool>,
    }
}

tool_input! {
    pub struct OperationInput(;) {
        pub operation_id: String,
        #[serde(default)]
        pub solution_path: Option<String>,
        #[serde(default)]
        #[schemars(range(max = 300))]
        pub wait_seconds: Option<u32>,
    }
}

/// What `undo` and `redo` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationOutput {
    /// Always true.
    pub success: bool,
    pub operation_id: String,
    /// `Undone` or `Applied`: the operation's state now.
    pub state: OperationState,
    pub changes: FileChangeSummary,
    /// sha256 of every file as it is now (absent: the file no longer exists), by path.
    pub checksums: BTreeMap<String, String>,
    pub execution_time_ms: u64,
    pub resolved_from_solution: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum OperationState {
    /// Its changes are on disk.
    Applied,
    /// Its changes were undone.
    Undone,
}

tool_input! {
    pub struct ListOperationsInput(;) {
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListOperationsOutput {
    /// Newest first.
    pub operations: Vec<OperationRecord>,
    /// What the history keeps per solution: older operations are forgotten beyond it.
    pub retained: HistoryBound,
    pub resolved_from_solution: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryBound {
    pub max_operations: u32,
    pub max_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationRecord {
    pub operation_id: String,
    pub tool: String,
    /// One line, e.g. `Rename Invoice to Bill: 3 files, 9 edits`.
    pub summary: String,
    /// When it was applied (RFC 3339, UTC).
    pub applied_at: String,
    pub state: OperationState,
    /// Sorted absolute paths of every file it touched.
    pub files: Vec<String>,
    /// Whether `undo` (when applied) or `redo` (when undone) would go through now: every file holds what the
    /// operation (or its undo) left there, or changed elsewhere at other places (merged; it must still compile).
    pub can_undo: bool,
    pub can_redo: bool,
    /// The files that moved on since, when it can be neither undone nor redone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed_since: Vec<String>,
    /// What its tests found, when it was written with `verify: "tests"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}
