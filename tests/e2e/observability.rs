//! What watches the daemon sees it: Prometheus, configured from deploy/prometheus, scrapes `/metrics` and
//! finds data for every query of the Grafana dashboard in deploy/grafana; a service manager hears the
//! readiness the systemd unit waits for; with OTLP on, tool-call spans and the MCP operation metric reach
//! a collector.

use crate::support::daemon::{Agent, StateDir, get, signal};
use crate::support::hold::Hold;
use crate::support::{Client, Fixture, SLOTS, eventually};
use axum::body::Bytes;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::SemaphorePermit;

const PROGRAM: &str = "src/Shop.App/Program.cs";
const SHAPES: &str = "src/Moves.Core/Models/Shapes.cs";
const TOKEN: &str = "observability-e2e-token";
/// The address deploy/prometheus/prometheus.yml scrapes: the daemon's default `--http`.
const SHIPPED_TARGET: &str = "127.0.0.1:7717";
const SHIPPED_INTERVAL: &str = "scrape_interval: 15s";
const SHIPPED_CREDENTIALS: &str = "credentials_file: /etc/prometheus/roslyn-mcp.token";
/// What Grafana's `$__rate_interval` becomes here: many 1 s scrapes, where rate() needs two.
const RATE_INTERVAL: &str = "1m";

fn deploy(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../deploy").join(relative)
}

#[tokio::test(flavor = "multi_thread")]
async fn prometheus_finds_data_for_every_dashboard_query() {
    let Some(binary) = prometheus_binary() else { return };
    let shop = Fixture::copy("Shop");
    let moves = Fixture::copy("Moves");
    // A write holds the workspace until released, so a second one is refused.
    let hold = Hold::default();
    let daemon = Daemon::start(&[
        // Loading Moves then evicts Shop.
        ("ROSLYN_MCP_MAX_SOLUTIONS", "1"),
        hold.env(),
        ("ROSLYN_MCP_TOKEN", TOKEN),
    ])
    .await;
    let prometheus = Prometheus::start(&binary, &daemon.address).await;
    prometheus.wait_for_scrape().await;

    let session = daemon.state.http_client(Some(TOKEN)).await;
    shop_traffic(&daemon, &session, &shop).await;
    let other = daemon.state.http_client(Some(TOKEN)).await;
    busy_moves(&session, &other, &moves, &hold).await;
    other.close().await;

    // What happened shows in Prometheus, not only series at zero.
    let happened = [
        ("sum(roslyn_mcp_tool_calls_total{outcome=\"ok\"})", 6.0),
        ("sum(roslyn_mcp_tool_errors_total{code=\"SYMBOL_NOT_FOUND\"})", 1.0),
        ("sum(roslyn_mcp_busy_rejections_total{tool=\"move_type_to_file\"})", 1.0),
        ("sum(roslyn_mcp_sessions_total{transport=\"http\"})", 2.0),
        ("sum(roslyn_mcp_solution_loads_total{outcome=\"ok\"})", 2.0),
        ("sum(roslyn_mcp_solution_evictions_total{reason=\"capacity\"})", 1.0),
        ("sum(roslyn_mcp_watcher_events_total)", 1.0),
        ("sum(roslyn_mcp_solutions_loaded)", 1.0),
        ("sum(roslyn_mcp_host_resident_memory_bytes)", 1.0),
    ];
    for (query, least) in happened {
        if let Err(last) = prometheus.eventually(Duration::from_secs(20), query, |v| v >= least).await {
            panic!("{query} stayed below {least}: {last}");
        }
    }

    let variables = prometheus.dashboard_variables().await;
    let queries = dashboard_queries(&variables);
    assert!(queries.len() >= 15, "the dashboard has {} queries", queries.len());
    // rate() needs two samples in its window; a minute covers any series that appeared just now.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut empty = Vec::new();
    for (panel, expr) in &queries {
        let limit = deadline.saturating_duration_since(Instant::now());
        if let Err(last) = prometheus.eventually(limit, expr, |_| true).await {
            empty.push(format!("{panel}: {expr}\n    {last}"));
        }
    }
    assert!(empty.is_empty(), "dashboard queries without data:\n{}", empty.join("\n"));
    eprintln!("{} dashboard queries answered with data:", queries.len());
    for (panel, expr) in &queries {
        eprintln!("  {panel}: {expr}");
    }

    session.close().await;
    prometheus.stop().await;
    daemon.stop().await;
}

/// `roslyn-mcp serve` on a private state folder and any free loopback port.
struct Daemon {
    state: StateDir,
    child: std::process::Child,
    /// `127.0.0.1:PORT`, as daemon.json publishes it.
    address: String,
    token: Option<String>,
    _slot: SemaphorePermit<'static>,
}

impl Daemon {
    async fn start(env: &[(&str, &str)]) -> Self {
        let slot = SLOTS.acquire().await.expect("semaphore open");
        let state = StateDir::default();
        let child = state.serve(&[], env);
        let base = state.base_url().await;
        let address = base.strip_prefix("http://").expect("http base url").to_owned();
        let token =
            env.iter().find(|(k, _)| *k == "ROSLYN_MCP_TOKEN").map(|(_, v)| (*v).to_owned()).or_else(|| state.token());
        Self { state, child, address, token, _slot: slot }
    }

    async fn metrics(&self) -> String {
        let (status, body) = get(&format!("http://{}/metrics", self.address), self.token.as_deref()).await;
        assert_eq!(status, 200, "/metrics: {body}");
        body
    }

    /// SIGTERM; the daemon exits cleanly (what a service manager expects) and removes daemon.json.
    async fn stop(mut self) {
        self.state.terminate().await;
        let status = self.child.wait().expect("daemon exit status");
        assert!(status.success(), "the daemon exited with {status} on SIGTERM:\n{}", self.state.serve_log());
        assert!(self.state.info().is_none(), "daemon.json is left after a clean exit");
    }
}

/// Reads, a failure and a file change on Shop.
async fn shop_traffic(daemon: &Daemon, session: &Client<Agent>, shop: &Fixture) {
    session.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;
    let program = shop.file(PROGRAM);
    let customer = json!({"filePath": program, "line": 15, "column": 13});
    session.ok("get_type_at_position", customer.clone()).await;
    session.ok("find_symbol_definition", customer.clone()).await;
    session.ok("find_references", customer).await;
    session.ok("get_document_symbols", json!({"filePath": program})).await;
    session
        .fails("get_type_at_position", json!({"filePath": program, "line": 16, "column": 1}), "SYMBOL_NOT_FOUND")
        .await;

    // A change the watcher passes to the host, counted before loading Moves evicts Shop.
    let customer_file = shop.path("src/Shop.Core/Models/Customer.cs");
    let text = std::fs::read_to_string(&customer_file).expect("Customer.cs");
    std::fs::write(&customer_file, format!("{text}\n// touched\n")).expect("write Customer.cs");
    let began = Instant::now();
    while metric_total(&daemon.metrics().await, "roslyn_mcp_watcher_events_total") < 1.0 {
        assert!(began.elapsed() < Duration::from_secs(60), "no watcher event counted in /metrics 60 s after an edit");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Loads Moves (evicting Shop) and runs two moves at once from two sessions: one is refused busy.
async fn busy_moves(first: &Client<Agent>, second: &Client<Agent>, moves: &Fixture, hold: &Hold) {
    let shapes = moves.file(SHAPES);
    first.ok("find_references", json!({"filePath": shapes, "line": 25, "column": 21})).await;
    let circle = json!({"sourceFile": shapes, "symbolName": "Circle", "targetFile": moves.file("src/Moves.Core/Models/Circle.cs"), "waitSeconds": 0});
    let square = json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": moves.file("src/Moves.Core/Models/Square.cs"), "waitSeconds": 0});
    let (a, b) = hold
        .one_refused(first.call("move_type_to_file", circle), second.call("move_type_to_file", square), async {})
        .await;
    let refused: Vec<&Value> = [&a, &b].into_iter().filter(|o| o.is_error).map(|o| &o.value["error"]["code"]).collect();
    assert_eq!(
        refused,
        vec![&json!("WORKSPACE_BUSY")],
        "of two moves at once exactly one is refused busy: {a:?} {b:?}"
    );
}

/// The sum of a metric's samples in Prometheus text (0 when absent).
fn metric_total(text: &str, name: &str) -> f64 {
    text.lines()
        .filter(|l| l.strip_prefix(name).is_some_and(|rest| rest.starts_with([' ', '{'])))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// Debian's `prometheus` on PATH; without it the test is skipped, unless ROSLYN_MCP_REQUIRE_PROMETHEUS
/// says it must run (CI).
fn prometheus_binary() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("prometheus"))
        .find(|candidate| candidate.is_file());
    let required = std::env::var("ROSLYN_MCP_REQUIRE_PROMETHEUS").is_ok_and(|v| !v.is_empty() && v != "0");
    match on_path {
        Some(binary) => Some(binary),
        None if required => {
            panic!("ROSLYN_MCP_REQUIRE_PROMETHEUS is set but no prometheus is installed: apt-get install -y prometheus")
        }
        None => {
            eprintln!("skipped: no prometheus on PATH (apt-get install -y prometheus runs this test)");
            None
        }
    }
}

/// A private Prometheus scraping the daemon every second with the shipped scrape config.
struct Prometheus {
    child: tokio::process::Child,
    api: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Prometheus {
    async fn start(binary: &Path, daemon: &str) -> Self {
        let dir = tempfile::Builder::new().prefix("roslyn-mcp-prometheus-").tempdir().expect("prometheus dir");
        let token = dir.path().join("token");
        std::fs::write(&token, TOKEN).expect("token file");
        let config = dir.path().join("prometheus.yml");
        std::fs::write(&config, scrape_config(daemon, &token)).expect("prometheus.yml");
        let address = free_address();
        let log = dir.path().join("prometheus.log");
        let child = tokio::process::Command::new(binary)
            .arg(format!("--config.file={}", config.display()))
            .arg(format!("--storage.tsdb.path={}", dir.path().join("data").display()))
            .arg(format!("--web.listen-address={address}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&log).expect("prometheus log"))
            .kill_on_drop(true)
            .spawn()
            .expect("spawn prometheus");
        let prometheus = Self { child, api: format!("http://{address}"), log, _dir: dir };
        let began = Instant::now();
        while !prometheus.ready().await {
            assert!(began.elapsed() < Duration::from_secs(30), "prometheus not ready:\n{}", log_text(&prometheus.log));
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        prometheus
    }

    async fn ready(&self) -> bool {
        let response = reqwest::get(format!("{}/-/ready", self.api)).await;
        response.is_ok_and(|r| r.status().is_success())
    }

    /// Waits for a successful scrape of the daemon (its token accepted).
    async fn wait_for_scrape(&self) {
        if let Err(last) = self.eventually(Duration::from_secs(30), "roslyn_mcp_build_info", |v| v == 1.0).await {
            let targets = self.get("/api/v1/targets", &[]).await;
            panic!("prometheus never scraped the daemon ({last}); targets: {targets}");
        }
    }

    async fn get(&self, path: &str, params: &[(&str, &str)]) -> Value {
        let url = reqwest::Url::parse_with_params(&format!("{}{path}", self.api), params).expect("query url");
        let response = reqwest::get(url).await.unwrap_or_else(|e| panic!("prometheus {path}: {e}"));
        response.json().await.unwrap_or_else(|e| panic!("prometheus {path} answer: {e}"))
    }

    /// Runs an instant query until it returns a series whose value passes `accept`, or `limit` passes;
    /// the last answer on failure.
    async fn eventually(&self, limit: Duration, query: &str, accept: impl Fn(f64) -> bool) -> Result<(), Value> {
        let began = Instant::now();
        loop {
            let answer = self.get("/api/v1/query", &[("query", query)]).await;
            let values = answer["data"]["result"].as_array().cloned().unwrap_or_default();
            // Values are strings: "NaN" counts as data (a quantile over no recent events).
            let found = values.iter().any(|s| s["value"][1].as_str().and_then(|v| v.parse().ok()).is_some_and(&accept));
            if found {
                return Ok(());
            }
            if answer["status"] != json!("success") || began.elapsed() >= limit {
                return Err(answer);
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// The dashboard's query variables, resolved as Grafana would (`label_values(selector, label)`), each
    /// to the alternation of its values.
    async fn dashboard_variables(&self) -> Vec<(String, String)> {
        let mut resolved: Vec<(String, String)> = vec![("__rate_interval".to_owned(), RATE_INTERVAL.to_owned())];
        for variable in dashboard()["templating"]["list"].as_array().expect("templating.list") {
            let name = variable["name"].as_str().expect("variable name");
            match variable["type"].as_str() {
                Some("datasource") => continue,
                Some("query") => {}
                other => panic!("dashboard variable {name} of type {other:?}: teach this test to resolve it"),
            }
            let definition = variable["definition"].as_str().expect("variable definition");
            let (selector, label) = definition
                .strip_prefix("label_values(")
                .and_then(|d| d.strip_suffix(')'))
                .and_then(|d| d.rsplit_once(','))
                .unwrap_or_else(|| panic!("variable {name}: {definition} is not label_values(selector, label)"));
            let selector = substitute(selector.trim(), &resolved);
            let answer =
                self.get(&format!("/api/v1/label/{}/values", label.trim()), &[("match[]", selector.as_str())]).await;
            let values: Vec<&str> = answer["data"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            assert!(!values.is_empty(), "dashboard variable {name} ({definition}) finds no value: {answer}");
            resolved.push((name.to_owned(), values.join("|")));
        }
        resolved
    }

    async fn stop(mut self) {
        signal(self.child.id().expect("prometheus pid"), "-TERM");
        let exited = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await;
        assert!(exited.is_ok_and(|s| s.is_ok()), "prometheus did not exit on SIGTERM:\n{}", log_text(&self.log));
    }
}

/// deploy/prometheus/prometheus.yml aimed at the test's daemon, scraping every second, its bearer token
/// read from `token`.
fn scrape_config(daemon: &str, token: &Path) -> String {
    let shipped =
        std::fs::read_to_string(deploy("prometheus/prometheus.yml")).expect("deploy/prometheus/prometheus.yml");
    for shape in [SHIPPED_TARGET, SHIPPED_INTERVAL, SHIPPED_CREDENTIALS] {
        assert!(shipped.contains(shape), "the shipped config changed shape: {shape} is gone");
    }
    shipped
        .replace(SHIPPED_TARGET, daemon)
        .replace(SHIPPED_INTERVAL, "scrape_interval: 1s")
        .replace(SHIPPED_CREDENTIALS, &format!("credentials_file: {}", token.display()))
}

fn log_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("({}: {e})", path.display()))
}

fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("free port");
    listener.local_addr().expect("local address").to_string()
}

fn dashboard() -> Value {
    let text = std::fs::read_to_string(deploy("grafana/roslyn-mcp.json")).expect("deploy/grafana/roslyn-mcp.json");
    serde_json::from_str(&text).expect("the dashboard is JSON")
}

/// (panel title, query) for every target of every panel, rows' nested panels included, variables
/// substituted.
fn dashboard_queries(variables: &[(String, String)]) -> Vec<(String, String)> {
    fn walk(panels: &Value, variables: &[(String, String)], into: &mut Vec<(String, String)>) {
        for panel in panels.as_array().into_iter().flatten() {
            let title = panel["title"].as_str().unwrap_or("(untitled)");
            for target in panel["targets"].as_array().into_iter().flatten() {
                let expr = target["expr"].as_str().unwrap_or_else(|| panic!("{title}: a target without expr"));
                let expr = substitute(expr, variables);
                assert!(!expr.contains('$'), "{title}: unknown variable left in {expr}");
                into.push((title.to_owned(), expr));
            }
            walk(&panel["panels"], variables, into);
        }
    }
    let mut queries = Vec::new();
    walk(&dashboard()["panels"], variables, &mut queries);
    queries
}

/// Grafana's `${name}` and `$name`, longest names first so that none shadows another.
fn substitute(text: &str, variables: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = variables.iter().collect();
    sorted.sort_by_key(|(name, _)| std::cmp::Reverse(name.len()));
    sorted.iter().fold(text.to_owned(), |text, (name, value)| {
        text.replace(&format!("${{{name}}}"), value).replace(&format!("${name}"), value)
    })
}

/// deploy/systemd's unit is `Type=notify`: systemd counts the daemon started when it says READY=1, which
/// must mean its endpoints answer, and hears STOPPING=1 when SIGTERM begins the shutdown.
#[tokio::test(flavor = "multi_thread")]
async fn a_service_manager_hears_ready_once_the_daemon_answers_and_stopping_at_sigterm() {
    let dir = tempfile::Builder::new().prefix("rmcp-n-").tempdir_in("/tmp").expect("notify dir");
    let path = dir.path().join("notify");
    let socket = tokio::net::UnixDatagram::bind(&path).expect("notify socket");
    let daemon = Daemon::start(&[("NOTIFY_SOCKET", path.to_str().expect("utf-8 path"))]).await;
    let ready = notification(&socket).await;
    assert!(ready.lines().any(|l| l == "READY=1"), "first notification: {ready:?}");
    let (status, body) = get(&format!("http://{}/healthz", daemon.address), None).await;
    assert_eq!(status, 200, "/healthz after READY=1: {body}");
    daemon.stop().await;
    let stopping = notification(&socket).await;
    assert!(stopping.lines().any(|l| l == "STOPPING=1"), "notification at SIGTERM: {stopping:?}");
}

/// The next sd_notify datagram, within 10 s.
async fn notification(socket: &tokio::net::UnixDatagram) -> String {
    let mut buffer = vec![0; 4096];
    let size = tokio::time::timeout(Duration::from_secs(10), socket.recv(&mut buffer))
        .await
        .expect("a notification within 10 s")
        .expect("receive a notification");
    String::from_utf8_lossy(&buffer[..size]).into_owned()
}

/// The service name the OTLP test gives the daemon, to find in what it exports.
const SERVICE: &str = "observability-e2e-service";

#[tokio::test(flavor = "multi_thread")]
async fn otlp_export_carries_tool_spans_and_operation_metrics() {
    let collector = Collector::start().await;
    let shop = Fixture::copy("Shop");
    let daemon = Daemon::start(&[
        ("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "500"),
        ("OTEL_METRIC_EXPORT_INTERVAL", "500"),
        ("OTEL_SERVICE_NAME", SERVICE),
    ])
    .await;
    let session = daemon.state.http_client(None).await;
    session.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;
    session.ok("find_symbol_definition", json!({"filePath": shop.file(PROGRAM), "line": 15, "column": 13})).await;

    // Exported while running, on the short schedule set above.
    let expected = [
        ("traces", "tools/call find_symbol_definition"),
        ("traces", "gen_ai.tool.name"),
        ("traces", SERVICE),
        ("metrics", "mcp.server.operation.duration"),
        ("metrics", SERVICE),
    ];
    let all = || async { expected.iter().all(|(signal, text)| collector.received(signal, text)).then_some(()) };
    eventually(Duration::from_secs(30), all).await;
    let missing: Vec<String> = expected
        .iter()
        .filter(|(signal, text)| !collector.received(signal, text))
        .map(|(signal, text)| format!("{text:?} in /v1/{signal}"))
        .collect();
    assert!(
        missing.is_empty(),
        "OTLP export lacks {missing:?} after 30 s; requests received: {:?}\ndaemon log:\n{}",
        collector.requests(),
        daemon.state.serve_log()
    );
    session.close().await;
    daemon.stop().await;
}

/// An OTLP/HTTP receiver keeping the protobuf bodies it is sent; it answers 200 with an empty message.
struct Collector {
    endpoint: String,
    bodies: Bodies,
}

/// (signal, body) of each export request.
type Bodies = Arc<Mutex<Vec<(String, Bytes)>>>;

impl Collector {
    async fn start() -> Self {
        use axum::extract::{Path as Segment, State};
        let bodies = Bodies::default();
        let app = axum::Router::new()
            .route(
                "/v1/{signal}",
                axum::routing::post(
                    |State(bodies): State<Bodies>, Segment(signal): Segment<String>, body: Bytes| async move {
                        bodies.lock().expect("bodies").push((signal, body));
                        ([(axum::http::header::CONTENT_TYPE, "application/x-protobuf")], Bytes::new())
                    },
                ),
            )
            .with_state(bodies.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("collector port");
        let endpoint = format!("http://{}", listener.local_addr().expect("collector address"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { endpoint, bodies }
    }

    /// Whether a body sent to /v1/{signal} holds `text`'s bytes (protobuf keeps strings as they are).
    fn received(&self, signal: &str, text: &str) -> bool {
        let bodies = self.bodies.lock().expect("bodies");
        bodies.iter().any(|(s, body)| s == signal && body.windows(text.len()).any(|w| w == text.as_bytes()))
    }

    /// (signal, body size) of every request so far.
    fn requests(&self) -> Vec<(String, usize)> {
        self.bodies.lock().expect("bodies").iter().map(|(s, b)| (s.clone(), b.len())).collect()
    }
}
