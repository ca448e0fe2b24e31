//! The one write path of every writing tool. The host computes a [`Plan`] on an immutable snapshot (and
//! refuses one that would not compile), outside the write lock; a preview keeps it under a `planId` and shows
//! it; applying takes the lock, brings the plan onto the solution as it is then (`settle`: as computed, kept
//! after a compile check, replayed or merged), writes it atomically, the write gating each path again as it
//! touches it, and records it as an operation that `undo` can reverse; a plan whose edits change no file is
//! not written and answers `changed: false`. `apply_plan` and `undo`/`redo` live beside it.

mod anchor;
pub mod apply_plan;
pub mod history;
pub mod render;
mod settle;
mod verify;

use super::{Call, Resolved};
use crate::plans::{self, Intent, Kept, Plan, Proposal, Replan};
use paths::Roots;
use protocol::host::ask::Ask;
use protocol::host::{EditKind, EditPlan, FileEdit};
use protocol::tools::plans::{Applied, PlanPreview, Rebased, Verification, Verify, WriteOutput};
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostReply;
use std::path::Path;
use std::sync::Arc;
use std::time::{Instant, SystemTime};
use workspace_actor::checksum::{sha256_hex, without_bom};
use workspace_actor::history::OperationMeta;
use workspace_actor::snapshots::Snapshot;
use workspace_actor::{Recording, Workspace, WriteGuard};

/// How a tool's write goes: shown (`preview`) or applied, and what it must prove before it is kept.
#[derive(Debug, Clone, Copy)]
pub struct WriteMode {
    pub preview: bool,
    pub verify: Verify,
    /// How long to wait in line for the write lock (see [`Call::begin_write`]).
    pub wait_seconds: Option<u32>,
}

impl WriteMode {
    /// A preview writes nothing, so it has nothing to verify: `verify` goes with the write (`apply_plan`).
    pub fn new(preview: Option<bool>, verify: Option<Verify>, wait_seconds: Option<u32>) -> Result<Self, ToolError> {
        let (preview, verify) = (preview.unwrap_or(false), verify.unwrap_or_default());
        if preview && verify == Verify::Tests {
            return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "A preview writes nothing to verify")
                .detail("field", "verify")
                .suggest("Pass verify: \"tests\" to apply_plan with the preview's planId"));
        }
        Ok(Self { preview, verify, wait_seconds })
    }
}

/// Computes a plan with `request` on the resolved solution (`to_plan` reads the host's answer), outside the
/// write lock, then previews it or applies it. A write then holds the lock while the plan is brought onto the
/// solution as it is, written and given to the host (and, with `verify: "tests"`, until its tests have given
/// their verdict); a preview holds none.
pub async fn plan_then_write<R: 'static>(
    call: &Call,
    resolved: Resolved,
    mode: WriteMode,
    began: Instant,
    request: Ask<R>,
    to_plan: impl Fn(HostReply<R>, &Path) -> Result<Plan, ToolError> + Send + Sync + 'static,
) -> Result<WriteOutput<Outline>, ToolError> {
    // Loading has its own limit; the write's starts with a loaded solution.
    let workspace = call.load(&resolved.workspace).await?;
    let Ask { body, answer } = request;
    let replan: Replan =
        Box::new(move |reply, solution| to_plan(reply.answer(answer).map_err(|o| unexpected(&o))?, solution));
    let intent = Arc::new(Intent { body, replan });
    // A write alone computes before it takes the lock; one behind others (or that will not wait: refused
    // before anything is computed) takes its turn first and computes on what they left.
    let coming = (!mode.preview).then(|| workspace.announce_write());
    let early = match &coming {
        Some(coming) if !coming.alone() || mode.wait_seconds == Some(0) => {
            Some(call.begin_write(&workspace, mode.wait_seconds).await?)
        }
        _ => None,
    };
    let (computed, early) = compute_holding(call, &resolved, &workspace, intent, early).await?;
    if mode.preview {
        return self::preview(call, computed, began).map(WriteOutput::Preview);
    }
    // A file that moved on since the host's view is read again and the plan brought onto it.
    let (proposal, _moved) = computed;
    let turn = settle::Turn { wait_seconds: mode.wait_seconds, held: early };
    let locked = settle::settle_locking(call, &resolved, &workspace, proposal, false, turn).await?;
    let write = Write { resolved: &resolved, workspace, locked, began, verify: mode.verify };
    apply(call, write, plans::new_id(), false).await.map(WriteOutput::Applied)
}

/// [`compute`], holding the write lock when the write took it first (`held`). A computation still going when
/// the write time limit passes lets the lock go, so that the writers behind it are not held up by a long one:
/// it goes on, and the write takes its turn again once it has its plan.
async fn compute_holding(
    call: &Call,
    resolved: &Resolved,
    workspace: &Arc<Workspace>,
    intent: Arc<Intent>,
    held: Option<WriteGuard>,
) -> Result<((Proposal, Option<ToolError>), Option<WriteGuard>), ToolError> {
    let computing = compute(call, resolved, workspace, intent);
    let Some(guard) = held else {
        return Ok((computing.await?, None));
    };
    tokio::pin!(computing);
    match tokio::time::timeout(workspace.write_timeout(), &mut computing).await {
        Ok(computed) => Ok((computed?, Some(guard))),
        Err(_) => {
            drop(guard);
            tracing::info!(tool = call.tool, "a long computation let the write lock go; it takes its turn again");
            Ok((computing.await?, None))
        }
    }
}

/// Asks the host for the plan of `intent` on the snapshot it holds now, within the compute time limit (counted
/// in the host: not while the solution loads or warms up), gates every path it touches, and reads the texts it
/// changes; with the plan, why a file no longer holds the text its edit was computed from (the first such
/// file), which a preview refuses and a write settles.
async fn compute(
    call: &Call,
    resolved: &Resolved,
    workspace: &Arc<Workspace>,
    intent: Arc<Intent>,
) -> Result<(Proposal, Option<ToolError>), ToolError> {
    let asked = Ask { body: intent.body.clone(), answer: Ok };
    let limit = workspace.compute_timeout();
    let (sink, heard) = tokio::sync::watch::channel(None);
    let asking = call.ask_reporting(workspace, asked, Some(limit), Some(sink));
    let reply = call.progress.relay(heard, asking).await.map_err(|error| match error.code {
        ErrorCode::TIMEOUT => over_limit(workspace, "Computing the change", false),
        _ => error,
    })?;
    let basis = Snapshot { host_pid: reply.host_pid, version: reply.workspace_version };
    let plan = (intent.replan)(reply, &resolved.target.solution)?;
    gate(&resolved.target.roots, &plan)?;
    let (bases, moved) = bases(&plan.edits);
    Ok((Proposal { plan, basis, bases, intent }, moved))
}

/// The text of each edit's file now, when it is the one the edit was computed from (none for a file created,
/// or one that moved on since: a later step replays the plan then), and the refusal of the first file that
/// moved on. Reads the files off the async workers.
fn bases(edits: &[FileEdit]) -> (Vec<Option<String>>, Option<ToolError>) {
    crate::offload::cpu(|| {
        let mut moved = None;
        let bases = render::writes(edits)
            .iter()
            .map(|write| match workspace_actor::check(write) {
                Ok(original) => original.map(|o| String::from_utf8_lossy(without_bom(&o.bytes)).into_owned()),
                Err(error) => {
                    moved.get_or_insert(error);
                    None
                }
            })
            .collect();
        (bases, moved)
    })
}

/// A host answer of another kind than its request's.
fn unexpected(other: &protocol::host::ResponseBody) -> ToolError {
    ToolError::new(ErrorCode::ROSLYN_ERROR, format!("the Roslyn host answered with an unexpected {other:?}"))
}

/// Keeps the plan and shows it: a diff per file against the file as it is, which must still be the text the
/// plan was computed from (`moved`: the first that is not). Rendering the diffs runs off the async workers,
/// within the diffs' budget.
fn preview(
    call: &Call,
    (proposal, moved): (Proposal, Option<ToolError>),
    began: Instant,
) -> Result<PlanPreview<Outline>, ToolError> {
    if let Some(error) = moved {
        return Err(error);
    }
    let root = proposal.plan.solution.parent().unwrap_or(Path::new("/"));
    let pending_changes = crate::offload::cpu(|| render::pending_changes(&proposal.plan.edits, &proposal.bases, root));
    let plan = &proposal.plan;
    let (tool, summary, outline) = (plan.tool.to_owned(), plan.summary.clone(), plan.outline.clone());
    let mut warnings = plan.warnings.clone();
    warnings.extend(render::cut_warnings(&pending_changes));
    let solution = plan.solution.display().to_string();
    let (plan_id, expires_at, not_kept) = match call.services.plans.keep(call.plan_holder(), proposal) {
        Kept::Yes { id, expires_at } => (Some(id), Some(rfc3339(expires_at)), None),
        Kept::No(why) => {
            warnings.push(why.clone());
            (None, None, Some(why))
        }
    };
    Ok(PlanPreview {
        success: true,
        preview: true,
        tool,
        plan_id,
        expires_at,
        not_kept,
        pending_changes,
        summary,
        warnings,
        execution_time_ms: elapsed_ms(began),
        resolved_from_solution: solution,
        outline,
    })
}

/// A write ready to apply: its plan, under the lock it holds.
struct Write<'a> {
    resolved: &'a Resolved,
    workspace: Arc<Workspace>,
    locked: settle::Locked,
    began: Instant,
    verify: Verify,
}

/// Writes the plan as one journaled, atomic operation and records it in the solution's history. The write
/// runs to its end, finished or rolled back, with the lock held, even if the session that asked for it goes
/// away meanwhile; cancelling the request rolls it back. With `verify: "tests"` its tests then run, the lock
/// still held, and it is kept or undone by their verdict. `kept`: the plan is in the store under `plan_id`.
///
/// Only the edits that change their file are written: a plan left with none (a replacement that matched
/// nothing, usings organized already) answers `changed: false` with no operation, writing nothing, recording
/// nothing in the history (whose bound it would otherwise spend) and running no tests.
async fn apply(call: &Call, write: Write<'_>, plan_id: String, kept: bool) -> Result<Applied<Outline>, ToolError> {
    let Write { resolved, workspace, locked, began, verify } = write;
    let settle::Locked { settled: settle::Settled { proposal, rebased }, guard, deadline } = locked;
    let proposal = crate::offload::cpu(|| changing_only(proposal));
    let plan = &proposal.plan;
    if plan.edits.is_empty() {
        tracing::info!(plan_id, tool = plan.tool, "the plan changes no file: nothing written, no operation");
        drop(guard);
        return Ok(answer(plan, plan_id, began, rebased, None, None));
    }
    // Chosen before the write: the tests reaching what it changes, in the files as they are.
    let checks = match verify {
        Verify::Tests => Some(verify::Checks::select(call, resolved, plan).await?),
        Verify::Compile => None,
    };
    // The write checks every file under the lock, naming all that moved on since the plan (STALE_PLAN).
    let writes = render::writes(&plan.edits);
    let operation_id = format!("op-{}", uuid::Uuid::new_v4());
    tracing::info!(operation_id, plan_id, tool = plan.tool, files = plan.edits.len(), "applying plan");
    call.progress.step(format!("Writing {} files", plan.edits.len())).await;
    let verifying = checks.is_some().then(|| resolved.target.roots.clone());
    let meta = OperationMeta { tool: plan.tool.to_owned(), summary: history_line(plan), verifying };
    let (cancel, operation, roots, writer) =
        (call.cancel.clone(), operation_id.clone(), resolved.target.roots.clone(), workspace.clone());
    let write = tokio::spawn(async move {
        let written = writer.write(&guard, &operation, roots, writes, deadline, &cancel, Recording::New(meta)).await;
        (written, guard)
    });
    let (outcomes, guard) =
        write.await.map_err(|e| ToolError::new(ErrorCode::ROSLYN_ERROR, format!("the write failed: {e}")))?;
    let outcomes = outcomes?;
    call.progress.step("Files written and the Roslyn host updated").await;
    let verification = match checks {
        Some(checks) => {
            let written = verify::Written {
                workspace: &workspace,
                guard: &guard,
                operation_id: &operation_id,
                proposal: &proposal,
                kept_as: kept.then_some(plan_id.as_str()),
            };
            Some(verify::verdict(call, resolved, checks, written).await?)
        }
        None => None,
    };
    drop(guard);
    Ok(answer(plan, plan_id, began, rebased, Some((operation_id, &outcomes)), verification))
}

/// The answer of an applied plan: what it `wrote` (its operation, and what it left in each file), or none when
/// it changed no file.
fn answer(
    plan: &Plan,
    plan_id: String,
    began: Instant,
    rebased: Option<Rebased>,
    wrote: Option<(String, &[workspace_actor::Outcome])>,
    verification: Option<Verification>,
) -> Applied<Outline> {
    let (operation_id, checksums) = match wrote {
        Some((operation, outcomes)) => (Some(operation), render::checksums(outcomes)),
        None => (None, Default::default()),
    };
    Applied {
        success: true,
        tool: plan.tool.to_owned(),
        changed: operation_id.is_some(),
        operation_id,
        plan_id,
        changes: render::changes(&plan.edits),
        checksums,
        summary: plan.summary.clone(),
        warnings: plan.warnings.clone(),
        execution_time_ms: elapsed_ms(began),
        resolved_from_solution: plan.solution.display().to_string(),
        verification,
        rebased,
        outline: plan.outline.clone(),
    }
}

/// The proposal without the edits that would leave their file as it is: a modification whose new text is the
/// text the plan was computed from (`bases`), byte for byte once written (its hash is the edit's base hash,
/// so a file read lossily is not taken for unchanged). A created or deleted file always changes. When some
/// are left out, the summary counts the files of those kept (none kept: no edit either).
fn changing_only(proposal: Proposal) -> Proposal {
    let Proposal { mut plan, basis, bases, intent } = proposal;
    let changes = |edit: &FileEdit, base: &Option<String>| {
        edit.kind != EditKind::Modify
            || base.as_deref() != Some(edit.new_text.as_str())
            || sha256_hex(edit.new_text.as_bytes()) != edit.base_sha256
    };
    let planned = plan.edits.len();
    let mut bases = bases.into_iter();
    let (edits, bases): (Vec<FileEdit>, Vec<Option<String>>) = std::mem::take(&mut plan.edits)
        .into_iter()
        .map(|edit| (edit, bases.next().flatten()))
        .filter(|(edit, base)| changes(edit, base))
        .unzip();
    if edits.len() < planned {
        let text_edits = if edits.is_empty() { 0 } else { plan.summary.edits };
        plan.summary = render::summary(&edits, text_edits, plan.summary.references);
    }
    plan.edits = edits;
    Proposal { plan, basis, bases, intent }
}

/// Every file the plan touches must be inside the workspace once resolved: the host reports a file reached
/// through a linked folder by its linked path. The whole plan is refused, so no half of it is written.
fn gate(roots: &Roots, plan: &Plan) -> Result<(), ToolError> {
    plan.edits.iter().try_for_each(|edit| roots.admit_write(Path::new(&edit.path)).map(drop))
}

/// `Rename Invoice to Bill: 3 files, 9 edits`.
fn history_line(plan: &Plan) -> String {
    let s = &plan.summary;
    let files = s.files_modified + s.files_created + s.files_deleted;
    format!("{}: {files} file{}, {} edit{}", plan.title, plural(files), s.edits, plural(s.edits))
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The host's answer to `asked` by `bound`'s deadline. Past it (the host's own bound or ours, whichever fires
/// first) the error names the limit the operator set, not what was left of it.
async fn ask_by<R>(
    call: &Call,
    workspace: &Arc<Workspace>,
    asked: Ask<R>,
    bound: Bound,
) -> Result<HostReply<R>, ToolError> {
    let limit = bound.deadline.saturating_duration_since(tokio::time::Instant::now());
    match tokio::time::timeout_at(bound.deadline, call.ask_within(workspace, asked, Some(limit))).await {
        Ok(Err(error)) if error.code != ErrorCode::TIMEOUT => Err(error),
        Ok(Ok(reply)) => Ok(reply),
        Ok(Err(_)) | Err(_) => {
            Err(over_limit(workspace, "Bringing the change onto the solution as it is", bound.locked))
        }
    }
}

/// When a write's host request must have its answer, and which limit set it.
#[derive(Debug, Clone, Copy)]
struct Bound {
    deadline: tokio::time::Instant,
    /// The write time limit, counted from taking the lock; else the compute time limit.
    locked: bool,
}

/// `doing` exceeded the write time limit (`locked`) or the compute time limit: nothing was changed.
fn over_limit(workspace: &Workspace, doing: &str, locked: bool) -> ToolError {
    let (limit, name, suggestion) = if locked {
        (workspace.write_timeout(), "write", "Retry, or raise the write timeout (at most 120 s)")
    } else {
        (
            workspace.compute_timeout(),
            "compute",
            "Narrow the change (a project, a folder, a file), or raise --compute-timeout-secs (at most 3600)",
        )
    };
    ToolError::new(ErrorCode::TIMEOUT, format!("{doing} exceeded the {name} time limit; nothing was changed"))
        .detail("timeoutMs", limit.as_millis() as u64)
        .suggest(suggestion)
}

/// The plan of a host's [`EditPlan`] (whole new texts), as format, find/replace, remove unused and code actions
/// answer.
pub fn edit_plan(tool: &'static str, plan: EditPlan, solution: &Path, outline: Outline) -> Plan {
    let EditPlan { title, edits, documents: _, changes, warnings } = plan;
    Plan {
        tool,
        solution: solution.to_path_buf(),
        summary: render::summary(&edits, changes, 0),
        edits,
        warnings,
        title,
        outline,
    }
}

pub fn rfc3339(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

fn elapsed_ms(began: Instant) -> u64 {
    began.elapsed().as_millis() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::tools::plans::PlanSummary;

    fn edit(path: &str, kind: EditKind, base: &str, new_text: &str) -> FileEdit {
        FileEdit {
            path: path.into(),
            kind,
            base_sha256: if kind == EditKind::Create { String::new() } else { sha256_hex(base.as_bytes()) },
            new_text: new_text.into(),
            description: String::new(),
        }
    }

    fn proposal(edits: Vec<(FileEdit, Option<&str>)>) -> Proposal {
        let (edits, bases): (Vec<FileEdit>, Vec<Option<String>>) =
            edits.into_iter().map(|(edit, base)| (edit, base.map(str::to_owned))).unzip();
        let summary = PlanSummary { edits: 7, references: 2, ..render::summary(&edits, 7, 2) };
        crate::plans::sample(edits, bases, summary)
    }

    fn paths(proposal: &Proposal) -> Vec<&str> {
        proposal.plan.edits.iter().map(|e| e.path.as_str()).collect()
    }

    #[test]
    fn edits_that_leave_their_file_as_it_is_are_dropped_and_the_summary_follows() {
        let kept = changing_only(proposal(vec![
            (edit("/s/Same.cs", EditKind::Modify, "class A {}", "class A {}"), Some("class A {}")),
            (edit("/s/Other.cs", EditKind::Modify, "class B {}", "class C {}"), Some("class B {}")),
            (edit("/s/New.cs", EditKind::Create, "", "class D {}"), None),
            (edit("/s/Gone.cs", EditKind::Delete, "class E {}", ""), Some("class E {}")),
        ]));
        assert_eq!(paths(&kept), ["/s/Other.cs", "/s/New.cs", "/s/Gone.cs"]);
        assert_eq!(kept.bases, [Some("class B {}".to_owned()), None, Some("class E {}".to_owned())]);
        let summary = &kept.plan.summary;
        assert_eq!((summary.files_modified, summary.files_created, summary.files_deleted), (1, 1, 1));
        assert_eq!((summary.edits, summary.references), (7, 2));
    }

    #[test]
    fn a_plan_of_unchanged_texts_keeps_no_edit_and_counts_none() {
        let none = changing_only(proposal(vec![
            (edit("/s/A.cs", EditKind::Modify, "class A {}", "class A {}"), Some("class A {}")),
            (edit("/s/B.cs", EditKind::Modify, "class B {}", "class B {}"), Some("class B {}")),
        ]));
        assert!(none.plan.edits.is_empty() && none.bases.is_empty());
        assert_eq!(none.plan.summary, PlanSummary { references: 2, ..PlanSummary::default() });
        assert!(changing_only(proposal(Vec::new())).plan.edits.is_empty());
    }

    #[test]
    fn an_edit_is_kept_unless_its_base_is_known_and_written_would_be_the_same_bytes() {
        // No base read (the file moved on since): written, so the write's check decides.
        let unknown =
            changing_only(proposal(vec![(edit("/s/A.cs", EditKind::Modify, "class A {}", "class A {}"), None)]));
        assert_eq!(paths(&unknown), ["/s/A.cs"]);
        // A file that is not UTF-8 reads lossily: the same text, other bytes once written.
        let mut lossy = edit("/s/L.cs", EditKind::Modify, "", "caf\u{fffd}");
        lossy.base_sha256 = sha256_hex(b"caf\xe9");
        let lossy = changing_only(proposal(vec![(lossy, Some("caf\u{fffd}"))]));
        assert_eq!(paths(&lossy), ["/s/L.cs"]);
        // Untouched when every edit changes its file.
        let all = changing_only(proposal(vec![(
            edit("/s/A.cs", EditKind::Modify, "class A {}", "class B {}"),
            Some("class A {}"),
        )]));
        assert_eq!(all.plan.summary.edits, 7);
    }
}
