//! roslyn-mcp: the binary. `serve` runs the daemon every session shares; `stdio` is what an MCP client
//! launches: a bridge to the daemon, or with `--embedded` one session served in this process.

mod args;
mod bridge;
mod components;
mod config;
mod daemon;
mod envelope;
mod heap;
mod in_flight;
mod limits;
mod paging;
mod progress;
mod registry;
mod resolve;
mod roots;
mod server;
mod services;
mod session;
mod telemetry;
mod tools;

use clap::Parser;
use config::{Cli, Command, ServiceArgs};
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use services::Services;

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let service = match &cli.command {
        Command::Serve(args) => &args.service,
        Command::Stdio(args) => &args.service,
    };
    let _telemetry = init_logging(service);
    match run(cli.command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            // One line a person (or a service manager's journal) can read; no backtrace.
            tracing::error!("{error:#}");
            if error.downcast_ref::<daemon::AnotherDaemon>().is_some() {
                std::process::ExitCode::from(daemon::run_dir::EXIT_ANOTHER_DAEMON)
            } else {
                std::process::ExitCode::FAILURE
            }
        }
    }
}

fn run(command: Command) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    match command {
        Command::Serve(args) => runtime.block_on(daemon::serve(args)),
        Command::Stdio(args) if args.embedded => runtime.block_on(embedded(args.service)),
        Command::Stdio(args) => runtime.block_on(bridge::relay(args)),
    }
}

/// Logs go to stderr: stdout carries only MCP messages. OpenTelemetry export, when configured, lasts as
/// long as the guard: keep it until the runtime has finished.
fn init_logging(args: &ServiceArgs) -> telemetry::TelemetryGuard {
    telemetry::init(args.log_json)
}

/// One session on standard input and output, served in this process with its own Roslyn hosts.
async fn embedded(args: ServiceArgs) -> anyhow::Result<()> {
    recover_interrupted_writes(&args);
    let services = Services::start(&args);
    let session = session::Session::new(resolve::working_directory(), Some(services.telemetry.session_opened("stdio")));
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = in_flight::Guarded::new(AsyncRwTransport::new_server(stdin, stdout), &services.requests);
    let running = server::RoslynMcp::new(services.clone(), session).serve(transport).await?;
    tokio::select! {
        result = running.waiting() => { result?; }
        _ = shutdown_signal() => tracing::info!("signal received; shutting down"),
    }
    // Every host is asked to exit and waited for: none is left behind.
    services.shutdown().await;
    Ok(())
}

/// A crash in the middle of a write left its journal: put those files back before serving.
pub(crate) fn recover_interrupted_writes(args: &ServiceArgs) {
    let journal = args.journal_dir();
    for operation in workspace_actor::recover(&journal) {
        tracing::warn!(operation, journal = %journal.display(), "undid a write that a crash interrupted");
    }
}

pub(crate) async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}
