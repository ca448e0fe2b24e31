//! The daemon's HTTP face: MCP Streamable HTTP on `/mcp` (rmcp's transport), `/healthz` for service
//! managers and `/metrics` for Prometheus. Every route checks `Host` and `Origin` against DNS rebinding;
//! everything but `/healthz` (which says nothing but "ok") wants the bearer token (see [`super::access`]).
//! A body that is not JSON-RPC gets a JSON-RPC error, not a transport's plain text; a session this daemon
//! does not hold gets 404, whatever the request's protocol version.

use super::http_requests::{Holding, HttpRequests};
use super::{connections, json_answers};
use crate::resolve;
use crate::server::{RoslynMcp, SESSION_HEADER};
use crate::services::Services;
use crate::session::Session;
use crate::telemetry;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::model::{ClientJsonRpcMessage, GetMeta};
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Names a loopback daemon answers to; any other `Host` is a rebinding attempt.
const LOOPBACK_HOSTS: &[&str] = &["localhost", "127.0.0.1", "[::1]"];
/// The largest request body accepted (a snippet is at most 64 KiB; JSON escaping can double it).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// What guards a route: the token (when HTTP is not open to every local user) and whether `Host`
/// must be a loopback name (yes unless bound beyond loopback, where the token is the wall).
#[derive(Clone)]
struct Guard {
    token: Option<Arc<str>>,
    loopback_hosts_only: bool,
}

/// Serves until `stop`; a client gets `read_timeout` for a request's headers, and again for its body.
pub async fn serve(
    listener: TcpListener,
    services: Arc<Services>,
    token: Option<String>,
    read_timeout: Duration,
    stop: CancellationToken,
) -> anyhow::Result<()> {
    let address = listener.local_addr()?;
    let loopback = address.ip().is_loopback();
    // Host and Origin are checked once, for every route, by `check`; rmcp's own checks would repeat it.
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(stop.child_token());
    let sessions = services.clone();
    let held = Arc::new(LocalSessionManager::default());
    let mcp = StreamableHttpService::new(
        move || {
            let open = sessions.telemetry.session_opened("http");
            Ok(RoslynMcp::new(sessions.clone(), Session::new(resolve::working_directory(), Some(open))))
        },
        held.clone(),
        config,
    );
    let open = token.is_none();
    let guard = Guard { token: token.map(Arc::from), loopback_hosts_only: loopback };
    let bodies = Bodies { read_timeout, requests: HttpRequests::new(services.requests.clone()) };
    let mcp = Router::new()
        .nest_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(bodies, json_rpc_body))
        .layer(middleware::from_fn_with_state(held, known_session));
    let router = Router::new()
        .merge(mcp)
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .layer(middleware::from_fn_with_state(guard, check))
        .with_state(services);
    connections::serve(listener, router, open, read_timeout, stop).await;
    Ok(())
}

/// Liveness only: nothing about sessions, solutions or the process.
async fn healthz() -> impl IntoResponse {
    axum::Json(serde_json::json!({ "status": "ok" }))
}

async fn metrics(State(services): State<Arc<Services>>) -> impl IntoResponse {
    let body = services.telemetry.encode(services.sample());
    ([(header::CONTENT_TYPE, telemetry::METRICS_CONTENT_TYPE)], body)
}

/// One `Host` and at most one `Authorization` (400), `Host` and `Origin` on every route (403), then the token
/// on every route but `/healthz` (401).
async fn check(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    // A proxy in front may read another copy than this guard does: a request carrying two says nothing certain.
    if let Some(name) =
        [header::HOST, header::AUTHORIZATION].into_iter().find(|n| headers.get_all(n).iter().nth(1).is_some())
    {
        return (StatusCode::BAD_REQUEST, format!("Bad Request: more than one {name} header\n")).into_response();
    }
    if guard.loopback_hosts_only && !headers.get(header::HOST).and_then(|h| h.to_str().ok()).is_some_and(loopback_host)
    {
        return (StatusCode::FORBIDDEN, "Forbidden: the Host header must name this machine's loopback\n")
            .into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN)
        && !origin.to_str().is_ok_and(loopback_origin)
    {
        return (StatusCode::FORBIDDEN, "Forbidden: foreign Origin\n").into_response();
    }
    if let Some(expected) = &guard.token
        && request.uri().path() != "/healthz"
        && !super::access::presents(headers, expected)
    {
        return (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")], "a bearer token is required\n")
            .into_response();
    }
    next.run(request).await
}

/// A request naming a session this daemon does not hold gets 404, as the MCP spec says of an unknown or expired
/// one: rmcp serves a 2026-07-28 request without looking at `Mcp-Session-Id`, so a made-up id would pass.
async fn known_session(State(held): State<Arc<LocalSessionManager>>, request: Request, next: Next) -> Response {
    if let Some(id) = request.headers().get(SESSION_HEADER) {
        let known = match id.to_str() {
            Ok(id) => held.has_session(&Arc::from(id)).await.unwrap_or(false),
            Err(_) => false,
        };
        if !known {
            return (StatusCode::NOT_FOUND, "Not Found: Session not found\n").into_response();
        }
    }
    next.run(request).await
}

/// `localhost`, `127.0.0.1` or `[::1]`, with or without a port.
fn loopback_host(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !name.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    LOOPBACK_HOSTS.iter().any(|allowed| name.eq_ignore_ascii_case(allowed))
}

/// `http(s)://` and a loopback host: a page of this machine.
fn loopback_origin(origin: &str) -> bool {
    origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")).is_some_and(loopback_host)
}

/// What the body check needs: how long a body may take, and the requests in flight.
#[derive(Clone)]
struct Bodies {
    read_timeout: Duration,
    requests: Arc<HttpRequests>,
}

/// A POST's body is read within the read timeout and must be a JSON-RPC message: else the client gets
/// a JSON-RPC error (-32700 parse error, -32600 invalid request) rather than the transport's plain text.
/// A request is then counted in flight until its response ends (see [`super::http_requests`]), and answered
/// with one JSON body when its event stream would carry nothing else (see [`super::json_answers`]).
async fn json_rpc_body(State(bodies): State<Bodies>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !is_json(request.headers()) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, MAX_BODY_BYTES);
    let bytes = match tokio::time::timeout(bodies.read_timeout, read).await {
        Err(_) => {
            return json_rpc_error(StatusCode::REQUEST_TIMEOUT, -32600, "the request body did not arrive in time");
        }
        Ok(Err(error)) => {
            return json_rpc_error(StatusCode::PAYLOAD_TOO_LARGE, -32600, &format!("request body refused: {error}"));
        }
        Ok(Ok(bytes)) => bytes,
    };
    let message = match serde_json::from_slice::<ClientJsonRpcMessage>(&bytes) {
        Ok(message) => message,
        // Only a body that is not a message is parsed again, to tell bad JSON from JSON that is not JSON-RPC;
        // into values, so that a string no text can hold (a lone surrogate) is a parse error too.
        Err(invalid) => {
            return match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Err(error) => json_rpc_error(StatusCode::BAD_REQUEST, -32700, &format!("Parse error: {error}")),
                Ok(_) => json_rpc_error(StatusCode::BAD_REQUEST, -32600, &format!("Invalid Request: {invalid}")),
            };
        }
    };
    let ClientJsonRpcMessage::Request(request) = &message else {
        return next.run(Request::from_parts(parts, Body::from(bytes))).await;
    };
    let session = parts.headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok());
    match bodies.requests.admit(session, &request.request, &request.id) {
        Ok(ticket) => {
            // A client that asked for progress reads the notifications as they come.
            let streamed = request.request.get_meta().get_progress_token().is_some();
            let mut response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
            if !streamed {
                response = json_answers::prefer_json(response).await;
            }
            response.map(|body| Body::new(Holding::new(body, ticket)))
        }
        Err(refusal) => axum::Json(*refusal).into_response(),
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    json_answers::is_media_type(headers, "application/json")
}

fn json_rpc_error(status: StatusCode, code: i32, message: &str) -> Response {
    let body = serde_json::json!({ "jsonrpc": "2.0", "id": null, "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_pass_as_host_and_origin() {
        for host in ["localhost", "localhost:7717", "127.0.0.1:1", "[::1]:80", "LOCALHOST"] {
            assert!(loopback_host(host), "{host}");
        }
        for host in ["evil.example", "localhost.evil.example", "127.0.0.2", "evil.example:7717", "", "[::1]x"] {
            assert!(!loopback_host(host), "{host}");
        }
        assert!(loopback_origin("http://localhost:3000"));
        assert!(loopback_origin("https://127.0.0.1"));
        for origin in ["null", "http://evil.example", "http://localhost.evil.example", "file://", "localhost"] {
            assert!(!loopback_origin(origin), "{origin}");
        }
    }
}
