//! `verify: "tests"`: a write proves itself against the tests it reaches. The tests are chosen before the
//! write, from what it changes on the files as they are; after it they run, the write lock still held. If
//! some fail, the write is undone and only those run again on the files as they were: a test that fails
//! there too was failing already and does not block the write, which is then redone. A test that passed
//! before and fails after keeps the write undone (TESTS_FAILED), its plan kept for inspection.

use crate::plans::{Kept, Plan, Proposal};
use crate::tools::Call;
use crate::tools::Resolved;
use crate::tools::testing::plan_lines;
use crate::tools::testing::run::{self, ProjectRun, RunLimits};
use protocol::tools::plans::Verification;
use protocol::tools::testing::{TestOutcome, TestResultItem};
use protocol::{ErrorCode, ToolError};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;
use tokio_util::sync::CancellationToken;
use workspace_actor::history::{Direction, History};
use workspace_actor::{Workspace, WriteGuard};

/// The tests a write reaches, chosen before it is written.
pub struct Checks {
    projects: Vec<ProjectRun>,
    /// Test projects and tests it reaches outside the roots: left out.
    outside: u32,
}

impl Checks {
    /// The tests `plan` reaches, from the files as they are before it is written.
    pub async fn select(call: &Call, resolved: &Resolved, plan: &Plan) -> Result<Self, ToolError> {
        run::enabled(call)?;
        let origin = plan_lines(resolved, plan).await?;
        let found = run::find(call, resolved, origin.clone(), None, None).await?;
        // Every project and test file resolved at the root gate: off the async workers.
        let (projects, outside) = crate::offload::cpu(|| run::plan(&origin, None, &found, &resolved.gate()))?;
        Ok(Self { projects, outside })
    }
}

/// Where the verdict is given: the written operation, and the plan it wrote.
pub struct Written<'a> {
    pub workspace: &'a Arc<Workspace>,
    pub guard: &'a WriteGuard,
    pub operation_id: &'a str,
    pub proposal: &'a Proposal,
    /// The plan's id when it is already kept (apply_plan), else a refusal keeps it anew.
    pub kept_as: Option<&'a str>,
}

/// Runs the checks on the written files and keeps the write, or undoes it. Either way the verdict is
/// recorded with the operation in the history.
pub async fn verdict(
    call: &Call,
    resolved: &Resolved,
    checks: Checks,
    written: Written<'_>,
) -> Result<Verification, ToolError> {
    let began = Instant::now();
    let selected = checks.projects.iter().map(|p| p.tests().count() as u32).sum();
    call.progress.step(format!("Verifying: running the {selected} test(s) the write reaches")).await;
    let after =
        match run::execute(call, resolved, &checks.projects, &RunLimits::new(None, None), None, Some(written.guard))
            .await
        {
            Ok(after) if after.complete => after,
            Ok(_) => return Err(undone(resolved, &written, incomplete()).await),
            Err(error) => return Err(undone(resolved, &written, error).await),
        };
    let failing: BTreeMap<Case, &TestResultItem> =
        after.results.iter().filter(|r| fails(r)).map(|r| (case(r), r)).collect();
    let mut verification = Verification {
        tests_selected: selected,
        cases_run: after.results.iter().filter(|r| r.outcome != TestOutcome::NotRun).count() as u32,
        passed: after.summary.passed,
        omitted_outside_roots: checks.outside + after.omitted_outside_roots,
        ..Verification::default()
    };
    if failing.is_empty() {
        verification.ms = began.elapsed().as_millis() as u64;
        record(&written, &verification).await?;
        return Ok(verification);
    }

    // Which failures are new: only the failing tests, again, on the files as they were.
    step(resolved, &written, Direction::Undo).await?;
    let methods: BTreeSet<String> = failing.values().map(|r| r.test.clone()).collect();
    let again: Vec<ProjectRun> = checks.projects.iter().filter_map(|p| p.only(&methods)).collect();
    call.progress
        .step(format!("Verifying: {} case(s) failed; running them on the files before the write", failing.len()))
        .await;
    // From here the write stays undone unless every failure proves old.
    let undone_meanwhile =
        |error: ToolError| error.detail("rolledBack", true).detail("operationId", written.operation_id);
    let before = run::execute(call, resolved, &again, &RunLimits::new(None, None), None, Some(written.guard))
        .await
        .map_err(undone_meanwhile)?;
    let new = new_failures(&failing, &before.results);
    verification.new_failures = ids(&new);
    verification.failing_before_and_after = ids(&failing.values().copied().collect::<Vec<_>>())
        .into_iter()
        .filter(|id| !verification.new_failures.contains(id))
        .collect();
    verification.ms = began.elapsed().as_millis() as u64;
    if !before.complete {
        return Err(undone_meanwhile(incomplete()));
    }
    if new.is_empty() {
        step(resolved, &written, Direction::Redo).await.map_err(undone_meanwhile)?;
        record(&written, &verification).await?;
        return Ok(verification);
    }
    record(&written, &verification).await?;
    Err(tests_failed(call, &written, &new, &verification))
}

/// How many new failures a refusal lists with their message and place.
const FAILURES_LISTED: usize = 50;

fn fails(result: &TestResultItem) -> bool {
    matches!(result.outcome, TestOutcome::Failed | TestOutcome::Crashed)
}

/// A case as the verdict compares it: its id in one target framework.
type Case<'a> = (&'a str, Option<&'a str>);

fn case(result: &TestResultItem) -> Case<'_> {
    (result.id.as_str(), result.target_framework.as_deref())
}

/// The cases failing after the write that did not fail before it. A case of a multi-targeted test is its own:
/// failing before in one target framework does not excuse failing after in another.
fn new_failures<'a>(
    failing: &BTreeMap<Case, &'a TestResultItem>,
    before: &[TestResultItem],
) -> Vec<&'a TestResultItem> {
    let failed_before: BTreeSet<Case> = before.iter().filter(|r| fails(r)).map(case).collect();
    failing.iter().filter(|(case, _)| !failed_before.contains(*case)).map(|(_, r)| *r).collect()
}

/// The cases' ids, each once, sorted.
fn ids(cases: &[&TestResultItem]) -> Vec<String> {
    let ids: BTreeSet<&String> = cases.iter().map(|r| &r.id).collect();
    ids.into_iter().cloned().collect()
}

/// Undoes or redoes the written operation, under the lock the write still holds. Not cancellable: a
/// cancelled verification must still leave the files whole.
async fn step(resolved: &Resolved, written: &Written<'_>, direction: Direction) -> Result<(), ToolError> {
    let deadline = tokio::time::Instant::now() + written.workspace.write_timeout();
    written
        .workspace
        .step(
            written.guard,
            written.operation_id,
            direction,
            resolved.target.roots.clone(),
            deadline,
            &CancellationToken::new(),
        )
        .await
        .map(drop)
}

/// `error`, after undoing the write it could not verify.
async fn undone(resolved: &Resolved, written: &Written<'_>, error: ToolError) -> ToolError {
    match step(resolved, written, Direction::Undo).await {
        Ok(()) => {
            // Undone already: nothing for the next start to roll back. Only logged if it cannot be said, since
            // a start rolling back what is undone changes nothing.
            if let Err(failure) = in_history(written, |history, id| history.settled(id)).await {
                tracing::warn!(%failure, "cannot mark an undone write as settled");
            }
            error.detail("rolledBack", true).detail("operationId", written.operation_id)
        }
        Err(undo) => undo.detail("rolledBack", false).detail("cause", error.to_string()),
    }
}

async fn record(written: &Written<'_>, verification: &Verification) -> Result<(), ToolError> {
    let verification = verification.clone();
    in_history(written, move |history, id| history.verified(id, &verification)).await
}

/// `change` of the written operation's entry in the history, off the async workers.
async fn in_history(
    written: &Written<'_>,
    change: impl FnOnce(&History, &str) -> Result<(), ToolError> + Send + 'static,
) -> Result<(), ToolError> {
    let (history, id) = (written.workspace.history(), written.operation_id.to_owned());
    tokio::task::spawn_blocking(move || change(&history, &id))
        .await
        .map_err(|e| ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("recording the verification failed: {e}")))?
}

fn incomplete() -> ToolError {
    ToolError::new(
        ErrorCode::TIMEOUT,
        "The tests the write reaches did not finish within their time limit; the write was undone",
    )
    .suggest("Write without verify, then run_tests with a longer timeoutSeconds")
}

/// The refusal: each new failure with its message and the first place in the solution its trace names.
fn tests_failed(call: &Call, written: &Written<'_>, new: &[&TestResultItem], verification: &Verification) -> ToolError {
    // A change that breaks thousands of tests names the first of them; the count says how many.
    let failures: Vec<serde_json::Value> = new
        .iter()
        .take(FAILURES_LISTED)
        .map(|r| {
            let place = r.stack_trace.iter().find(|f| f.file_path.is_some());
            serde_json::json!({
                "id": r.id, "project": r.project, "targetFramework": r.target_framework, "outcome": r.outcome, "message": r.message,
                "filePath": place.and_then(|f| f.file_path.clone()), "line": place.and_then(|f| f.line),
            })
        })
        .collect();
    let plan_id = match written.kept_as {
        Some(id) => Some(id.to_owned()),
        None => match call.services.plans.keep(call.plan_holder(), written.proposal.clone()) {
            Kept::Yes { id, .. } => Some(id),
            Kept::No(_) => None,
        },
    };
    let mut error = ToolError::new(
        ErrorCode::TESTS_FAILED,
        format!(
            "{} test case(s) that passed before the write fail after it: {}; the write was undone",
            new.len(),
            new[0].id
        ),
    )
    .detail("failures", failures)
    .detail("failuresOmitted", new.len().saturating_sub(FAILURES_LISTED))
    .detail("operationId", written.operation_id)
    .detail("rolledBack", true)
    .detail("verification", serde_json::to_value(verification).unwrap_or_default())
    .suggest("Fix the change and write it again; the plan is kept: apply_plan writes it as it was");
    if let Some(id) = plan_id {
        error = error.detail("planId", id);
    }
    error
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, framework: &str, outcome: TestOutcome) -> TestResultItem {
        TestResultItem {
            id: id.to_owned(),
            test: id.to_owned(),
            project: "Tests".to_owned(),
            target_framework: Some(framework.to_owned()),
            outcome,
            duration_ms: None,
            message: None,
            stack_trace: Vec::new(),
        }
    }

    #[test]
    fn a_failure_is_old_only_in_the_target_framework_it_failed_in_before() {
        let after = [
            result("T.Old", "net8.0", TestOutcome::Failed),
            result("T.Split", "net8.0", TestOutcome::Failed),
            result("T.Split", "net10.0", TestOutcome::Failed),
        ];
        let failing: BTreeMap<Case, &TestResultItem> = after.iter().map(|r| (case(r), r)).collect();
        let before = [
            result("T.Old", "net8.0", TestOutcome::Failed),
            result("T.Split", "net8.0", TestOutcome::Passed),
            result("T.Split", "net10.0", TestOutcome::Failed),
        ];
        let new = new_failures(&failing, &before);
        assert_eq!(new.iter().map(|r| case(r)).collect::<Vec<_>>(), [("T.Split", Some("net8.0"))]);
        assert_eq!(ids(&new), ["T.Split"]);
    }
}
