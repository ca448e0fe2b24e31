//! One MCP session over raw HTTP, as a client that reads the bytes itself sees it: its id, POSTs that carry
//! it and the token, and the answer of a response whether it came as one JSON body or an event stream.

use super::daemon::StateDir;
use serde_json::{Value, json};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

pub struct RawSession {
    url: String,
    token: String,
    id: String,
    client: reqwest::Client,
}

impl RawSession {
    pub async fn open(state: &StateDir) -> Self {
        let url = format!("{}/mcp", state.base_url().await);
        let (token, client) = (state.token().expect("token"), reqwest::Client::new());
        let mut session = Self { url, token, id: String::new(), client };
        let initialized = session.post(INITIALIZE).await;
        session.id = initialized.headers()["mcp-session-id"].to_str().expect("session id").to_owned();
        drop(initialized);
        let acknowledged = session.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        assert_eq!(acknowledged.status(), 202);
        session
    }

    /// The session's id (`Mcp-Session-Id`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// POSTs `body`; answers once the response's headers arrived.
    pub async fn post(&self, body: &str) -> reqwest::Response {
        let mut request = self
            .client
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(body.to_owned());
        if !self.id.is_empty() {
            request = request.header("mcp-session-id", &self.id);
        }
        request.send().await.expect("POST")
    }

    /// A tools/call; its headers arrive with the answer, unless something comes before it.
    pub async fn call(&self, id: u32, tool: &str, arguments: Value) -> reqwest::Response {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        self.post(&body.to_string()).await
    }

    /// A tools/call asking for progress: it is answered with an event stream, whose headers arrive at once
    /// (the request is then in flight).
    pub async fn call_with_progress(&self, id: u32, tool: &str, arguments: Value) -> reqwest::Response {
        let params = json!({"name": tool, "arguments": arguments, "_meta": {"progressToken": format!("p{id}")}});
        self.post(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()).await
    }
}

pub fn content_type(response: &reqwest::Response) -> String {
    response.headers()["content-type"].to_str().expect("content type").to_owned()
}

/// The JSON-RPC messages of an event stream, in order.
pub fn events(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .filter(|data| !data.is_empty())
        .map(|data| serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {data}")))
        .collect()
}

/// The JSON-RPC answer in a response: a JSON body, or the answer event of an event stream.
pub async fn answer(response: reqwest::Response) -> Value {
    let text = response.text().await.expect("body");
    serde_json::from_str(&text).ok().unwrap_or_else(|| {
        events(&text)
            .into_iter()
            .find(|message| message.get("result").is_some() || message.get("error").is_some())
            .unwrap_or_else(|| panic!("no answer in {text}"))
    })
}
