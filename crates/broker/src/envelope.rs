//! The one place a tool outcome becomes an MCP result: the payload as `structuredContent` (and as text),
//! or `isError: true` with the failure envelope.

use crate::limits::Limits;
use protocol::{ErrorEnvelope, ToolError};
use rmcp::model::{CallToolResult, MetaObject};
use serde::Serialize;

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

/// Where the time of a call went: `totalMs` in the service, `hostMs` of it inside the Roslyn host.
pub const TIMING_META_KEY: &str = "roslyn-mcp/timing";

pub fn timing(total_ms: f64, host_ms: f64) -> MetaObject {
    let mut meta = MetaObject::default();
    meta.0.insert(TIMING_META_KEY.to_owned(), serde_json::json!({"totalMs": total_ms, "hostMs": host_ms}));
    meta
}
