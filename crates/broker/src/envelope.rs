//! The one place a tool outcome becomes an MCP result: the payload as `structuredContent` (and as text),
//! or `isError: true` with the failure envelope.

use crate::limits::Limits;
use protocol::{ErrorEnvelope, ToolError};
use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde::Serialize;
use std::collections::BTreeSet;

/// A successful outcome as its MCP result: the payload as `structuredContent` and as text. `limits` caps the
/// text's size (read tools), measured on the text rmcp writes anyway; over it the call fails with
/// CAP_EXCEEDED.
pub fn success<T: Serialize>(
    outcome: Result<T, ToolError>,
    limits: Option<&Limits>,
) -> Result<CallToolResult, ToolError> {
    let value = outcome.and_then(|payload| {
        serde_json::to_value(payload).map_err(|e| ToolError::new(protocol::ErrorCode::ROSLYN_ERROR, e.to_string()))
    })?;
    let result = CallToolResult::structured(value);
    if let Some(limits) = limits {
        let bytes = result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.len()).sum();
        limits.check_response(bytes)?;
    }
    Ok(result)
}

pub fn failure(error: ToolError) -> CallToolResult {
    let envelope = ErrorEnvelope::from(error);
    // Serializing plain data cannot fail; the fallback keeps the promise of never panicking anyway.
    let value = serde_json::to_value(&envelope).unwrap_or_else(|_| serde_json::json!({"success": false}));
    CallToolResult::structured_error(value)
}

/// The answer of a call whose work goes on as a job (or was stopped): not a failure, and never capped.
pub fn working(answer: &protocol::tools::jobs::JobAnswer) -> CallToolResult {
    CallToolResult::structured(serde_json::to_value(answer).unwrap_or_else(|_| serde_json::json!({})))
}

/// What the solution a call asked says of itself (a generator not built), in a successful answer: under
/// `_meta` for a program, and as a text block after the payload for the model that reads the content.
pub const NOTICES_META_KEY: &str = "roslyn-mcp/notices";

pub fn noticed(mut result: CallToolResult, notices: &BTreeSet<String>) -> CallToolResult {
    if notices.is_empty() {
        return result;
    }
    let lines: Vec<&str> = notices.iter().map(String::as_str).collect();
    result.content.push(ContentBlock::text(format!("Note: {}", lines.join("\nNote: "))));
    let mut meta = result.meta.take().unwrap_or_default();
    meta.0.insert(NOTICES_META_KEY.to_owned(), serde_json::json!(lines));
    result.meta = Some(meta);
    result
}

/// The notices a successful answer carries.
pub fn notices_of(result: &CallToolResult) -> Vec<String> {
    let notices = result.meta.as_ref().and_then(|meta| meta.0.get(NOTICES_META_KEY));
    notices.and_then(|n| serde_json::from_value(n.clone()).ok()).unwrap_or_default()
}

/// A failure on such a solution names the notices in its details: they may be why it failed.
pub fn noticed_error(error: ToolError, notices: &BTreeSet<String>) -> ToolError {
    if notices.is_empty() { error } else { error.detail("notices", notices.iter().cloned().collect::<Vec<_>>()) }
}

/// Where the time of a call went: `totalMs` in the service, `hostMs` of it inside the Roslyn host.
pub const TIMING_META_KEY: &str = "roslyn-mcp/timing";

pub fn timing(total_ms: f64, host_ms: f64) -> MetaObject {
    let mut meta = MetaObject::default();
    meta.0.insert(TIMING_META_KEY.to_owned(), serde_json::json!({"totalMs": total_ms, "hostMs": host_ms}));
    meta
}

/// The result with its timing added to the `_meta` it has.
pub fn timed(mut result: CallToolResult, total_ms: f64, host_ms: f64) -> CallToolResult {
    let mut meta = result.meta.take().unwrap_or_default();
    meta.0.extend(timing(total_ms, host_ms).0);
    result.meta = Some(meta);
    result
}
