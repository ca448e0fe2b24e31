//! A plan brought onto the solution as it is when it is written, under the write lock. The plan was computed on
//! a snapshot; since then other sessions' writes, or edits on disk, may have made newer ones:
//!
//! - nothing changed: the plan is written as computed (`as_seen`);
//! - what changed cannot touch what the plan depends on (no change added or removed a name it renames or
//!   removes, and no other changed file spells one; or the plan's change is confined to its own files): it is
//!   written as computed (`kept`), its edits merged word by word into those of its files that changed
//!   elsewhere (`merged`), once the host finds that it adds no compiler error to the solution as it is;
//! - else its intent is replayed: the same request, pointing at the same place in the file as it is now,
//!   computed and checked by the host on the current snapshot (`replayed`); a code action whose snapshot is
//!   gone cannot be, and is refused when its edits could not be carried over;
//! - a replay that cannot be made (the place changed, the tool now acts on another symbol, the result would
//!   not compile, the edits conflict) is refused with its reason and what changed since: nothing is written.
//!
//! With `exact`, only the previewed texts may be written: a replay that differs is refused (STALE_PLAN) and
//! kept as a new plan, whose id and diffs the refusal carries.
//!
//! The long part, a compile check or a replay over a whole project, runs before the lock is taken, within the
//! compute time limit: a writer settles on the solution as it is, then takes the lock, and under it settles
//! only what landed meanwhile, within the write time limit. While others keep landing before it has the lock,
//! it lets the lock go and settles outside it again, until its compute time limit is spent.

use super::{Bound, Resolved, anchor, bases, gate, render, rfc3339};
use crate::plans::{Kept, Plan, Proposal};
use crate::tools::Call;
use protocol::host::ask::{self, Ask};
use protocol::host::{CheckEditsRequest, EditKind, FileEdit};
use protocol::tools::plans::{RebaseKind, Rebased, SnapshotChange};
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use workspace_actor::checksum::{sha256_hex, without_bom};
use workspace_actor::merge::{changed_places, changed_words, merge3};
use workspace_actor::snapshots::{Since, Snapshot, Source};
use workspace_actor::{Workspace, WriteGuard};

/// The plan to write, and how it came onto the solution as it is (none: as computed, nothing changed).
pub struct Settled {
    pub proposal: Proposal,
    pub rebased: Option<Rebased>,
}

/// What a plan's correctness depends on beyond its own files.
enum Depends {
    /// Every place that spells one of these names.
    Names(Vec<String>),
    /// Only its own files (a format, a code action's edits).
    OwnFiles,
    /// Anything in the solution: it is replayed whenever the solution changed.
    Everything,
}

/// How a writer comes to the lock: in line, waiting at most `wait_seconds`, or holding it already (`held`: its
/// plan was computed under it).
pub struct Turn {
    pub wait_seconds: Option<u32>,
    pub held: Option<WriteGuard>,
}

/// A plan brought onto the solution as it is, the write lock that keeps it so, and the deadline of what the
/// write does holding it.
pub struct Locked {
    pub settled: Settled,
    pub guard: WriteGuard,
    pub deadline: tokio::time::Instant,
}

/// Brings the plan onto the solution as it is and takes the write lock (see the module's text); one outcome
/// for the plans' metric, however many times it went round.
pub async fn settle_locking(
    call: &Call,
    resolved: &Resolved,
    workspace: &Arc<Workspace>,
    proposal: Proposal,
    exact: bool,
    turn: Turn,
) -> Result<Locked, ToolError> {
    let settling = |deadline, locked| Settling { call, resolved, workspace, bound: Bound { deadline, locked }, exact };
    let rounds = async {
        let Turn { wait_seconds, mut held } = turn;
        let mut settled = Settled { proposal, rebased: None };
        let mut budget = None;
        // An edit made just before the call is in the host's snapshot before it is compared with the plan's.
        if held.is_none() {
            workspace.catch_up(&call.cancel).await?;
        }
        let guard = loop {
            if let Some(guard) = held.take() {
                break guard;
            }
            if moved_on(workspace, &settled) {
                let deadline = *budget.get_or_insert_with(|| tokio::time::Instant::now() + workspace.compute_timeout());
                call.progress.step("Bringing the change onto the solution as it is").await;
                let Settled { proposal, rebased } = settled;
                settled = joined(rebased, settling(deadline, false).settle(proposal).await?);
            }
            let guard = call.begin_write(workspace, wait_seconds).await?;
            let spent = budget.is_some_and(|deadline| tokio::time::Instant::now() >= deadline);
            if spent || !moved_on(workspace, &settled) {
                break guard;
            }
            drop(guard);
            tracing::info!(
                tool = call.tool,
                "the solution moved on while the write settled; it settles again before the lock"
            );
        };
        let deadline = tokio::time::Instant::now() + workspace.write_timeout();
        let Settled { proposal, rebased } = settled;
        let settled = joined(rebased, settling(deadline, true).settle(proposal).await?);
        Ok(Locked { settled, guard, deadline })
    };
    let outcome = rounds.await;
    let telemetry = &call.services.telemetry;
    match &outcome {
        Ok(locked) => telemetry.plan_settled(locked.settled.rebased.as_ref().map(|r| r.how), None),
        Err(error) => telemetry.plan_settled(None, Some(refusal_reason(error))),
    }
    outcome
}

/// The host holds another snapshot than the plan's.
fn moved_on(workspace: &Workspace, settled: &Settled) -> bool {
    !matches!(workspace.changes_since(settled.proposal.basis), Since::Same)
}

/// A plan settled twice: how it came onto the solution, from the first time and then (`then`) from where the
/// first left it.
fn joined(first: Option<Rebased>, then: Settled) -> Settled {
    let rebased = match (first, then.rebased) {
        (None, then) => then,
        (first, None) => first,
        (Some(first), Some(then)) => {
            let how = [first.how, then.how].into_iter().max_by_key(|how| weight(*how)).unwrap_or(then.how);
            let mut changed_since = first.changed_since;
            changed_since.extend(then.changed_since);
            let mut differences = first.differences;
            differences.extend(then.differences.into_iter().filter(|d| !differences.contains(d)).collect::<Vec<_>>());
            Some(Rebased { how, changed_since, differences })
        }
    };
    Settled { proposal: then.proposal, rebased }
}

/// How far a plan went from what was computed: kept as it was, merged into changed files, computed again.
fn weight(how: RebaseKind) -> u8 {
    match how {
        RebaseKind::Kept => 0,
        RebaseKind::Merged => 1,
        RebaseKind::Replayed => 2,
    }
}

struct Settling<'a> {
    call: &'a Call,
    resolved: &'a Resolved,
    workspace: &'a Arc<Workspace>,
    /// Under the lock (the write time limit) or before it is taken (the compute time limit).
    bound: Bound,
    exact: bool,
}

impl Settling<'_> {
    async fn settle(&self, proposal: Proposal) -> Result<Settled, ToolError> {
        // Every change on disk reported before now is in the host's snapshot, and so in what changed since the
        // plan.
        self.workspace.catch_up(&self.call.cancel).await?;
        // The plan's own files are read now: under the lock, one written since the barrier is brought in too
        // (before it, a write landing meanwhile could be overtaken by the older text).
        let now = texts_now(&proposal.plan.edits);
        let moved = moved_files(&proposal.plan.edits, &now);
        if !moved.is_empty() && self.bound.locked {
            self.workspace.sync_files(moved.clone(), &self.call.cancel).await?;
        }
        let root = self.root();
        // The snapshot the plan is brought onto: taken before what changed up to it is read, so that a change
        // landing in between is looked at again from here.
        let at = self.workspace.snapshot().unwrap_or(proposal.basis);
        let (changes, seen) = match self.workspace.changes_since(proposal.basis) {
            Since::Same if moved.is_empty() => return Ok(Settled { proposal, rebased: None }),
            // Not in the host yet: the write brings it in under the lock.
            Since::Same if !self.bound.locked => return Ok(Settled { proposal, rebased: None }),
            Since::Same => (None, vec![unknown("the plan's files changed on disk", &moved, root)]),
            Since::Unknown(why) => (None, vec![unknown(&why, &[], root)]),
            Since::Changes(changes) => {
                let seen = changes.iter().map(|c| seen(c, root)).collect();
                (Some(changes), seen)
            }
        };
        if let Some(carried) = carried(&proposal, changes.as_deref(), now) {
            let names = match depends(&proposal.plan.outline) {
                Depends::Names(names) => names,
                Depends::OwnFiles | Depends::Everything => Vec::new(),
            };
            match self.check(&carried.edits, names).await {
                Ok(()) if !carried.merged => {
                    let kept = Proposal { basis: at, ..proposal };
                    return Ok(rebased(kept, RebaseKind::Kept, seen, Vec::new()));
                }
                Ok(()) => {
                    let plan = Plan { edits: carried.edits, ..proposal.plan.clone() };
                    let merged = Proposal { plan, basis: at, bases: carried.bases, intent: proposal.intent.clone() };
                    return self.rebase(proposal, merged, RebaseKind::Merged, seen).await;
                }
                // Carried over it adds an error: computed again, it may not.
                Err(error) if error.code == ErrorCode::COMPILATION_ERROR => {}
                Err(error) => return Err(refused(error, "the compile check failed", &seen)),
            }
        }
        self.replay(proposal, seen).await
    }

    /// The intent computed again on the current snapshot, pointing at the same place.
    async fn replay(&self, proposal: Proposal, seen: Vec<SnapshotChange>) -> Result<Settled, ToolError> {
        let mut body = proposal.intent.body.clone();
        if let Some((file, line)) = anchor::of(&mut body) {
            let before =
                proposal.plan.edits.iter().position(|e| e.path == file).and_then(|i| proposal.bases[i].clone());
            let now = crate::offload::cpu(|| read_text(Path::new(file)));
            if let (Some(before), Some(now)) = (before, now) {
                let Some(moved) = anchor::moved(&before, &now, *line) else {
                    let reason = format!("the line the tool was pointed at ({file}:{line}) changed since");
                    let error = ToolError::new(ErrorCode::STALE_PLAN, "the place it acts on is not where it was");
                    return Err(refused(error, &reason, &seen));
                };
                *line = moved;
            }
        }
        let asked = super::ask_by(self.call, self.workspace, Ask { body, answer: Ok }, self.bound);
        let reply = match asked.await {
            Err(error) if error.code == ErrorCode::TIMEOUT => return Err(error),
            Err(error) if error.code == ErrorCode::CODE_ACTION_STALE => {
                let reason = "its code action is not offered on the solution as it is, and its edits could not be \
                              carried over (they meet the changes since, or would not compile)";
                return Err(refused(error, reason, &seen));
            }
            Err(error) => return Err(refused(error, "computing it on the solution as it is failed", &seen)),
            Ok(reply) => reply,
        };
        let basis = Snapshot { host_pid: reply.host_pid, version: reply.workspace_version };
        let plan = (proposal.intent.replan)(reply, &self.resolved.target.solution)
            .map_err(|error| refused(error, "computing it on the solution as it is failed", &seen))?;
        if let (Some(was), Some(is)) = (subject(&proposal.plan.outline), subject(&plan.outline))
            && was != is
        {
            let reason = format!("it now acts on {is}, not on {was}");
            return Err(refused(
                ToolError::new(ErrorCode::STALE_PLAN, "the symbol it acts on changed"),
                &reason,
                &seen,
            ));
        }
        gate(&self.resolved.target.roots, &plan)?;
        let (bases, _) = bases(&plan.edits);
        let replayed = Proposal { plan, basis, bases, intent: proposal.intent.clone() };
        self.rebase(proposal, replayed, RebaseKind::Replayed, seen).await
    }

    /// The replayed or merged plan, or with `exact` and other texts than the previewed ones, its refusal (the
    /// new plan kept for the caller to look at and apply).
    async fn rebase(
        &self,
        previewed: Proposal,
        new: Proposal,
        how: RebaseKind,
        seen: Vec<SnapshotChange>,
    ) -> Result<Settled, ToolError> {
        let root = self.root();
        let differences = crate::offload::cpu(|| differences(&previewed, &new, root));
        if !self.exact || same_texts(&previewed.plan.edits, &new.plan.edits) {
            return Ok(rebased(new, how, seen, differences));
        }
        let pending = crate::offload::cpu(|| render::pending_changes(&new.plan.edits, &new.bases, root));
        let kept = self.call.services.plans.keep(self.call.plan_holder(), new);
        let mut error = ToolError::new(
            ErrorCode::STALE_PLAN,
            format!(
                "The solution changed since the preview and the plan, {}, would now write other texts than the \
                 previewed ones; nothing was written",
                how.name()
            ),
        )
        .detail("differences", differences)
        .detail("changedSince", serde_json::to_value(&seen).unwrap_or_default())
        .detail("pendingChanges", serde_json::to_value(&pending).unwrap_or_default())
        .suggest("Look at the new plan's pendingChanges, then apply_plan its replayedPlanId");
        error = match kept {
            Kept::Yes { id, expires_at } => error.detail("replayedPlanId", id).detail("expiresAt", rfc3339(expires_at)),
            Kept::No(why) => error.detail("notKept", why),
        };
        Err(error)
    }

    /// The host's compile check of `edits` on its current snapshot; with `names`, of the documents that spell
    /// one of them and the changed ones.
    async fn check(&self, edits: &[FileEdit], names: Vec<String>) -> Result<(), ToolError> {
        let edits = edits.iter().filter(|e| e.kind == EditKind::Modify).cloned().collect();
        let request = ask::check_edits(CheckEditsRequest { edits, names });
        super::ask_by(self.call, self.workspace, request, self.bound).await.map(drop)
    }

    fn root(&self) -> &Path {
        self.resolved.target.solution.parent().unwrap_or(Path::new("/"))
    }
}

/// The text of each edit's file now (none when absent or not UTF-8), read once for the whole settling.
fn texts_now(edits: &[FileEdit]) -> Vec<Option<String>> {
    crate::offload::cpu(|| edits.iter().map(|e| read_text(Path::new(&e.path))).collect())
}

/// The paths of `edits` whose file no longer holds the text the edit was computed from (`now`, as `edits`).
fn moved_files(edits: &[FileEdit], now: &[Option<String>]) -> Vec<PathBuf> {
    let holds = |edit: &FileEdit, now: &Option<String>| match edit.kind {
        EditKind::Create => now.is_none(),
        EditKind::Modify | EditKind::Delete => {
            now.as_deref().is_some_and(|text| sha256_hex(text.as_bytes()) == edit.base_sha256)
        }
    };
    edits.iter().zip(now).filter(|(edit, now)| !holds(edit, now)).map(|(edit, _)| PathBuf::from(&edit.path)).collect()
}

/// A plan's edits carried onto the files as they are: the same edits where its files are unchanged, merged
/// into those that changed elsewhere.
struct Carried {
    edits: Vec<FileEdit>,
    /// The texts they now change, as `edits`.
    bases: Vec<Option<String>>,
    merged: bool,
}

/// The plan's edits carried onto the files as they are (`now`, as its edits), when nothing in `changes` can
/// touch what the plan depends on: no change of its own files added or removed one of its names (nor met its
/// edits), and no other changed file spells one; a plan confined to its own files depends on nothing else, and
/// is carried even when the changes are not known one by one. Then only its compile check is redone; none when
/// it must be computed again.
fn carried(
    proposal: &Proposal,
    changes: Option<&[workspace_actor::snapshots::SnapshotChange]>,
    now: Vec<Option<String>>,
) -> Option<Carried> {
    let edits = &proposal.plan.edits;
    if edits.iter().any(|e| e.kind != EditKind::Modify) {
        return None;
    }
    let (names, changes) = match (depends(&proposal.plan.outline), changes) {
        (Depends::OwnFiles, changes) => (Vec::new(), changes.unwrap_or_default()),
        (Depends::Names(names), Some(changes)) => (names, changes),
        (Depends::Everything, _) | (Depends::Names(_), None) => return None,
    };
    crate::offload::cpu(|| {
        let spelled = |text: &str| names.iter().any(|n| text.contains(n.as_str()));
        let mut others = changes
            .iter()
            .flat_map(|c| c.paths.iter())
            .filter(|path| !edits.iter().any(|e| Path::new(&e.path) == path.as_path()));
        if others.any(|path| read_text(path).is_none_or(|text| spelled(&text))) {
            return None;
        }
        let mut carried = Carried { edits: Vec::with_capacity(edits.len()), bases: Vec::new(), merged: false };
        for ((edit, base), now) in edits.iter().zip(&proposal.bases).zip(now) {
            let (Some(base), Some(now)) = (base, now) else { return None };
            if now == *base {
                carried.edits.push(edit.clone());
                carried.bases.push(Some(now));
                continue;
            }
            if changed_words(base, &now).iter().any(|word| names.iter().any(|n| n == word)) {
                return None;
            }
            let text = merge3(base, &edit.new_text, &now).ok()?;
            carried.edits.push(FileEdit { base_sha256: sha256_hex(now.as_bytes()), new_text: text, ..edit.clone() });
            carried.bases.push(Some(now));
            carried.merged = true;
        }
        Some(carried)
    })
}

fn depends(outline: &Outline) -> Depends {
    match outline {
        Outline::Rename(r) => Depends::Names(vec![r.symbol.name.clone(), r.symbol.new_name.clone()]),
        Outline::ChangeSignature(c) => Depends::Names(vec![simple_name(&c.signature).to_owned()]),
        Outline::SafeDelete(d) => Depends::Names(d.deleted.iter().map(|s| s.name.clone()).collect()),
        Outline::Format(_) | Outline::OrganizeUsings(_) | Outline::RemoveUnused(_) | Outline::CodeAction(_) => {
            Depends::OwnFiles
        }
        Outline::Move(_)
        | Outline::FindReplace(_)
        | Outline::RenameFile(_)
        | Outline::SyncNamespaces(_)
        | Outline::MoveFiles(_) => Depends::Everything,
    }
}

/// `Shop.Pricing.Price(int, decimal)` → `Price`.
fn simple_name(signature: &str) -> &str {
    let head = signature.split('(').next().unwrap_or(signature);
    head.rsplit('.').next().unwrap_or(head).split('<').next().unwrap_or(head)
}

/// What the tool acts on, to tell a replay on the same symbol from one on another.
fn subject(outline: &Outline) -> Option<String> {
    match outline {
        Outline::Rename(r) => Some(r.symbol.fully_qualified_name.clone()),
        Outline::ChangeSignature(c) => Some(c.signature.clone()),
        Outline::SafeDelete(d) => {
            Some(d.deleted.iter().map(|s| s.fully_qualified_name.as_str()).collect::<Vec<_>>().join(", "))
        }
        Outline::Move(m) => Some(m.symbol.previous_fully_qualified_name.clone()),
        _ => None,
    }
}

fn rebased(
    proposal: Proposal,
    how: RebaseKind,
    changed_since: Vec<SnapshotChange>,
    differences: Vec<String>,
) -> Settled {
    let (tool, differing) = (proposal.plan.tool, differences.len());
    tracing::info!(tool, how = how.name(), differences = differing, "plan rebased");
    Settled { proposal, rebased: Some(Rebased { how, changed_since, differences }) }
}

/// A replay's refusal: its error, with why and what changed since the plan; nothing was written.
fn refused(error: ToolError, reason: &str, seen: &[SnapshotChange]) -> ToolError {
    let message = format!(
        "The solution changed since the plan was computed ({}) and the plan could not be brought onto it: {reason}: {}; \
         nothing was written",
        describe(seen),
        error.message
    );
    ToolError { message, ..error }
        .detail("replayRefused", reason)
        .detail("changedSince", serde_json::to_value(seen).unwrap_or_default())
        .suggest("Preview the change again on the solution as it is")
}

/// The metric label of a refusal.
fn refusal_reason(error: &ToolError) -> &'static str {
    let refused = error.details.as_ref().and_then(|d| d.get("replayRefused")).is_some();
    match error.code {
        ErrorCode::STALE_PLAN if error.details.as_ref().is_some_and(|d| d.contains_key("replayedPlanId")) => "exact",
        ErrorCode::STALE_PLAN if refused => "conflict",
        ErrorCode::COMPILATION_ERROR if refused => "compilation",
        _ if refused => "replay_failed",
        _ => "other",
    }
}

/// `2 writes (rename_symbol of session …), 1 change on disk`.
fn describe(seen: &[SnapshotChange]) -> String {
    let writes: Vec<String> = seen
        .iter()
        .filter(|s| s.source == "write")
        .map(|s| format!("{} by session {}", s.tool.as_deref().unwrap_or("?"), s.session_id.as_deref().unwrap_or("?")))
        .collect();
    let disk = seen.iter().filter(|s| s.source == "disk").count();
    let mut parts = Vec::new();
    if !writes.is_empty() {
        parts.push(format!(
            "{} write{} ({})",
            writes.len(),
            if writes.len() == 1 { "" } else { "s" },
            writes.join(", ")
        ));
    }
    if disk > 0 {
        parts.push(format!("{disk} change{} on disk", if disk == 1 { "" } else { "s" }));
    }
    parts.extend(seen.iter().filter_map(|s| s.reason.clone()));
    parts.join(", ")
}

fn seen(change: &workspace_actor::snapshots::SnapshotChange, root: &Path) -> SnapshotChange {
    let mut seen = unknown("", &change.paths, root);
    seen.at = Some(rfc3339(change.at));
    seen.reason = None;
    match &change.source {
        Source::Disk => seen.source = "disk".into(),
        Source::Write { operation, tool, session_id } => {
            seen.source = "write".into();
            (seen.operation_id, seen.tool, seen.session_id) =
                (Some(operation.clone()), Some(tool.clone()), Some(session_id.clone()));
        }
    }
    seen
}

/// A change the log does not know one by one, and why.
fn unknown(why: &str, files: &[PathBuf], root: &Path) -> SnapshotChange {
    SnapshotChange {
        source: "unknown".into(),
        operation_id: None,
        tool: None,
        session_id: None,
        files: files.iter().map(|p| relative(root, p)).collect(),
        at: None,
        reason: Some(why.to_owned()),
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// The file's text now (byte order mark left out); none when absent or not UTF-8.
fn read_text(path: &Path) -> Option<String> {
    let bytes = workspace_actor::read_current(path).ok().flatten()?;
    String::from_utf8(without_bom(&bytes).to_vec()).ok()
}

fn same_texts(a: &[FileEdit], b: &[FileEdit]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.path == y.path && x.kind == y.kind && x.new_text == y.new_text)
}

/// What the new plan changes that the previewed one did not, or no longer changes, file by file, counted in
/// places (runs of changed words).
fn differences(previewed: &Proposal, new: &Proposal, root: &Path) -> Vec<String> {
    let places = |p: &Proposal| -> BTreeMap<String, Option<usize>> {
        p.plan
            .edits
            .iter()
            .zip(&p.bases)
            .map(|(edit, base)| {
                let count = match edit.kind {
                    EditKind::Modify => base.as_deref().map(|b| changed_places(b, &edit.new_text)),
                    EditKind::Create | EditKind::Delete => None,
                };
                (edit.path.clone(), count)
            })
            .collect()
    };
    let (was, is) = (places(previewed), places(new));
    let name = |path: &str| relative(root, Path::new(path));
    let edits = |n: usize| format!("{n} edit{}", if n == 1 { "" } else { "s" });
    let mut lines = Vec::new();
    for (path, count) in &is {
        match (was.get(path), count) {
            (None, Some(n)) => lines.push(format!("also changes {} ({})", name(path), edits(*n))),
            (None, None) => lines.push(format!("also creates or deletes {}", name(path))),
            (Some(Some(before)), Some(now)) if before != now => {
                lines.push(format!("{}: {} instead of {}", name(path), edits(*now), edits(*before)))
            }
            _ => {}
        }
    }
    lines.extend(was.keys().filter(|p| !is.contains_key(*p)).map(|p| format!("no longer changes {}", name(p))));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_names_its_member() {
        assert_eq!(simple_name("Shop.Pricing.Price(int, decimal)"), "Price");
        assert_eq!(simple_name("Shop.Box<T>.Put<U>(U)"), "Put");
        assert_eq!(simple_name("Apply"), "Apply");
    }
}
