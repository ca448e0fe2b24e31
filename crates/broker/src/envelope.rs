//! The one place a tool outcome becomes an MCP result: the payload as `structuredContent` (and as text),
//! or `isError: true` with the failure envelope.

use crate::limits::Limits;
use protocol::{ErrorEnvelope, ToolError};
use rmcp::model::{CallToolResult, MetaObject};
use serde::Serialize;
use serde_json::Value;

/// The payload as JSON; `limits` caps its size (read tools), over which the call fails with CAP_EXCEEDED.
pub fn payload<T: Serialize>(outcome: Result<T, ToolError>, limits: Option<&Limits>) -> Result<Value, ToolError> {
    let value = outcome.and_then(|payload| {
        serde_json::to_value(payload).map_err(|e| ToolError::new(protocol::ErrorCode::ROSLYN_ERROR, e.to_string()))
    })?;
    match limits {
        Some(limits) => limits.check_response(value.to_string().len()).map(|()| value),
        None => Ok(value),
    }
}

pub fn to_result(payload: Result<Value, ToolError>) -> CallToolResult {
    match payload {
        Ok(value) => CallToolResult::structured(value),
        Err(error) => failure(error),
    }
}

pub fn failure(error: ToolError) -> CallToolResult {
    let envelope = ErrorEnvelope::from(error);
    // Serializing plain data cannot fail; the fallback keeps the promise of never panicking anyway.
    let value = serde_json::to_value(&envelope).unwrap_or_else(|_| serde_json::json!({"success": false}));
    CallToolResult::structured_error(value)
}

/// Where the time of a call went: `totalMs` in the service, `hostMs` of it inside the Roslyn host.
pub const TIMING_META_KEY: &str = "roslyn-mcp/timing";

pub fn timing(total_ms: f64, host_ms: f64) -> MetaObject {
    let mut meta = MetaObject::default();
    meta.0.insert(TIMING_META_KEY.to_owned(), serde_json::json!({"totalMs": total_ms, "hostMs": host_ms}));
    meta
}
