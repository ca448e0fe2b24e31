//! OpenTelemetry export over OTLP http/protobuf, and the MCP semantic-convention metric instruments.
//! The exporters' HTTP client is async reqwest, which needs a tokio reactor: the batch span processor and
//! the periodic metric reader run on a runtime of their own, so export works wherever the subscriber is
//! installed and still flushes while the service's runtime is shutting down.

use anyhow::Context as _;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Histogram, Meter};
use opentelemetry_otlp::{MetricExporter, Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::metrics::periodic_reader_with_async_runtime::PeriodicReader;
use opentelemetry_sdk::runtime::Tokio;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::trace::span_processor_with_async_runtime::BatchSpanProcessor;
use std::time::Duration;

const DEFAULT_SERVICE_NAME: &str = "roslyn-mcp";
/// The scope of our spans and instruments.
pub const SCOPE: &str = "roslyn-mcp";
/// Boundaries the MCP semantic conventions advise for both duration histograms.
const DURATION_BOUNDARIES: [f64; 14] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

/// The tracer and meter providers exporting to a collector. Dropping it flushes what is pending
/// (spans in the batch, the last metric values) and stops the export runtime.
pub struct Otlp {
    pub endpoint: String,
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Otlp {
    /// Export as `OTEL_EXPORTER_OTLP_ENDPOINT` asks; `None` when it is unset or empty. The service is
    /// named by `OTEL_SERVICE_NAME`; the metric interval comes from `OTEL_METRIC_EXPORT_INTERVAL`.
    pub fn from_env() -> Option<anyhow::Result<Self>> {
        let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").ok().filter(|e| !e.trim().is_empty())?;
        let service = std::env::var("OTEL_SERVICE_NAME").ok().filter(|s| !s.trim().is_empty());
        Some(Self::start(&endpoint, service.unwrap_or_else(|| DEFAULT_SERVICE_NAME.to_owned())))
    }

    /// Sends traces to `{endpoint}/v1/traces` and metrics to `{endpoint}/v1/metrics`.
    pub fn start(endpoint: &str, service: String) -> anyhow::Result<Self> {
        let endpoint = endpoint.trim().trim_end_matches('/').to_owned();
        let spans = SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/traces"))
            .build()
            .context("cannot build the OTLP span exporter")?;
        let metrics = MetricExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/metrics"))
            .build()
            .context("cannot build the OTLP metric exporter")?;
        // Nothing fails past this point: a runtime dropped inside an async context would panic.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("otlp-export")
            .enable_all()
            .build()
            .context("cannot start the OTLP export runtime")?;
        let resource = Resource::builder()
            .with_service_name(service)
            .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
            .build();
        // The processor and the reader spawn their workers on the current runtime as they are built.
        let export_runtime = runtime.enter();
        let tracer = SdkTracerProvider::builder()
            .with_span_processor(BatchSpanProcessor::builder(spans, Tokio).build())
            .with_resource(resource.clone())
            .build();
        let meter = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(metrics, Tokio).build())
            .with_resource(resource)
            .build();
        drop(export_runtime);
        Ok(Self { endpoint, tracer, meter, runtime: Some(runtime) })
    }

    pub fn tracer_provider(&self) -> &SdkTracerProvider {
        &self.tracer
    }

    pub fn meter_provider(&self) -> &SdkMeterProvider {
        &self.meter
    }
}

impl Drop for Otlp {
    fn drop(&mut self) {
        // Each shutdown waits for its worker's last export, which runs on the export runtime: stop that last.
        if let Err(error) = self.tracer.shutdown() {
            tracing::warn!(%error, "flushing OpenTelemetry spans failed");
        }
        if let Err(error) = self.meter.shutdown() {
            tracing::warn!(%error, "flushing OpenTelemetry metrics failed");
        }
        // Not a plain drop: that would panic when the guard goes away inside an async context.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The MCP server histograms of the OpenTelemetry semantic conventions. Without a meter provider they
/// record nothing.
pub struct Instruments {
    operation: Histogram<f64>,
    session: Histogram<f64>,
}

impl Instruments {
    pub fn new(meter: &Meter) -> Self {
        let histogram = |name: &'static str, description: &'static str| {
            meter
                .f64_histogram(name)
                .with_unit("s")
                .with_description(description)
                .with_boundaries(DURATION_BOUNDARIES.to_vec())
                .build()
        };
        Self {
            operation: histogram("mcp.server.operation.duration", "Duration of MCP requests handled by the server"),
            session: histogram("mcp.server.session.duration", "Duration of MCP sessions"),
        }
    }

    pub fn record_call(&self, tool: &str, error_code: Option<&str>, elapsed: Duration) {
        let mut attributes =
            vec![KeyValue::new("mcp.method.name", "tools/call"), KeyValue::new("gen_ai.tool.name", tool.to_owned())];
        if let Some(code) = error_code {
            attributes.push(KeyValue::new("error.type", code.to_owned()));
        }
        self.operation.record(elapsed.as_secs_f64(), &attributes);
    }

    pub fn record_session(&self, transport: &'static str, lasted: Duration) {
        self.session.record(lasted.as_secs_f64(), &[KeyValue::new("network.transport", network_transport(transport))]);
    }
}

/// The semantic conventions' `network.transport` of each of our transports.
fn network_transport(transport: &str) -> &'static str {
    match transport {
        "http" => "tcp",
        "socket" => "unix",
        _ => "pipe",
    }
}
