//! move_type_to_file and move_type_to_namespace. The host computes the edits (and refuses moves that are
//! impossible or would add compiler errors); this side gates every path, resolved, previews, or writes them
//! atomically under the workspace's write lock, the write gating each path again as it touches it.

mod input;
mod output;

use super::{Call, unexpected};
use output::Summary;
use protocol::host::{
    FileDestination, MoveDestination, MovePlan, MoveRequest, NamespaceDestination, RequestBody, ResponseBody,
};
use protocol::tools::moves::{MoveOutput, MoveTypeToFileInput, MoveTypeToNamespaceInput};
use protocol::{ErrorCode, ToolError};
use std::path::{Path, PathBuf};
use std::time::Instant;
use workspace_actor::Walls;
use workspace_actor::checksum::without_bom;

pub async fn move_type_to_file(call: &Call, input: MoveTypeToFileInput) -> Result<MoveOutput, ToolError> {
    let began = Instant::now();
    let target = input::target_file(&input.target_file, &call.scope)?;
    let destination = MoveDestination::File(FileDestination {
        target_file: target.display().to_string(),
        create_target_file: input.create_target_file.unwrap_or(true),
    });
    let job = Job::new(call, &input.source_file, input.symbol_name, input.line, destination, began)?;
    run(call, Job { also_admit: Some(target), ..job }, input.preview, input.solution_path.as_deref()).await
}

pub async fn move_type_to_namespace(call: &Call, input: MoveTypeToNamespaceInput) -> Result<MoveOutput, ToolError> {
    let began = Instant::now();
    input::dotted_name(&input.target_namespace, "targetNamespace", ErrorCode::INVALID_NAMESPACE)?;
    let destination = MoveDestination::Namespace(NamespaceDestination {
        target_namespace: input.target_namespace,
        update_file_location: input.update_file_location.unwrap_or(false),
    });
    let job = Job::new(call, &input.source_file, input.symbol_name, input.line, destination, began)?;
    run(call, job, input.preview, input.solution_path.as_deref()).await
}

struct Job {
    source: PathBuf,
    /// A path named by the input besides the source, gated too.
    also_admit: Option<PathBuf>,
    request: MoveRequest,
    began: Instant,
}

impl Job {
    /// Checks what both tools take: the source file, the type's name and its line.
    fn new(
        call: &Call,
        source_file: &str,
        symbol_name: String,
        line: Option<u32>,
        destination: MoveDestination,
        began: Instant,
    ) -> Result<Self, ToolError> {
        input::dotted_name(&symbol_name, "symbolName", ErrorCode::INVALID_SYMBOL_NAME)?;
        input::line(line)?;
        let source = input::source_file(source_file, &call.scope)?;
        let request = MoveRequest { source_file: source.display().to_string(), symbol_name, line, destination };
        Ok(Self { source, also_admit: None, request, began })
    }
}

async fn run(
    call: &Call,
    job: Job,
    preview: Option<bool>,
    solution_path: Option<&str>,
) -> Result<MoveOutput, ToolError> {
    let preview = preview.unwrap_or(false);
    let resolved = call.resolve(solution_path, Some(&job.source)).await?;
    if let Some(path) = &job.also_admit {
        resolved.target.admit(path).map_err(as_target_error)?;
    }
    let workspace = resolved.workspace;
    let solution = resolved.target.solution.display().to_string();
    // Loading has its own limit; the write's starts with a loaded solution.
    let workspace = call.load(&workspace).await?;
    // A write holds the lock from before computing until the host has the new files; a preview holds none.
    let guard = if preview { None } else { Some(workspace.begin_write()?) };
    let limit = workspace.write_timeout();
    let deadline = tokio::time::Instant::now() + limit;
    let operation_id = uuid::Uuid::new_v4().to_string();
    call.progress.step(format!("Computing the move of {}", job.request.symbol_name)).await;
    let asked = call.ask_within(&workspace, RequestBody::PlanMove(job.request), Some(limit));
    let plan = match tokio::time::timeout_at(deadline, asked).await.map_err(|_| timeout(limit))??.body {
        ResponseBody::MovePlan(plan) => plan,
        other => return Err(unexpected(other)),
    };
    let walls = Walls::new(resolved.target.roots.clone(), resolved.target.client_roots.clone());
    gate(&walls, &plan)?;
    let Some(guard) = guard else {
        let current = current_texts(&plan)?;
        let root = resolved.target.solution.parent().unwrap_or(Path::new("/"));
        let summary = Summary { operation_id, execution_time_ms: elapsed_ms(job.began), solution };
        return Ok(MoveOutput::Preview(output::preview(&plan, &current, root, summary)));
    };
    // The write checks every file again, under the lock, just before replacing it.
    tracing::info!(
        operation_id,
        solution,
        symbol = plan.symbol.fully_qualified_name,
        files = plan.edits.len(),
        "applying move"
    );
    call.progress.step(format!("Writing {} files", plan.edits.len())).await;
    // The write runs to its end, finished or rolled back, with the lock held, even if the session that
    // asked for it goes away meanwhile; cancelling the request rolls it back.
    let (writes, cancel, operation) = (output::writes(&plan), call.cancel.clone(), operation_id.clone());
    let write = tokio::spawn(async move { workspace.write(guard, &operation, walls, writes, deadline, &cancel).await });
    let outcomes =
        write.await.map_err(|e| ToolError::new(ErrorCode::ROSLYN_ERROR, format!("the write failed: {e}")))??;
    call.progress.step("Files written and the Roslyn host updated").await;
    let summary = Summary { operation_id, execution_time_ms: elapsed_ms(job.began), solution };
    Ok(MoveOutput::Applied(output::applied(&plan, &outcomes, summary)))
}

/// Every file the plan touches must be inside the workspace once resolved: the host reports a file reached
/// through a linked folder by its linked path. The whole move is refused, so no half of it is written.
fn gate(walls: &Walls, plan: &MovePlan) -> Result<(), ToolError> {
    plan.edits.iter().try_for_each(|edit| walls.admit(Path::new(&edit.path)).map(drop))
}

/// The text each file holds now, after the checks the write would make (still as the plan expects, and
/// writable); none for new files.
fn current_texts(plan: &MovePlan) -> Result<Vec<Option<String>>, ToolError> {
    output::writes(plan)
        .iter()
        .map(|write| {
            let original = workspace_actor::check(write)?;
            Ok(original.map(|o| String::from_utf8_lossy(without_bom(&o.bytes)).into_owned()))
        })
        .collect()
}

fn as_target_error(error: ToolError) -> ToolError {
    ToolError { code: ErrorCode::INVALID_TARGET_PATH, ..error }
}

fn timeout(limit: std::time::Duration) -> ToolError {
    ToolError::new(ErrorCode::TIMEOUT, "Computing the move exceeded the write time limit; nothing was changed")
        .detail("timeoutMs", limit.as_millis() as u64)
        .suggest("Retry, or raise the write timeout (at most 120 s)")
}

fn elapsed_ms(began: Instant) -> u64 {
    began.elapsed().as_millis() as u64
}
