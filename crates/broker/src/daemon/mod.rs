//! `roslyn-mcp serve`: the daemon every session on the machine shares. It takes the single-instance lock,
//! undoes writes a crash interrupted, listens on HTTP and on the bridges' local socket, then announces
//! itself (`daemon.json`, and READY=1 to systemd). SIGTERM or SIGINT stops it cleanly: no new session,
//! writes under way finish or roll back, every Roslyn host exits.

mod http;
pub mod run_dir;
mod socket;

use crate::config::ServeArgs;
use crate::services::Services;
use run_dir::{DaemonInfo, RunDir};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let token = http::token(&args)?;
    http::check_exposure(args.http, token.as_deref())?;
    let run = RunDir::lock(&args.service.run_dir())?;
    crate::recover_interrupted_writes(&args.service);
    let services = Services::start(&args.service);
    let listener = tokio::net::TcpListener::bind(args.http)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.http))?;
    let address = listener.local_addr()?;
    let socket_path = run.fresh_socket()?;
    let bridges = socket::listen(&socket_path)?;

    let stop = CancellationToken::new();
    let http_task = tokio::spawn(http::serve(listener, services.clone(), token, stop.clone()));
    let socket_task = tokio::spawn(socket::serve(bridges, services.clone(), stop.clone()));
    run.publish(&DaemonInfo {
        pid: std::process::id(),
        http: address.to_string(),
        socket: socket_path.clone(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    })?;
    notify_systemd(sd_notify::NotifyState::Ready);
    tracing::info!(http = %address, socket = %socket_path.display(), "serving");

    tokio::select! {
        _ = crate::shutdown_signal() => tracing::info!("signal received; shutting down"),
        _ = idle(&services, args.exit_when_idle_secs) => tracing::info!("idle; shutting down"),
    }
    notify_systemd(sd_notify::NotifyState::Stopping);
    // Bridges stop finding this daemon first, so that they start the next one rather than wait on it.
    run.withdraw();
    stop.cancel();
    services.shutdown().await;
    if let Ok(Err(error)) = http_task.await {
        tracing::warn!(%error, "the HTTP endpoint ended with an error");
    }
    let _ = socket_task.await;
    tracing::info!("stopped");
    Ok(())
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
