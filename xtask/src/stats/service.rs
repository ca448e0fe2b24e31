//! The real service, driven as an agent drives it: `roslyn-mcp stdio --embedded` as a child process, spoken
//! to over MCP by rmcp's client; every call timed and tallied under its tool's name.

use super::table::Table;
use anyhow::{Context, Result, anyhow};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

pub struct Service {
    client: RunningService<RoleClient, ()>,
    _state: tempfile::TempDir,
    /// Each tool's calls and their times.
    pub table: Mutex<Table>,
}

/// A tool's answer: its payload, or the error envelope's `error` object.
pub type Answer<T = Value> = std::result::Result<T, Value>;

impl Service {
    /// Starts `binary` in `folder` with its own state folder (no spare host: the check measures the calls).
    pub async fn start(binary: &Path, folder: &Path, log: &Path) -> Result<Self> {
        let state = tempfile::Builder::new().prefix("roslyn-mcp-stats-").tempdir()?;
        let mut command = tokio::process::Command::new(binary);
        command
            .args(["stdio", "--embedded"])
            .current_dir(folder)
            .env("ROSLYN_MCP_STATE_DIR", state.path())
            .env("ROSLYN_MCP_SPARE_HOST", "false")
            .env("ROSLYN_MCP_LOG", "info,rmcp=warn");
        super::roll_forward(&mut command);
        let stderr = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let (transport, _) = TokioChildProcess::builder(command).stderr(stderr).spawn()?;
        let client = ().serve(transport).await.context("MCP initialize")?;
        Ok(Self { client, _state: state, table: Mutex::default() })
    }

    /// Calls `tool` as a patient agent does: an answer with its job (the work outlasted the answer bound, or
    /// waited for the solution to load: LOADING) is followed with get_job to the call's own answer. A tool's
    /// refusal is an `Err` answer, and so is a failure of the protocol (code `PROTOCOL`): one item's failure
    /// is a failed case, never the end of the check.
    pub async fn call(&self, tool: &str, arguments: Value) -> Answer {
        let began = Instant::now();
        let mut answer = self.call_once(tool, arguments).await;
        while let Some(job) = match &answer {
            Ok(value) if value["status"] == "running" => value["jobId"].as_str().map(str::to_owned),
            Err(error) if error["code"] == "LOADING" => error["details"]["jobId"].as_str().map(str::to_owned),
            _ => None,
        } {
            answer = self.call_once("get_job", json!({"jobId": job})).await;
        }
        self.table.lock().unwrap_or_else(|e| e.into_inner()).time(tool, began.elapsed());
        answer
    }

    async fn call_once(&self, tool: &str, arguments: Value) -> Answer {
        let Value::Object(arguments) = arguments else {
            return Err(protocol(format!("{tool}: arguments are not an object")));
        };
        let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let result: CallToolResult =
            self.client.call_tool(request).await.map_err(|e| protocol(format!("{tool}: {e}")))?;
        let value = result.structured_content.ok_or_else(|| protocol(format!("{tool}: no structured content")))?;
        if result.is_error == Some(true) { Err(value["error"].clone()) } else { Ok(value) }
    }

    /// A call that must succeed: its refusal is an error of the check itself.
    pub async fn ok(&self, tool: &str, arguments: Value) -> Result<Value> {
        self.call(tool, arguments.clone()).await.map_err(|error| anyhow!("{tool} {arguments} failed: {error}"))
    }

    /// One case of `invariant`: passed, or failed with why.
    pub fn case(&self, invariant: &str, outcome: std::result::Result<(), String>) {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).case(invariant, outcome);
    }

    /// One case of `invariant` from a tool's answer: `judge` decides an answer; a refusal fails the case
    /// with its code and message, at `place`.
    pub fn judged(
        &self,
        invariant: &str,
        place: &str,
        answer: Answer,
        judge: impl FnOnce(Value) -> std::result::Result<(), String>,
    ) {
        let outcome = answer.map_err(|error| refusal(place, &error)).and_then(judge);
        self.case(invariant, outcome);
    }

    pub async fn close(self) -> Result<Table> {
        self.client.cancel().await.map_err(|e| anyhow!("closing the session: {e}"))?;
        Ok(self.table.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A failure of the protocol, as an answer's error.
fn protocol(message: String) -> Value {
    json!({"code": "PROTOCOL", "message": message})
}

/// A refusal as a case's reason: where, the code and the message.
pub fn refusal(place: &str, error: &Value) -> String {
    format!("{place}: {} {}", error["code"].as_str().unwrap_or("?"), error["message"].as_str().unwrap_or_default())
}
