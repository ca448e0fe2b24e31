//! What the service tells about itself: Prometheus metrics for /metrics, OpenTelemetry traces and metrics
//! over OTLP, and the log.

mod logging;
mod memory;
mod metrics;
mod otlp;
mod span;

pub use logging::{TelemetryGuard, init};
pub use metrics::Eviction;
pub use span::tool_span;

pub use memory::{machine_bytes, resident_bytes};
use metrics::Metrics;
pub use metrics::Sample;
use otlp::Instruments;
use protocol::ErrorCode;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use workspace_actor::WorkspaceEvents;

/// The content type of [`Telemetry::encode`]'s text.
use protocol::tools::plans::RebaseKind;

pub const METRICS_CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The process's counters and instruments, shared by every session.
pub struct Telemetry {
    metrics: Metrics,
    otel: Instruments,
}

impl Telemetry {
    /// Records OpenTelemetry metrics through the global meter provider that [`init`] installs (none
    /// without a collector), so `init` comes first.
    pub fn new() -> Arc<Self> {
        Self::with_meter(&opentelemetry::global::meter(otlp::SCOPE))
    }

    fn with_meter(meter: &opentelemetry::metrics::Meter) -> Arc<Self> {
        Arc::new(Self { metrics: Metrics::new(), otel: Instruments::new(meter) })
    }

    /// One finished tool call; `error_code` names its failure (a catalog code, e.g. WORKSPACE_BUSY).
    pub fn record_call(&self, tool: &str, error_code: Option<&str>, elapsed: Duration) {
        let busy = error_code == Some(ErrorCode::WORKSPACE_BUSY.name());
        self.metrics.record_call(tool, error_code, busy, elapsed);
        self.otel.record_call(tool, error_code, elapsed);
    }

    /// A session opened on `transport` ("http", "socket", "stdio"); it counts as open until the guard drops.
    pub fn session_opened(self: &Arc<Self>, transport: &'static str) -> SessionGuard {
        self.metrics.session_opened(transport);
        SessionGuard { telemetry: self.clone(), transport, opened: Instant::now() }
    }

    /// Sessions open now, on any transport.
    pub fn sessions_open(&self) -> usize {
        self.metrics.sessions_open()
    }

    /// A plan brought onto the solution as it is at its write: as computed (no `how`), kept, replayed or
    /// merged; or refused, for `refused`.
    pub fn plan_settled(&self, how: Option<RebaseKind>, refused: Option<&'static str>) {
        self.metrics.plan_settled(how, refused);
    }

    /// Solutions unloaded, and why.
    pub fn solutions_evicted(&self, why: Eviction, count: u64) {
        self.metrics.solutions_evicted(why, count);
    }

    /// The text for /metrics ([`METRICS_CONTENT_TYPE`]), with `sample` of what is read at scrape time.
    pub fn encode(&self, sample: Sample) -> String {
        self.metrics.encode(sample)
    }

    /// The observer to put into `WorkspaceSettings::events`.
    pub fn workspace_events(self: &Arc<Self>) -> Arc<dyn WorkspaceEvents> {
        self.clone()
    }
}

impl WorkspaceEvents for Telemetry {
    fn solution_loaded(&self, _: &Path, took: Duration, ok: bool) {
        self.metrics.solution_loaded(took, ok);
    }

    fn host_restarted(&self, _: &Path) {
        self.metrics.host_restarted();
    }

    fn files_changed(&self, _: &Path, count: usize) {
        self.metrics.files_changed(count);
    }

    fn write_lock_waited(&self, _: &Path, waited: Duration, granted: bool) {
        self.metrics.write_lock_waited(waited, granted);
    }

    fn write_lock_held(&self, _: &Path, held: Duration) {
        self.metrics.write_lock_held(held);
    }
}

/// An open session: dropping it closes the session in the metrics and records how long it lasted.
pub struct SessionGuard {
    telemetry: Arc<Telemetry>,
    transport: &'static str,
    opened: Instant,
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        self.telemetry.metrics.session_closed(self.transport);
        self.telemetry.otel.record_session(self.transport, self.opened.elapsed());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a scrape reads with no solution loaded.
    fn idle() -> Sample {
        Sample {
            solutions_loaded: 0,
            hosts: Vec::new(),
            host_memory_budget_bytes: 0,
            hosts_memory_budget_bytes: 0,
            spare_resident_bytes: None,
            own_resident_bytes: resident_bytes(std::process::id()),
            jobs_working: 0,
        }
    }

    #[tokio::test]
    async fn every_series_with_known_labels_exists_before_any_event() {
        let telemetry = Telemetry::new();
        let text = telemetry.encode(idle());
        for line in [
            r#"roslyn_mcp_build_info{version="0.1.0"} 1"#,
            r#"roslyn_mcp_sessions_open{transport="http"} 0"#,
            r#"roslyn_mcp_sessions_open{transport="socket"} 0"#,
            r#"roslyn_mcp_sessions_open{transport="stdio"} 0"#,
            r#"roslyn_mcp_sessions_total{transport="stdio"} 0"#,
            "roslyn_mcp_solutions_loaded 0",
            r#"roslyn_mcp_solution_loads_total{outcome="ok"} 0"#,
            r#"roslyn_mcp_solution_loads_total{outcome="error"} 0"#,
            r#"roslyn_mcp_solution_load_duration_seconds_count{outcome="ok"} 0"#,
            r#"roslyn_mcp_solution_evictions_total{reason="capacity"} 0"#,
            r#"roslyn_mcp_solution_evictions_total{reason="idle"} 0"#,
            r#"roslyn_mcp_solution_evictions_total{reason="shutdown"} 0"#,
            "roslyn_mcp_host_restarts_total 0",
            "roslyn_mcp_watcher_events_total 0",
            "roslyn_mcp_spare_host_resident_memory_bytes 0",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
    }

    #[tokio::test]
    async fn metrics_text_shows_every_family_with_its_type_after_events() {
        let telemetry = Telemetry::new();
        telemetry.record_call("find_symbol", None, Duration::from_millis(4));
        telemetry.record_call("find_symbol", Some("SYMBOL_NOT_FOUND"), Duration::from_millis(2));
        telemetry.record_call("rename_symbol", Some("WORKSPACE_BUSY"), Duration::from_millis(1));
        let open = telemetry.session_opened("http");
        drop(telemetry.session_opened("socket"));
        let events = telemetry.workspace_events();
        let solution = Path::new("/src/App.sln");
        events.solution_loaded(solution, Duration::from_secs(3), true);
        events.solution_loaded(solution, Duration::from_secs(1), false);
        events.host_restarted(solution);
        events.files_changed(solution, 3);
        events.write_lock_waited(solution, Duration::from_millis(40), true);
        events.write_lock_waited(solution, Duration::from_secs(30), false);
        events.write_lock_held(solution, Duration::from_secs(2));
        telemetry.solutions_evicted(Eviction::Idle, 1);
        assert_eq!(telemetry.sessions_open(), 1);

        let text = telemetry.encode(idle());
        let types = [
            ("roslyn_mcp_tool_calls", "counter"),
            ("roslyn_mcp_tool_call_duration_seconds", "histogram"),
            ("roslyn_mcp_tool_errors", "counter"),
            ("roslyn_mcp_busy_rejections", "counter"),
            ("roslyn_mcp_sessions_open", "gauge"),
            ("roslyn_mcp_sessions", "counter"),
            ("roslyn_mcp_solutions_loaded", "gauge"),
            ("roslyn_mcp_solution_loads", "counter"),
            ("roslyn_mcp_solution_load_duration_seconds", "histogram"),
            ("roslyn_mcp_write_lock_wait_seconds", "histogram"),
            ("roslyn_mcp_write_lock_hold_seconds", "histogram"),
            ("roslyn_mcp_solution_evictions", "counter"),
            ("roslyn_mcp_host_restarts", "counter"),
            ("roslyn_mcp_watcher_events", "counter"),
            ("process_resident_memory_bytes", "gauge"),
            ("roslyn_mcp_build_info", "gauge"),
        ];
        for (name, kind) in types {
            let line = format!("# TYPE {name} {kind}");
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
        for line in [
            r#"roslyn_mcp_tool_calls_total{tool="find_symbol",outcome="ok"} 1"#,
            r#"roslyn_mcp_tool_calls_total{tool="find_symbol",outcome="error"} 1"#,
            r#"roslyn_mcp_tool_calls_total{tool="rename_symbol",outcome="error"} 1"#,
            r#"roslyn_mcp_tool_call_duration_seconds_count{tool="find_symbol",outcome="ok"} 1"#,
            r#"roslyn_mcp_tool_call_duration_seconds_bucket{le="0.005",tool="find_symbol",outcome="ok"} 1"#,
            r#"roslyn_mcp_tool_errors_total{tool="find_symbol",code="SYMBOL_NOT_FOUND"} 1"#,
            r#"roslyn_mcp_tool_errors_total{tool="rename_symbol",code="WORKSPACE_BUSY"} 1"#,
            r#"roslyn_mcp_busy_rejections_total{tool="rename_symbol"} 1"#,
            r#"roslyn_mcp_sessions_open{transport="http"} 1"#,
            r#"roslyn_mcp_sessions_open{transport="socket"} 0"#,
            r#"roslyn_mcp_sessions_total{transport="socket"} 1"#,
            r#"roslyn_mcp_solution_loads_total{outcome="ok"} 1"#,
            r#"roslyn_mcp_solution_loads_total{outcome="error"} 1"#,
            r#"roslyn_mcp_solution_load_duration_seconds_sum{outcome="ok"} 3.0"#,
            r#"roslyn_mcp_solution_evictions_total{reason="idle"} 1"#,
            "roslyn_mcp_host_restarts_total 1",
            "roslyn_mcp_watcher_events_total 3",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
        assert!(
            !text.contains("roslyn_mcp_busy_rejections_total{tool=\"find_symbol\"}"),
            "only WORKSPACE_BUSY is busy"
        );
        let own = text.lines().find_map(|l| l.strip_prefix("process_resident_memory_bytes ")).expect("own RSS sample");
        assert!(own.parse::<u64>().expect("bytes") > 0);
        assert!(text.ends_with("# EOF\n"));

        drop(open);
        assert_eq!(telemetry.sessions_open(), 0);
        let text = telemetry.encode(idle());
        assert!(text.contains(r#"roslyn_mcp_sessions_open{transport="http"} 0"#));
    }

    /// What a collector received: path, content type and body of each request.
    type Received = Arc<std::sync::Mutex<Vec<(String, String, Vec<u8>)>>>;

    async fn collector() -> (String, Received) {
        let received = Received::default();
        let sink = received.clone();
        let app = axum::Router::new().fallback(
            move |uri: http::Uri, headers: http::HeaderMap, body: axum::body::Bytes| async move {
                let content_type = headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
                let request = (uri.path().to_owned(), content_type.unwrap_or_default().to_owned(), body.to_vec());
                sink.lock().expect("collector").push(request);
                http::StatusCode::OK
            },
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        (format!("http://{address}"), received)
    }

    fn posted(received: &Received, path: &str) -> Vec<u8> {
        let received = received.lock().expect("collector");
        let bodies = received.iter().filter(|(p, content_type, _)| {
            p == path && {
                assert_eq!(content_type, "application/x-protobuf");
                true
            }
        });
        bodies.flat_map(|(_, _, body)| body.clone()).collect()
    }

    fn holds(body: &[u8], text: &str) -> bool {
        body.windows(text.len()).any(|w| w == text.as_bytes())
    }

    /// Spans and metrics reach the collector over http/protobuf, flushed when the exporters are dropped,
    /// here inside an async context as when the service's runtime ends first.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn otlp_exports_tool_spans_and_mcp_metrics_and_flushes_on_drop() {
        use opentelemetry::metrics::MeterProvider as _;
        use tracing_subscriber::layer::SubscriberExt as _;

        let (endpoint, received) = collector().await;
        let otlp = otlp::Otlp::start(&format!("{endpoint}/"), "roslyn-mcp-test".into()).expect("exporters");
        let subscriber = tracing_subscriber::registry().with(logging::trace_layer(&otlp));
        tracing::subscriber::with_default(subscriber, || {
            let span = tool_span("find_symbol", "session-1");
            span.in_scope(|| tracing::info!("looking"));
            span.record("error.type", "SYMBOL_NOT_FOUND");
            tracing::info_span!(target: "rmcp::service", "serve_inner").in_scope(|| {});
        });
        let telemetry = Telemetry::with_meter(&otlp.meter_provider().meter(otlp::SCOPE));
        telemetry.record_call("find_symbol", Some("SYMBOL_NOT_FOUND"), Duration::from_millis(3));
        drop(telemetry.session_opened("http"));
        drop(otlp);

        let traces = posted(&received, "/v1/traces");
        for text in ["tools/call find_symbol", "gen_ai.tool.name", "execute_tool", "session-1", "SYMBOL_NOT_FOUND"] {
            assert!(holds(&traces, text), "no {text:?} in the exported spans");
        }
        assert!(holds(&traces, "roslyn-mcp-test"), "the service is named");
        assert!(!holds(&traces, "serve_inner"), "dependencies' spans stay out");
        let metrics = posted(&received, "/v1/metrics");
        for text in ["mcp.server.operation.duration", "mcp.server.session.duration", "error.type", "find_symbol"] {
            assert!(holds(&metrics, text), "no {text:?} in the exported metrics");
        }
    }

    #[test]
    fn host_memory_shows_the_live_hosts_of_the_last_sample_only() {
        let telemetry = Telemetry::new();
        let sample = |hosts: Vec<(String, u64)>, spare| Sample {
            solutions_loaded: 1,
            hosts,
            host_memory_budget_bytes: 1,
            hosts_memory_budget_bytes: 2,
            spare_resident_bytes: spare,
            own_resident_bytes: None,
            jobs_working: 0,
        };
        let text = telemetry.metrics.encode(sample(vec![("/src/App.sln".into(), 4096)], Some(2048)));
        assert!(text.contains("# TYPE roslyn_mcp_host_resident_memory_bytes gauge\n"), "{text}");
        assert!(text.contains("roslyn_mcp_host_resident_memory_bytes{solution=\"/src/App.sln\"} 4096\n"), "{text}");
        assert!(text.contains("roslyn_mcp_spare_host_resident_memory_bytes 2048\n"), "{text}");
        assert!(text.contains("roslyn_mcp_hosts_memory_budget_bytes 2\n"), "{text}");
        assert!(text.contains("roslyn_mcp_solutions_loaded 1\n"), "{text}");
        let text = telemetry.metrics.encode(sample(Vec::new(), None));
        assert!(!text.contains("App.sln"), "an exited host leaves no series: {text}");
        assert!(text.contains("roslyn_mcp_spare_host_resident_memory_bytes 0\n"), "a taken spare reads 0: {text}");
    }
}
