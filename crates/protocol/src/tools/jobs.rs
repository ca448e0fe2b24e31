//! Calls that outlast a client's time limit: a call still working after the service's `--answer-within`
//! answers with a [`JobAnswer`] (status `running`, a `jobId`) while its work goes on, and `get_job` returns
//! the call's own answer once it is done. A client that declares the MCP Tasks extension gets a task instead,
//! under the same id.

use super::groups::tool_input;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct GetJobInput(;) {
        pub job_id: String,
        #[serde(default)]
        pub cancel: Option<bool>,
        #[serde(default)]
        pub wait_seconds: Option<u32>,
    }
}

/// Where a job stands when it is not answered by the call's own answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    /// The work goes on: ask `get_job` again.
    Running,
    /// The work was stopped (`get_job` with `cancel`, `tasks/cancel`, or the service stopping).
    Cancelled,
}

/// A call's answer while its work goes on (or once it was cancelled): ask `get_job { jobId }` for the
/// call's own answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobAnswer {
    pub status: JobStatus,
    /// Pass to `get_job`; valid in any session of the same user until `expiresInSeconds` after the job ends.
    pub job_id: String,
    /// The tool whose call this is.
    pub tool: String,
    /// How long the work has taken so far.
    pub elapsed_ms: u64,
    pub progress: JobProgress,
    /// When to ask again; `get_job` itself waits for the end up to the answer bound, so asking at once is fine.
    pub poll_after_ms: u64,
    /// How long the answer is kept once the job has ended.
    pub expires_in_seconds: u64,
    /// What to do next, in words.
    pub message: String,
}

/// [`JobAnswer`] as every tool's output schema accepts it: what tells it apart, in a few bytes, since each of the
/// tools repeats it (get_job's own schema has the whole of it).
pub fn working_schema() -> serde_json::Value {
    serde_json::json!({
        "properties": {"status": {"enum": ["running", "cancelled"]}, "jobId": {"type": "string"}},
        "required": ["status", "jobId"]
    })
}

/// What the work has done so far, as its steps reported it (tests finished, projects built, files written).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobProgress {
    /// Steps reported so far.
    pub steps: u32,
    /// The latest step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest: Option<String>,
    /// The last few steps, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent: Vec<String>,
}

/// What `get_job` publishes as its output: the job's answer while it runs, else the call's own answer,
/// whatever its tool's schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GetJobOutput {
    Job(JobAnswer),
    Answer(serde_json::Map<String, serde_json::Value>),
}
