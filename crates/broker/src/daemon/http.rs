//! The daemon's HTTP face: MCP Streamable HTTP on `/mcp` (rmcp's transport, with Origin and Host
//! validation against DNS rebinding), `/healthz` for service managers and `/metrics` for Prometheus. A
//! bearer token, when set, guards everything but `/healthz`.

use crate::config::ServeArgs;
use crate::resolve;
use crate::server::RoslynMcp;
use crate::services::Services;
use crate::session::Session;
use crate::telemetry;
use anyhow::Context;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Browser origins allowed to call: pages served from this machine only.
const LOOPBACK_ORIGINS: &[&str] = &[
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// The bearer token, from `--token-file` or ROSLYN_MCP_TOKEN.
pub fn token(args: &ServeArgs) -> anyhow::Result<Option<String>> {
    let raw = match &args.token_file {
        Some(path) => Some(std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?),
        None => std::env::var("ROSLYN_MCP_TOKEN").ok(),
    };
    let token = raw.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    if args.token_file.is_some() && token.is_none() {
        anyhow::bail!("the token file is empty");
    }
    Ok(token)
}

/// Nothing is served beyond loopback without a token.
pub fn check_exposure(address: SocketAddr, token: Option<&str>) -> anyhow::Result<()> {
    if !address.ip().is_loopback() && token.is_none() {
        anyhow::bail!(
            "refusing to serve on {address} without a token: set ROSLYN_MCP_TOKEN or --token-file, or bind 127.0.0.1"
        );
    }
    Ok(())
}

/// Serves until `stop`.
pub async fn serve(
    listener: TcpListener,
    services: Arc<Services>,
    token: Option<String>,
    stop: CancellationToken,
) -> anyhow::Result<()> {
    let address = listener.local_addr()?;
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(LOOPBACK_ORIGINS.iter().copied())
        .enforce_origin_validation()
        .with_cancellation_token(stop.child_token());
    if !address.ip().is_loopback() {
        // Reached by whatever name the machine has; the required token is what keeps foreign pages out.
        config = config.disable_allowed_hosts();
    }
    let sessions = services.clone();
    let mcp = StreamableHttpService::new(
        move || {
            let open = sessions.telemetry.session_opened("http");
            Ok(RoslynMcp::new(sessions.clone(), Session::new(resolve::working_directory(), Some(open))))
        },
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let guarded = Router::new()
        .nest_service("/mcp", mcp)
        .route("/metrics", get(metrics))
        .route_layer(middleware::from_fn_with_state(token.map(Arc::<str>::from), bearer));
    let router = Router::new().route("/healthz", get(healthz)).merge(guarded).with_state(services);
    axum::serve(listener, router).with_graceful_shutdown(stop.cancelled_owned()).await?;
    Ok(())
}

async fn healthz(State(services): State<Arc<Services>>) -> impl IntoResponse {
    axum::Json(serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "pid": std::process::id(),
        "sessionsOpen": services.telemetry.sessions_open(),
        "solutionsLoaded": services.registry.workspaces().len(),
    }))
}

async fn metrics(State(services): State<Arc<Services>>) -> impl IntoResponse {
    let body = services.telemetry.encode(&services.registry);
    ([(header::CONTENT_TYPE, telemetry::METRICS_CONTENT_TYPE)], body)
}

/// Refuses a request without the token (401, `WWW-Authenticate: Bearer`).
async fn bearer(State(token): State<Option<Arc<str>>>, request: Request, next: Next) -> Response {
    match &token {
        Some(expected) if !presents(request.headers(), expected) => {
            (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")], "a bearer token is required\n")
                .into_response()
        }
        _ => next.run(request).await,
    }
}

/// Whether the request carries `Authorization: Bearer <expected>`, compared in constant time.
fn presents(headers: &HeaderMap, expected: &str) -> bool {
    let Some(given) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let Some(given) = given.strip_prefix("Bearer ").map(str::trim) else {
        return false;
    };
    given.len() == expected.len() && given.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_passes() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::AUTHORIZATION, value.parse().expect("header"));
            headers
        };
        assert!(presents(&with("Bearer s3cret"), "s3cret"));
        assert!(!presents(&with("Bearer s3cres"), "s3cret"));
        assert!(!presents(&with("Bearer s3cret2"), "s3cret"));
        assert!(!presents(&with("Basic s3cret"), "s3cret"));
        assert!(!presents(&HeaderMap::new(), "s3cret"));
    }

    #[test]
    fn a_public_address_needs_a_token() {
        let public: SocketAddr = "0.0.0.0:7717".parse().expect("address");
        assert!(check_exposure(public, None).is_err());
        assert!(check_exposure(public, Some("t")).is_ok());
        assert!(check_exposure("127.0.0.1:7717".parse().expect("address"), None).is_ok());
        assert!(check_exposure("[::1]:7717".parse().expect("address"), None).is_ok());
    }
}
