//! `roslyn-mcp serve`: the daemon every session on the machine shares. It takes the single-instance lock,
//! undoes writes a crash interrupted, listens on HTTP and on the bridges' local socket, then announces
//! itself (`daemon.json`, and READY=1 to systemd). SIGTERM or SIGINT stops it cleanly: no new session,
//! writes under way finish or roll back, every Roslyn host exits.

mod access;
mod connections;
mod http;
mod http_requests;
mod json_answers;
mod port_holder;
mod socket;

use crate::config::ServeArgs;
use crate::rendezvous::{DaemonInfo, RunDir};
use crate::services::Services;
use protocol::tools::diagnose::HttpEndpoint;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use crate::rendezvous::AnotherDaemon;

pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    if args.fault_exit_at_start {
        anyhow::bail!("exiting at start (ROSLYN_MCP_FAULT_EXIT_AT_START)");
    }
    let token = access::token(&args)?;
    let run = RunDir::lock(&args.service.run_dir())?;
    crate::lifecycle::recover_interrupted_writes(&args.service);
    let services = Services::start(&args.service);
    let listener = match bind(args.http).await {
        Ok(listener) => Some(listener),
        // A bridge's daemon is there for the bridges' socket: another user's daemon, or any program, on
        // the HTTP port must not keep this user's sessions from being served.
        Err(error) if args.started_by_bridge => {
            tracing::warn!("{error:#}; serving the bridges' socket only");
            let _ = services.http.set(HttpEndpoint { address: None, error: Some(format!("{error:#}")) });
            None
        }
        Err(error) => return Err(error),
    };
    let address = listener.as_ref().map(TcpListener::local_addr).transpose()?;
    let socket_path = run.fresh_socket()?;
    let bridges = socket::listen(&socket_path)?;

    let stop = CancellationToken::new();
    let http_task = listener.map(|listener| {
        let _ = services.http.set(HttpEndpoint { address: address.map(|a| a.to_string()), error: None });
        let read_timeout = Duration::from_secs(args.http_read_timeout_secs);
        tokio::spawn(http::serve(listener, services.clone(), token, read_timeout, stop.clone()))
    });
    let socket_task = tokio::spawn(socket::serve(bridges, services.clone(), stop.clone()));
    run.publish(&DaemonInfo {
        pid: std::process::id(),
        http: address.map(|a| a.to_string()),
        socket: socket_path.clone(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    })?;
    notify_systemd(sd_notify::NotifyState::Ready);
    tracing::info!(http = ?address, socket = %socket_path.display(), "serving");

    tokio::select! {
        _ = crate::lifecycle::shutdown_signal() => tracing::info!("signal received; shutting down"),
        _ = idle(&services, args.exit_when_idle_secs) => tracing::info!("idle; shutting down"),
    }
    notify_systemd(sd_notify::NotifyState::Stopping);
    // Bridges stop finding this daemon first, so that they start the next one rather than wait on it.
    run.withdraw();
    stop.cancel();
    services.shutdown().await;
    if let Some(task) = http_task
        && let Ok(Err(error)) = task.await
    {
        tracing::warn!(%error, "the HTTP endpoint ended with an error");
    }
    let _ = socket_task.await;
    tracing::info!("stopped");
    Ok(())
}

/// Binds the HTTP address; when it is taken, the error says by whom if that can be seen.
async fn bind(address: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(address).await.map_err(|error| {
        let holder = (error.kind() == std::io::ErrorKind::AddrInUse)
            .then(|| port_holder::describe(address.port()))
            .flatten()
            .map(|holder| format!(", held by {holder}"))
            .unwrap_or_default();
        anyhow::anyhow!("cannot listen on {address}: {error}{holder}")
    })
}

/// Resolves once nothing has been open or loaded for `secs` in a row; never without a limit.
async fn idle(services: &Arc<Services>, secs: Option<u64>) {
    let Some(limit) = secs.map(Duration::from_secs) else {
        return std::future::pending().await;
    };
    let mut quiet_since = tokio::time::Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1).min(limit));
    loop {
        tick.tick().await;
        if services.telemetry.sessions_open() > 0 || !services.registry.workspaces().is_empty() {
            quiet_since = tokio::time::Instant::now();
        } else if quiet_since.elapsed() >= limit {
            return;
        }
    }
}

fn notify_systemd(state: sd_notify::NotifyState) {
    if let Err(error) = sd_notify::notify(false, &[state]) {
        tracing::debug!(%error, "no service manager to notify");
    }
}
