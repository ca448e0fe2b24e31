//! The local socket `roslyn-mcp stdio` bridges connect to: each connection is one MCP session. A bridge
//! first sends one line naming its working directory (see [`crate::rendezvous::Preamble`]), so relative paths
//! resolve as they would in the client's own process; a connection without it serves from the daemon's.

use crate::in_flight::Guarded;
use crate::rendezvous::Preamble;
use crate::resolve;
use crate::server::RoslynMcp;
use crate::services::Services;
use crate::session::Session;
use interprocess::local_socket::tokio::prelude::*;
use interprocess::local_socket::{GenericFilePath, ListenerOptions};
use interprocess::os::unix::local_socket::ListenerOptionsExt;
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio_util::sync::CancellationToken;

/// A preamble longer than this is not one: the line is served as MCP.
const PREAMBLE_LIMIT: u64 = 64 * 1024;

/// Listens on `path`, reachable by this user only.
pub fn listen(path: &Path) -> anyhow::Result<LocalSocketListener> {
    let name = path.to_fs_name::<GenericFilePath>()?;
    Ok(ListenerOptions::new().name(name).mode(0o600).create_tokio()?)
}

/// Accepts bridges until `stop`; each session ends with `stop` too.
pub async fn serve(listener: LocalSocketListener, services: Arc<Services>, stop: CancellationToken) {
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok(stream) => {
                    tokio::spawn(session(stream, services.clone(), stop.child_token()));
                }
                Err(error) => {
                    tracing::warn!(%error, "accepting a bridge failed");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
            },
        }
    }
}

async fn session(stream: LocalSocketStream, services: Arc<Services>, stop: CancellationToken) {
    let (receive, send) = tokio::io::split(stream);
    let mut reader = BufReader::new(receive);
    let mut first = Vec::new();
    if let Err(error) = (&mut reader).take(PREAMBLE_LIMIT).read_until(b'\n', &mut first).await {
        tracing::debug!(%error, "a bridge went away before its first line");
        return;
    }
    let (cwd, replay) = match Preamble::parse(&first) {
        Some(preamble) => (preamble.cwd, Vec::new()),
        None => (resolve::working_directory(), first),
    };
    let session = Session::new(cwd_or_default(cwd), Some(services.telemetry.session_opened("socket")));
    let id = session.id.clone();
    let transport =
        Guarded::new(AsyncRwTransport::new_server(Cursor::new(replay).chain(reader), send), &services.requests);
    let server = RoslynMcp::new(services, session);
    match server.serve_with_ct(transport, stop).await {
        Ok(running) => {
            let _ = running.waiting().await;
            tracing::debug!(session = id, "bridge session ended");
        }
        Err(error) => tracing::info!(session = id, %error, "a bridge session did not initialize"),
    }
}

/// A working directory that no longer exists is no base for paths.
fn cwd_or_default(cwd: PathBuf) -> PathBuf {
    if cwd.is_absolute() && cwd.is_dir() { cwd } else { resolve::working_directory() }
}
