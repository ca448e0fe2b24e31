//! The daemon's HTTP walls, tried as their attackers would: another local user without the generated
//! token, a DNS-rebinding page reading /metrics, garbage bodies, and clients that trickle their bytes.

use crate::support::daemon::{StateDir, signal};
use crate::support::other_user::OtherUser;
use crate::support::raw_session::{RawSession, answer};
use crate::support::tool_count;
use serde_json::{Value, json};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A whole HTTP/1.1 exchange on a fresh connection: (status, body).
async fn raw(address: &str, request: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut answer))
        .await
        .expect("the server closes the exchange")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default();
    (status, body)
}

fn get(path: &str, host: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n")
}

fn post(host: &str, token: Option<&str>, body: &str) -> String {
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

async fn address_of(state: &StateDir) -> String {
    state.base_url().await.strip_prefix("http://").expect("http url").to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn another_local_user_cannot_call_without_the_token_generated_for_this_user() {
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let address = address_of(&state).await;
    let token_file = state.path().join("http-token");
    let token = state.token().expect("a token was generated at first start");
    assert!(token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    let metadata = std::fs::metadata(&token_file).expect("token file");
    assert_eq!(metadata.permissions().mode() & 0o777, 0o600, "only this user may read the token");
    assert_eq!(metadata.uid(), std::fs::metadata("/proc/self").expect("self").uid());

    // Loading a project runs its targets: a caller without the token never gets that far.
    assert_eq!(raw(&address, &post(&address, None, INITIALIZE)).await.0, 401, "no token");
    assert_eq!(raw(&address, &post(&address, Some(&"0".repeat(64)), INITIALIZE)).await.0, 401, "a guessed token");
    assert_eq!(raw(&address, &post(&address, Some(&token), INITIALIZE)).await.0, 200, "the user's own token");
    let client = state.http_client(None).await;
    assert_eq!(client.tools().await.len(), tool_count());
    client.close().await;

    if let Some(other) = OtherUser::new() {
        // Another uid can neither read the token nor call without it.
        let read = other.std_command("cat").arg(&token_file).output().expect("cat as another user");
        assert!(!read.status.success() && read.stdout.is_empty(), "another uid read the token");
        let port = address.rsplit(':').next().expect("port");
        let call = other
            .std_command("bash")
            .args(["-c", "exec 3<>/dev/tcp/127.0.0.1/$0; printf '%s' \"$1\" >&3; head -c 12 <&3", port])
            .arg(post(&address, None, INITIALIZE))
            .output()
            .expect("POST as another user");
        let status = String::from_utf8_lossy(&call.stdout);
        assert_eq!(status, "HTTP/1.1 401", "{}", String::from_utf8_lossy(&call.stderr));
    }

    // A restart keeps the token clients were given.
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
    let mut again = state.serve(&[], &[]);
    let address = address_of(&state).await;
    assert_eq!(state.token().as_deref(), Some(token.as_str()));
    assert_eq!(raw(&address, &post(&address, Some(&token), INITIALIZE)).await.0, 200);
    signal(again.id(), "-TERM");
    assert!(again.wait().expect("exit").success());

    // Opting out is explicit, loud, and gives exactly what its name says.
    let open = StateDir::default();
    let mut daemon = open.serve(&["--http-open-to-local-users"], &[]);
    let address = address_of(&open).await;
    assert_eq!(raw(&address, &post(&address, None, INITIALIZE)).await.0, 200);
    assert!(open.token().is_none(), "no token is generated when HTTP is open");
    assert!(open.serve_log().contains("HTTP is open to every local user"), "{}", open.serve_log());
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rebinding_page_reads_neither_metrics_nor_health() {
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let address = address_of(&state).await;
    let token = state.token().expect("token");
    let bearer = format!("Authorization: Bearer {token}\r\n");
    let port = address.rsplit(':').next().expect("port");

    assert_eq!(raw(&address, &get("/metrics", &address, &bearer)).await.0, 200);
    assert_eq!(raw(&address, &get("/metrics", &format!("localhost:{port}"), &bearer)).await.0, 200);
    // A page on evil.example whose name now resolves to 127.0.0.1.
    let rebound = format!("evil.example:{port}");
    assert_eq!(raw(&address, &get("/metrics", &rebound, &bearer)).await.0, 403, "foreign Host");
    assert_eq!(raw(&address, &get("/healthz", &rebound, "")).await.0, 403, "foreign Host on health");
    let origin = format!("{bearer}Origin: http://evil.example\r\n");
    assert_eq!(raw(&address, &get("/metrics", &address, &origin)).await.0, 403, "foreign Origin");
    assert_eq!(raw(&address, &get("/healthz", &address, "Origin: null\r\n")).await.0, 403);
    assert_eq!(raw(&address, &get("/metrics", &address, "")).await.0, 401, "metrics want the token");
    let spaced = format!("Authorization: Bearer  {token}\r\n");
    assert_eq!(raw(&address, &get("/metrics", &address, &spaced)).await.0, 401, "the token exactly, no extra space");

    let (status, body) = raw(&address, &get("/healthz", &address, "")).await;
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Value>(&body).expect("json"), json!({"status": "ok"}), "liveness only");
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}

#[tokio::test(flavor = "multi_thread")]
async fn garbage_bodies_get_json_rpc_errors_and_trickling_clients_are_cut_off() {
    let state = StateDir::default();
    let mut daemon = state.serve(&["--http-read-timeout-secs", "1"], &[]);
    let address = address_of(&state).await;
    let token = state.token().expect("token");

    let error_of = |(status, body): (u16, String)| {
        let body: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("a JSON body ({e}): {body}"));
        assert_eq!(body["jsonrpc"], "2.0", "{body}");
        (status, body["error"]["code"].as_i64().expect("a JSON-RPC error"))
    };
    let parse = raw(&address, &post(&address, Some(&token), "{\"jsonrpc\": \"2.0\", \"id\": 1, ")).await;
    assert_eq!(error_of(parse), (400, -32700), "malformed JSON is a parse error");
    let invalid = raw(&address, &post(&address, Some(&token), r#"{"hello": "world"}"#)).await;
    assert_eq!(error_of(invalid), (400, -32600), "JSON that is not JSON-RPC is an invalid request");
    let surrogate = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "\ud800"}}"#;
    let lone = raw(&address, &post(&address, Some(&token), surrogate)).await;
    assert_eq!(error_of(lone), (400, -32700), "a lone surrogate is no text: a parse error");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let (status, _) = raw(&address, &post(&address, Some(&token), &deep)).await;
    assert_eq!(status, 400, "a deeply nested body is refused, not a crash");

    // Headers that never end: the connection is closed, without an answer to wait for.
    let mut slow = tokio::net::TcpStream::connect(&address).await.expect("connect");
    slow.write_all(format!("POST /mcp HTTP/1.1\r\nHost: {address}\r\n").as_bytes()).await.expect("send");
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(60), slow.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "a client trickling its headers is cut off");

    // A body that never arrives in full: 408 with a JSON-RPC error.
    let mut slow = tokio::net::TcpStream::connect(&address).await.expect("connect");
    let partial = post(&address, Some(&token), INITIALIZE);
    slow.write_all(&partial.as_bytes()[..partial.len() - 20]).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), slow.read_to_end(&mut answer))
        .await
        .expect("the server answers a stalled body")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("-32600"), "{answer}");

    // The daemon still serves everyone else.
    assert_eq!(raw(&address, &post(&address, Some(&token), INITIALIZE)).await.0, 200);
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_http_session_reusing_an_id_in_flight_or_over_its_limit_is_refused_and_the_first_keeps_its_answer() {
    let _slot = crate::support::SLOTS.acquire().await.expect("slot");
    let shop = crate::support::Fixture::copy("Shop");
    let state = StateDir::default();
    // Every read waits 3 s in the host: requests stay in flight while the next ones arrive.
    let mut daemon = state.serve(&["--max-requests-per-session", "2"], &[("ROSLYN_MCP_FAULT_READ_DELAY_MS", "3000")]);
    let session = RawSession::open(&state).await;
    let init = session.call(1, "initialize_workspace", json!({"workingDirectory": shop.root})).await;
    assert_eq!(answer(init).await["result"]["isError"], json!(false));

    let program = shop.file("src/Shop.App/Program.cs");
    // Asking for progress, its stream starts at once: the request is in flight when its headers arrive.
    let first = session
        .call_with_progress(7, "find_symbol_definition", json!({"filePath": program, "line": 14, "column": 13}))
        .await;
    let duplicate = answer(session.call(7, "search_symbols", json!({"query": "Customer"})).await).await;
    assert_eq!(duplicate["error"]["code"], json!(-32600), "{duplicate}");
    assert_eq!(duplicate["id"], json!(7));
    let second = session.call_with_progress(8, "search_symbols", json!({"query": "Order"})).await;
    let over = answer(session.call(9, "search_symbols", json!({"query": "Money"})).await).await;
    assert_eq!(over["id"], json!(9));
    assert_eq!(over["result"]["structuredContent"]["error"]["code"], json!("TOO_MANY_REQUESTS"), "{over}");
    assert_eq!(over["result"]["structuredContent"]["error"]["details"]["scope"], json!("session"));

    let first = answer(first).await;
    assert_eq!(first["id"], json!(7));
    let declared = &first["result"]["structuredContent"];
    assert!(declared.to_string().contains("CustomerRepository"), "the first request keeps its own answer: {first}");
    let second = answer(second).await;
    assert!(second["result"]["structuredContent"].to_string().contains("Order"), "{second}");
    // Answered requests free their ids and their share.
    let again = answer(session.call(7, "search_symbols", json!({"query": "Customer"})).await).await;
    assert_eq!(again["result"]["isError"], json!(false), "{again}");
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}
