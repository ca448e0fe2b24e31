//! Sessions a careless or hostile client cannot abuse, driven by a raw client that writes JSON-RPC lines
//! itself (to the daemon's socket, or to `roslyn-mcp stdio --embedded`): a call sent the instant after
//! `initialized` is still held to the client's roots, a flood of pipelined requests is bounded and its
//! memory given back, and a request reusing an id in flight is refused without touching the first.

use crate::support::daemon::StateDir;
use crate::support::{Fixture, SLOTS, eventually, memory_kib};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// How long a raw client waits for one message before the test fails.
const PATIENCE: Duration = Duration::from_secs(120);
/// The default limit of requests in flight per session.
const PER_SESSION: usize = 32;

/// An MCP session spoken line by line: what the service writes arrives on `incoming`; lines to write go
/// through a writer task, so a test can keep sending while it reads.
struct Raw {
    outgoing: mpsc::UnboundedSender<Value>,
    incoming: mpsc::UnboundedReceiver<Value>,
    _child: Option<tokio::process::Child>,
}

impl Raw {
    fn over<R, W>(read: R, write: W, child: Option<tokio::process::Child>) -> Self
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (outgoing, mut to_write) = mpsc::unbounded_channel::<Value>();
        let (received, incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut write = write;
            while let Some(message) = to_write.recv().await {
                let line = format!("{message}\n");
                if write.write_all(line.as_bytes()).await.is_err() || write.flush().await.is_err() {
                    return;
                }
            }
        });
        tokio::spawn(async move {
            let mut lines = BufReader::new(read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if received.send(message).is_err() {
                    return;
                }
            }
        });
        Self { outgoing, incoming, _child: child }
    }

    /// A session on the daemon's local socket.
    async fn socket(state: &StateDir) -> Self {
        let info = eventually(Duration::from_secs(30), || async { state.info() }).await.expect("daemon.json");
        let path = info["socket"].as_str().expect("socket path").to_owned();
        let stream = tokio::net::UnixStream::connect(&path).await.expect("connect to the daemon's socket");
        let (read, write) = stream.into_split();
        Self::over(read, write, None)
    }

    /// `roslyn-mcp stdio --embedded` in `cwd`, with its log and state under `state`.
    fn embedded(cwd: &Path, state: &StateDir) -> Self {
        let log = std::fs::File::create(state.path().join("embedded.log")).expect("log");
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"))
            .args(["stdio", "--embedded"])
            .current_dir(cwd)
            .env("ROSLYN_MCP_STATE_DIR", state.path())
            .env("ROSLYN_MCP_LOG", "info,rmcp=warn")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .expect("spawn roslyn-mcp stdio --embedded");
        let (stdin, stdout) = (child.stdin.take().expect("stdin"), child.stdout.take().expect("stdout"));
        Self::over(stdout, stdin, Some(child))
    }

    fn send(&self, message: Value) {
        self.outgoing.send(message).expect("the writer is running");
    }

    async fn next(&mut self) -> Value {
        match tokio::time::timeout(PATIENCE, self.incoming.recv()).await {
            Ok(Some(message)) => message,
            Ok(None) => panic!("the service closed the session"),
            Err(_) => panic!("no message from the service in {PATIENCE:?}"),
        }
    }

    /// The next answer (response or error), skipping notifications.
    async fn answer(&mut self) -> Value {
        loop {
            let message = self.next().await;
            if message.get("id").is_some() && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// `initialize` (offering roots or not), its answer, then `initialized`.
    async fn initialize(&mut self, offer_roots: bool) {
        let capabilities = if offer_roots { json!({"roots": {"listChanged": true}}) } else { json!({}) };
        self.send(json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "raw", "version": "1"}}}));
        let answer = self.answer().await;
        assert_eq!(answer["id"], json!("init"), "{answer}");
        assert!(answer.get("result").is_some(), "initialize failed: {answer}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Waits for the service's roots/list and answers it with `roots`.
    async fn answer_roots(&mut self, roots: &[&Path]) {
        let request = self.next().await;
        assert_eq!(request["method"], json!("roots/list"), "expected roots/list, got {request}");
        let roots: Vec<Value> =
            roots.iter().map(|r| json!({"uri": url::Url::from_file_path(r).expect("file url").to_string()})).collect();
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"roots": roots}}));
    }

    /// The answers that arrive before a ping's: once every request was answered, any is one too many.
    async fn barrier(&mut self) -> Vec<Value> {
        self.send(json!({"jsonrpc": "2.0", "id": "barrier", "method": "ping"}));
        let mut before = Vec::new();
        loop {
            let answer = self.answer().await;
            if answer["id"] == json!("barrier") {
                return before;
            }
            before.push(answer);
        }
    }
}

fn call(id: impl Into<Value>, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
}

/// The catalog code of a failed tool answer, `None` for a success.
fn error_code(answer: &Value) -> Option<String> {
    let result = &answer["result"];
    (result["isError"] == json!(true))
        .then(|| result["structuredContent"]["error"]["code"].as_str().unwrap_or("?").to_owned())
}

/// The symbols a search_symbols answer lists, by full name.
fn names(answer: &Value) -> Vec<String> {
    let symbols =
        answer["result"]["structuredContent"]["symbols"].as_array().unwrap_or_else(|| panic!("no symbols: {answer}"));
    symbols.iter().map(|s| s["fullyQualifiedName"].as_str().unwrap_or_default().to_owned()).collect()
}

fn rss_kib(pid: u32) -> u64 {
    memory_kib(pid, "VmRSS")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_sent_right_after_initialized_is_held_to_the_roots_the_client_lists_later() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let alpha = Fixture::copy("tiny");
    let outside = alpha.file("Alpha/Alpha.cs");
    let state = StateDir::default();
    let mut served = state.serve(&[], &[]);

    // The call races the roots/list the service sends after `initialized`; the client answers late.
    for attempt in 0..20 {
        let mut session = Raw::socket(&state).await;
        session.initialize(true).await;
        session.send(call(attempt, "get_document_symbols", json!({"filePath": outside})));
        tokio::time::sleep(Duration::from_millis(300)).await;
        session.answer_roots(&[&shop.root]).await;
        let answer = session.answer().await;
        assert_eq!(
            error_code(&answer).as_deref(),
            Some("SOURCE_NOT_IN_WORKSPACE"),
            "attempt {attempt}: a file outside the client's roots was read: {answer}"
        );
    }

    // Roots never listed: path-taking calls fail closed, health still answers.
    let mut silent = Raw::socket(&state).await;
    silent.initialize(true).await;
    silent.send(call("outside", "get_document_symbols", json!({"filePath": outside})));
    silent.send(call("inside", "search_symbols", json!({"query": "Customer", "solutionPath": shop.file("Shop.sln")})));
    silent.send(call("health", "diagnose", json!({})));
    let mut answers = HashMap::new();
    while answers.len() < 3 {
        let message = silent.next().await;
        if message.get("method").is_none() {
            answers.insert(message["id"].as_str().expect("id").to_owned(), message);
        }
    }
    for id in ["outside", "inside"] {
        assert_eq!(error_code(&answers[id]).as_deref(), Some("CLIENT_ROOTS_UNKNOWN"), "{}", answers[id]);
    }
    assert_eq!(error_code(&answers["health"]), None, "diagnose answers without roots: {}", answers["health"]);
    assert!(state.info().is_some(), "the daemon still serves");
    state.terminate().await;
    let _ = served.wait();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_thousand_pipelined_searches_are_bounded_answered_once_each_and_their_memory_returns() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut served = state.serve(&[], &[]);
    let daemon = state.daemon_pid().await;
    let mut session = Raw::socket(&state).await;
    session.initialize(false).await;
    session.send(call("init", "initialize_workspace", json!({"workingDirectory": shop.root})));
    assert_eq!(error_code(&session.answer().await), None);

    // What each query lists, asked one at a time.
    let queries = ["Customer", "Order", "Repository", "Greeter", "Price", "Report"];
    let mut expected = BTreeMap::new();
    for query in queries {
        session.send(call(query, "search_symbols", json!({"query": query})));
        let answer = session.answer().await;
        assert_eq!(error_code(&answer), None, "{answer}");
        expected.insert(query, names(&answer));
    }
    let distinct: std::collections::BTreeSet<_> = expected.values().collect();
    assert!(distinct.len() > 3, "the queries must answer differently: {expected:?}");
    // The lowest the daemon settles to before the burst (freed memory is returned within seconds).
    let mut baseline = rss_kib(daemon);
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        baseline = baseline.min(rss_kib(daemon));
    }

    const BURST: usize = 1000;
    for i in 0..BURST {
        session.send(call(i, "search_symbols", json!({"query": queries[i % queries.len()]})));
    }
    let mut answered: HashMap<u64, Value> = HashMap::new();
    let mut peak = 0;
    while answered.len() < BURST {
        let answer = session.answer().await;
        peak = peak.max(rss_kib(daemon));
        let id = answer["id"].as_u64().unwrap_or_else(|| panic!("unexpected answer {answer}"));
        assert!(answered.insert(id, answer).is_none(), "request {id} was answered twice");
    }
    let late = session.barrier().await;
    assert!(late.is_empty(), "answers beyond one per request: {late:?}");

    let mut refused = 0;
    for (id, answer) in &answered {
        match error_code(answer).as_deref() {
            None => assert_eq!(names(answer), expected[queries[*id as usize % queries.len()]], "request {id}"),
            Some("TOO_MANY_REQUESTS") => {
                let details = &answer["result"]["structuredContent"]["error"]["details"];
                assert_eq!(details["limit"], json!(PER_SESSION), "{answer}");
                assert_eq!(details["scope"], json!("session"), "{answer}");
                refused += 1;
            }
            Some(other) => panic!("request {id} failed with {other}: {answer}"),
        }
    }
    assert!(refused > 0 && refused <= BURST - PER_SESSION, "{refused} of {BURST} refused");

    // The session still serves, and the burst's memory goes back to the system.
    session.send(call("after", "search_symbols", json!({"query": "Customer"})));
    assert_eq!(names(&session.answer().await), expected["Customer"]);
    let settled = eventually(Duration::from_secs(60), || async {
        let now = rss_kib(daemon);
        (now < peak && now <= baseline * 3 / 2).then_some(now)
    })
    .await;
    eprintln!("daemon RSS: {baseline} KiB before, {peak} KiB at peak, {settled:?} KiB after ({refused} refused)");
    assert!(
        settled.is_some(),
        "RSS stayed at {} KiB after the burst (baseline {baseline}, peak {peak})",
        rss_kib(daemon)
    );
    state.terminate().await;
    let _ = served.wait();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_reusing_an_id_in_flight_is_refused_and_the_first_gets_its_own_answer() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut session = Raw::embedded(&shop.root, &state);
    session.initialize(true).await;
    session.answer_roots(&[&shop.root]).await;
    session.send(call("init", "initialize_workspace", json!({})));
    assert_eq!(error_code(&session.answer().await), None);

    let queries = ["Customer", "Order", "Repository", "Greeter", "Price", "Report"];
    let mut expected = HashMap::new();
    for query in queries {
        session.send(call(query, "search_symbols", json!({"query": query})));
        expected.insert(query, names(&session.answer().await));
    }

    // Calls wait for the roots while the client is asked for them again: all 24 are in flight at once.
    session.send(json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}));
    let request = session.next().await;
    assert_eq!(request["method"], json!("roots/list"), "{request}");
    for i in 0..24u64 {
        // Ids 0..12, each twice; the second of a pair asks something else.
        let query = queries[(i + i / 12) as usize % queries.len()];
        session.send(call(i % 12, "search_symbols", json!({"query": query})));
    }
    let mut refusals = 0;
    while refusals < 12 {
        let answer = session.answer().await;
        assert_eq!(answer["error"]["code"], json!(-32600), "only duplicates answer before the roots: {answer}");
        assert!(answer["error"]["message"].as_str().unwrap_or_default().contains("already in flight"), "{answer}");
        refusals += 1;
    }
    let roots = vec![json!({"uri": url::Url::from_file_path(&shop.root).expect("file url").to_string()})];
    session.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"roots": roots}}));
    let mut answered: HashMap<u64, Value> = HashMap::new();
    while answered.len() < 12 {
        let answer = session.answer().await;
        let id = answer["id"].as_u64().unwrap_or_else(|| panic!("unexpected answer {answer}"));
        assert!(answered.insert(id, answer).is_none(), "id {id} was answered twice");
    }
    let late = session.barrier().await;
    assert!(late.is_empty(), "answers beyond one per id: {late:?}");
    for (id, answer) in &answered {
        let query = queries[*id as usize % queries.len()];
        assert_eq!(names(answer), expected[query], "id {id} got another request's answer: {answer}");
    }

    // The session survives, and an answered id may be used again.
    session.send(call(3u64, "search_symbols", json!({"query": "Price"})));
    assert_eq!(names(&session.answer().await), expected["Price"]);
}
