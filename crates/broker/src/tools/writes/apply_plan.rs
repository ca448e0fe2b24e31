//! apply_plan: writes the plan a preview kept. On the solution as the preview saw it, exactly the previewed
//! texts; on a newer one, the plan kept, replayed or merged as [`super::settle`] decides (`exact: true`: only
//! the previewed texts, else STALE_PLAN with the replayed plan). The same write as applying directly; a plan
//! that changes no file writes nothing, answers `changed: false` and stays kept.

use super::{Write, apply, gate, settle};
use crate::plans::Proposal;
use crate::tools::Call;
use protocol::ToolError;
use protocol::tools::plans::ApplyPlanInput;
use protocol::tools::refactor::AppliedPlan;
use std::time::Instant;

pub async fn apply_plan(call: &Call, input: ApplyPlanInput) -> Result<AppliedPlan, ToolError> {
    let began = Instant::now();
    let proposal = Proposal::clone(&*call.services.plans.get(&input.plan_id)?);
    let solution = proposal.plan.solution.display().to_string();
    // The applying session's roots, not the previewing one's: a plan id passed around grants nothing.
    let resolved = call.resolve(Some(&solution))?;
    gate(&resolved.target.roots, &proposal.plan)?;
    let workspace = call.load(&resolved.workspace).await?;
    let exact = input.exact.unwrap_or(false);
    let turn = settle::Turn { wait_seconds: input.wait_seconds, held: None };
    let locked = settle::settle_locking(call, &resolved, &workspace, proposal, exact, turn).await?;
    let verify = input.verify.unwrap_or_default();
    let write = Write { resolved: &resolved, workspace, locked, began, verify };
    let applied = apply(call, write, input.plan_id.clone(), true).await?;
    // A plan that changed nothing stays kept: no file moved on from what it was computed from, and there is no
    // operation to name. Applied again it changes nothing again (or, on a solution that changed meanwhile, is
    // brought onto it as any kept plan is).
    if let Some(operation) = &applied.operation_id {
        call.services.plans.applied(&input.plan_id, operation);
    }
    Ok(applied)
}
