//! HTTP/1.1 connections with the server-side limits a shared daemon needs: a client that trickles its
//! request headers is cut off after `--http-read-timeout-secs` (bodies are bounded in `http`),
//! replies are not held back by Nagle's algorithm, and at `stop` open connections get a bounded time to
//! finish before they are dropped.

use crate::jobs::Caller;
use axum::{Extension, Router};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// How long open connections (event streams included) may take to close at shutdown.
const DRAIN: Duration = Duration::from_secs(5);

/// Accepts and serves connections until `stop`. Each connection's requests carry who called (`open`: HTTP is
/// open to every local user, so the caller is found from the connection; else the token says this user).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    open: bool,
    header_timeout: Duration,
    stop: CancellationToken,
) {
    let graceful = GracefulShutdown::new();
    loop {
        let (stream, peer) = tokio::select! {
            _ = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors and the like: wait rather than spin.
                    tracing::warn!(%error, "accepting an HTTP connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "TCP_NODELAY");
        }
        let caller = match stream.local_addr() {
            // The kernel's socket table, read off the async threads.
            Ok(local) if open => crate::offload::cpu(|| Caller::of_peer(local, peer)),
            _ if open => Caller(None),
            _ => Caller::this_user(),
        };
        let service = router.clone().layer(Extension(caller));
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "HTTP connection ended");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown()).await.is_err() {
        tracing::debug!("HTTP connections still open at shutdown were dropped");
    }
}
