//! Requests as MCP 2026-07-28 clients send them over HTTP: no session, the protocol version and client
//! capabilities in each request's `_meta`, and the routing headers (`Mcp-Method`, `Mcp-Name`, and
//! `Mcp-Param-SolutionPath` mirrored from the `solutionPath` argument).

use serde_json::{Value, json};

/// A `tools/call` of `tool` to `url`; `solution_header` overrides the mirrored header (`Some(None)`: none).
pub async fn call(
    url: &str,
    token: &str,
    tool: &str,
    arguments: Value,
    solution_header: Option<Option<String>>,
) -> (u16, String) {
    send(request(url, token, tool, arguments, solution_header)).await
}

/// [`call`]'s request, not yet sent (to add a header).
pub fn request(
    url: &str,
    token: &str,
    tool: &str,
    arguments: Value,
    solution_header: Option<Option<String>>,
) -> reqwest::RequestBuilder {
    let mirrored = arguments.get("solutionPath").and_then(Value::as_str).map(str::to_owned);
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "roslyn-mcp-e2e", "version": "1"}
            }
        }
    });
    let mut request = reqwest::Client::new()
        .post(url)
        .bearer_auth(token)
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", tool)
        .json(&body);
    if let Some(header) = solution_header.unwrap_or(mirrored) {
        request = request.header("Mcp-Param-SolutionPath", header);
    }
    request
}

/// Sends `request`: (status, body).
pub async fn send(request: reqwest::RequestBuilder) -> (u16, String) {
    let response = request.send().await.expect("POST");
    (response.status().as_u16(), response.text().await.expect("body"))
}

/// The JSON-RPC result of a response, whether it came as JSON or as an SSE event.
pub fn result_of(body: &str) -> Value {
    let json = body.lines().find_map(|l| l.strip_prefix("data:")).map_or(body, str::trim);
    let message: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {body}"));
    message["result"].clone()
}
