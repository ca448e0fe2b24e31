//! The global subscriber: logs to stderr (stdout may carry MCP messages) and, when a collector is
//! configured, spans and metrics to it over OTLP.

use super::otlp::{Otlp, SCOPE};
use opentelemetry::trace::TracerProvider as _;
use tracing::Subscriber;
use tracing_subscriber::filter::{EnvFilter, LevelFilter, Targets};
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;

/// Keeps OpenTelemetry export running; dropping it flushes and shuts the exporters down.
#[must_use = "dropping the guard stops OpenTelemetry export"]
pub struct TelemetryGuard {
    _otlp: Option<Otlp>,
}

/// Installs the global subscriber: `ROSLYN_MCP_LOG` filters the log (default "info"), JSON lines when
/// `log_json`. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, spans and metrics are exported too.
pub fn init(log_json: bool) -> TelemetryGuard {
    let filter = EnvFilter::try_from_env("ROSLYN_MCP_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let log = tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false);
    let log = if log_json { log.json().boxed() } else { log.boxed() };
    let (otlp, failure) = match Otlp::from_env() {
        Some(Ok(otlp)) => (Some(otlp), None),
        Some(Err(error)) => (None, Some(error)),
        None => (None, None),
    };
    if let Some(otlp) = &otlp {
        // Before the subscriber, which would log the SDK's own notice of it.
        opentelemetry::global::set_meter_provider(otlp.meter_provider().clone());
        opentelemetry::global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());
    }
    let traces = otlp.as_ref().map(trace_layer);
    tracing_subscriber::registry().with(log.with_filter(filter)).with(traces).init();
    if let Some(error) = failure {
        tracing::error!(error = format!("{error:#}"), "OpenTelemetry export is off");
    }
    if let Some(otlp) = &otlp {
        tracing::info!(endpoint = %otlp.endpoint, "exporting OpenTelemetry traces and metrics");
    }
    TelemetryGuard { _otlp: otlp }
}

/// Sends our own spans to the collector. The log filter does not apply: traces stay complete whatever the
/// log level, and dependencies' spans (rmcp's session-long ones among them) stay out.
pub(super) fn trace_layer<S>(otlp: &Otlp) -> impl Layer<S> + use<S>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let ours = Targets::new()
        .with_target(env!("CARGO_CRATE_NAME"), LevelFilter::INFO)
        .with_target("workspace_actor", LevelFilter::INFO)
        .with_target("roslyn_host", LevelFilter::INFO);
    tracing_opentelemetry::layer().with_tracer(otlp.tracer_provider().tracer(SCOPE)).with_filter(ours)
}
