//! get_job: the answer of a call that answered with its job, once the work is done, or where it stands.

use super::Call;
use crate::jobs;
use protocol::ToolError;
use protocol::tools::jobs::{GetJobInput, JobAnswer};
use serde::Serialize;
use std::time::Duration;

/// What get_job answers: the call's own answer, or the job's while it works (or once it was cancelled).
#[derive(Serialize)]
#[serde(untagged)]
pub enum Reply {
    Job(JobAnswer),
    Answer(serde_json::Value),
}

pub async fn get_job(call: &Call, input: GetJobInput) -> Result<Reply, ToolError> {
    let store = &call.services.jobs;
    let job = store.find(&input.job_id, &call.owner)?;
    if input.cancel == Some(true) {
        job.cancel.cancel();
    }
    let wait =
        input.wait_seconds.map_or(store.answer_within, |s| store.answer_within.min(Duration::from_secs(s.into())));
    let finished = tokio::select! {
        finished = job.ended_within(wait) => finished,
        () = call.cancel.cancelled() => None,
    };
    match finished {
        Some(finished) if !finished.cancelled => {
            // Set once: this call has one outcome.
            let _ = call.answered_for.set((finished.total_ms, finished.host_ms));
            let result = finished.outcome.clone()?;
            // What the work's solution said of itself goes out with its answer, as the call's own would have.
            call.notices
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .extend(crate::envelope::notices_of(&result));
            Ok(Reply::Answer(result.structured_content.unwrap_or_default()))
        }
        _ => Ok(Reply::Job(jobs::running(&job))),
    }
}
