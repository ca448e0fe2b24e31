//! The span of one tool call, shaped as the OpenTelemetry conventions for MCP servers describe.

use tracing::field::Empty;

/// `tools/call {tool}`, kind server. It starts its own trace rather than joining the span of the session
/// that carries it (rmcp wraps a whole session in one), so each call is a trace of its own.
/// `solution`, `outcome`, `error.type` (catalog code name or "tool_error") and `duration_ms` are recorded
/// when known.
pub fn tool_span(tool: &str, session: &str) -> tracing::Span {
    tracing::info_span!(
        parent: None,
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        gen_ai.tool.name = tool,
        gen_ai.operation.name = "execute_tool",
        mcp.session.id = session,
        solution = Empty,
        outcome = Empty,
        "error.type" = Empty,
        duration_ms = Empty,
    )
}
