//! `roslyn-mcp stdio --embedded`: one session on standard input and output, served in this process with its
//! own Roslyn hosts.

use crate::config::ServiceArgs;
use crate::services::Services;
use crate::{in_flight, lifecycle, resolve, server, session};
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;

/// One session on standard input and output, served in this process with its own Roslyn hosts.
pub async fn serve(args: ServiceArgs) -> anyhow::Result<()> {
    lifecycle::recover_interrupted_writes(&args);
    let services = Services::start(&args);
    let session = session::Session::new(resolve::working_directory(), Some(services.telemetry.session_opened("stdio")));
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = in_flight::Guarded::new(AsyncRwTransport::new_server(stdin, stdout), &services.requests);
    let running = server::RoslynMcp::new(services.clone(), session).serve(transport).await?;
    let ended = tokio::select! {
        result = running.waiting() => result.map(drop),
        _ = lifecycle::shutdown_signal() => {
            tracing::info!("signal received; shutting down");
            Ok(())
        }
    };
    // Every host is asked to exit and waited for, and the compiler server stopped, however the session
    // ended: none is left behind.
    services.shutdown().await;
    Ok(ended?)
}
