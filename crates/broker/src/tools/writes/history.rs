//! undo, redo and list_operations: the solution's history of applied writes. Undo and redo are writes like
//! any other (write lock, journal, root gate, time limit, rollback); a file changed since takes the step merged
//! in where the changes are at other places.

use super::elapsed_ms;
use crate::tools::Call;
use protocol::tools::plans::{ListOperationsInput, ListOperationsOutput, OperationInput, OperationOutput};
use protocol::{ErrorCode, ToolError};
use std::time::Instant;
use workspace_actor::history::Direction;

pub async fn undo(call: &Call, input: OperationInput) -> Result<OperationOutput, ToolError> {
    step(call, input, Direction::Undo).await
}

pub async fn redo(call: &Call, input: OperationInput) -> Result<OperationOutput, ToolError> {
    step(call, input, Direction::Redo).await
}

pub async fn list_operations(call: &Call, input: ListOperationsInput) -> Result<ListOperationsOutput, ToolError> {
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let history = resolved.workspace.history();
    let retained = history.bound();
    let operations = tokio::task::spawn_blocking(move || history.list())
        .await
        .map_err(|e| ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("reading the history failed: {e}")))?;
    Ok(ListOperationsOutput {
        operations,
        retained,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

async fn step(call: &Call, input: OperationInput, direction: Direction) -> Result<OperationOutput, ToolError> {
    let began = Instant::now();
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let workspace = call.load(&resolved.workspace).await?;
    let guard = call.begin_write(&workspace, input.wait_seconds).await?;
    let roots = resolved.target.roots.clone();
    let deadline = tokio::time::Instant::now() + workspace.write_timeout();
    let (id, cancel) = (input.operation_id.clone(), call.cancel.clone());
    let verb = if direction == Direction::Undo { "Undoing" } else { "Redoing" };
    call.progress.step(format!("{verb} {id}")).await;
    let write = tokio::spawn(async move { workspace.step(&guard, &id, direction, roots, deadline, &cancel).await });
    let (operation, outcomes) =
        write.await.map_err(|e| ToolError::new(ErrorCode::ROSLYN_ERROR, format!("the write failed: {e}")))??;
    Ok(OperationOutput {
        success: true,
        operation_id: input.operation_id,
        state: direction.end_state(),
        changes: operation.changes(direction),
        checksums: super::render::checksums(&outcomes),
        execution_time_ms: elapsed_ms(began),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
