//! apply_plan: writes exactly the plan a preview kept, after checking every file still holds the text it
//! was computed from. The same write as applying directly.

use super::{Write, apply, gate};
use crate::plans::Plan;
use crate::tools::Call;
use protocol::ToolError;
use protocol::tools::plans::ApplyPlanInput;
use protocol::tools::refactor::AppliedPlan;
use std::time::Instant;

pub async fn apply_plan(call: &Call, input: ApplyPlanInput) -> Result<AppliedPlan, ToolError> {
    let began = Instant::now();
    let plan = Plan::clone(&*call.services.plans.get(&input.plan_id)?);
    let solution = plan.solution.display().to_string();
    // The applying session's roots, not the previewing one's: a plan id passed around grants nothing.
    let resolved = call.resolve(Some(&solution))?;
    gate(&resolved.target.roots, &plan)?;
    let workspace = call.load(&resolved.workspace).await?;
    let guard = call.begin_write(&workspace, input.wait_seconds).await?;
    let deadline = tokio::time::Instant::now() + workspace.write_timeout();
    let verify = input.verify.unwrap_or_default();
    let write = Write { resolved: &resolved, workspace, guard, plan, deadline, began, verify };
    let applied = apply(call, write, input.plan_id.clone(), true).await?;
    call.services.plans.applied(&input.plan_id, &applied.operation_id);
    Ok(applied)
}
