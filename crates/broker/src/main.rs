//! roslyn-mcp: the binary. `stdio` serves one MCP session on standard input and output.

mod args;
mod components;
mod config;
mod envelope;
mod limits;
mod paging;
mod registry;
mod resolve;
mod server;
mod services;
mod session;
mod tools;

use clap::Parser;
use config::{Cli, Command, ServiceArgs};
use rmcp::ServiceExt;
use services::Services;

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let Command::Stdio(args) = cli.command;
    init_logging(&args);
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(stdio(args))
}

/// Logs go to stderr: stdout carries only MCP messages.
fn init_logging(args: &ServiceArgs) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ROSLYN_MCP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false);
    if args.log_json { builder.json().init() } else { builder.init() }
}

async fn stdio(args: ServiceArgs) -> anyhow::Result<()> {
    recover_interrupted_writes(&args);
    let services = Services::start(&args);
    let server = server::RoslynMcp::new(services.clone());
    let running = server.serve(rmcp::transport::stdio()).await?;
    tokio::select! {
        result = running.waiting() => { result?; }
        _ = shutdown_signal() => tracing::info!("signal received; shutting down"),
    }
    // Every host is asked to exit and waited for: none is left behind.
    services.shutdown().await;
    Ok(())
}

/// A crash in the middle of a write left its journal: put those files back before serving.
fn recover_interrupted_writes(args: &ServiceArgs) {
    let journal = args.journal_dir();
    for operation in workspace_actor::recover(&journal) {
        tracing::warn!(operation, journal = %journal.display(), "undid a write that a crash interrupted");
    }
}

async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}
