//! What a job answers while it works or once it was stopped: the `running` answer of a call and of `get_job`,
//! and the same as an MCP task (`CreateTaskResult`, `tasks/get`).

use super::{Job, KEEP_ENDED};
use protocol::tools::jobs::{JobAnswer, JobStatus};
use protocol::{ErrorCode, ToolError};
use rmcp::model::{CreateTaskResult, DetailedTask, GetTaskResult, JsonObject, Task, TaskPayload, TaskStatus};
use std::time::Duration;

/// When a client should ask again: `get_job` waits for the end itself, so at once; a task poller, every 2 s.
const POLL_AFTER: Duration = Duration::from_secs(2);

/// The answer of a call (or of `get_job`) whose work goes on, or was cancelled.
pub fn running(job: &Job) -> JobAnswer {
    let cancelled = job.finished().is_some_and(|f| f.cancelled) || job.cancel.is_cancelled();
    let (status, message) = if cancelled {
        (JobStatus::Cancelled, format!("The {} call was cancelled; nothing of it is left running.", job.tool))
    } else {
        (
            JobStatus::Running,
            format!(
                "The {} call is still working and goes on without you waiting. Call get_job with jobId \"{}\" for its \
                 answer (it waits up to the answer bound for the end, and answers the progress so far otherwise); \
                 get_job with cancel: true stops it.",
                job.tool, job.id
            ),
        )
    };
    JobAnswer {
        status,
        job_id: job.id.clone(),
        tool: job.tool.clone(),
        elapsed_ms: job.elapsed().as_millis() as u64,
        progress: job.progress(),
        poll_after_ms: 0,
        expires_in_seconds: KEEP_ENDED.as_secs(),
        message,
    }
}

/// A call that waited for its solution to load past the read time limit: LOADING, naming the job that
/// answers it once the solution has loaded.
pub fn loading(job: &Job, solution: &std::path::Path) -> ToolError {
    let progress = serde_json::to_value(job.progress()).unwrap_or_default();
    ToolError::new(
        ErrorCode::LOADING,
        format!(
            "{} is still loading ({} s so far); the {} call goes on and get_job with jobId \"{}\" answers it once \
             the solution has loaded",
            solution.display(),
            job.elapsed().as_secs(),
            job.tool,
            job.id
        ),
    )
    .detail("jobId", job.id.clone())
    .detail("solutionPath", solution.display().to_string())
    .detail("elapsedMs", job.elapsed().as_millis() as u64)
    .detail("progress", progress)
    .suggest(format!("get_job {{ jobId: \"{}\" }}", job.id))
}

/// The task a call became, for a client that declared the Tasks extension.
pub fn task_created(job: &Job) -> CreateTaskResult {
    CreateTaskResult::new(task(job, TaskStatus::Working))
}

/// `tasks/get`: the task's state, with the call's answer once it ended.
pub fn task_state(job: &Job) -> GetTaskResult {
    let payload = match job.finished() {
        None if job.cancel.is_cancelled() => TaskPayload::Cancelled,
        None => TaskPayload::Working,
        Some(finished) if finished.cancelled => TaskPayload::Cancelled,
        Some(finished) => TaskPayload::Completed { result: as_object(&finished.result()) },
    };
    let status = payload.status();
    GetTaskResult::new(DetailedTask::new(task(job, status), payload))
}

fn task(job: &Job, status: TaskStatus) -> Task {
    let message = job.progress().latest.unwrap_or_else(|| format!("{} is working", job.tool));
    let updated = humantime::format_rfc3339_millis(job.updated()).to_string();
    Task::new(job.id.clone(), status, job.created_at.clone(), updated)
        .with_status_message(message)
        .with_ttl_ms((job.elapsed() + KEEP_ENDED).as_millis() as u64)
        .with_poll_interval_ms(POLL_AFTER.as_millis() as u64)
}

fn as_object(result: &rmcp::model::CallToolResult) -> JsonObject {
    match serde_json::to_value(result) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}
