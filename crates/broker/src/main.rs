//! roslyn-mcp: the binary. `serve` runs the daemon every session shares; `stdio` is what an MCP client
//! launches: a bridge to the daemon, or with `--embedded` one session served in this process.

mod actions;
mod args;
mod bridge;
mod components;
mod config;
mod daemon;
mod embedded;
mod envelope;
mod guardian;
mod heap;
mod in_flight;
mod jobs;
mod lifecycle;
mod limits;
mod offload;
mod paging;
mod plans;
mod progress;
mod reach;
mod registry;
mod rendezvous;
mod resolve;
mod roots;
mod server;
mod services;
mod session;
mod telemetry;
mod test_runs;
mod tools;

use clap::Parser;
use config::{Cli, Command, ServiceArgs};

fn main() -> std::process::ExitCode {
    let mut cli = Cli::parse();
    // Before any thread exists: no child of a service inherits the token.
    if cli.command.serves() {
        let token = config::withdraw_token();
        if let Command::Serve(args) = &mut cli.command {
            args.token = token;
        }
    }
    let _telemetry = cli.command.service().map(init_logging);
    match run(cli.command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            // One line a person (or a service manager's journal) can read; no backtrace.
            tracing::error!("{error:#}");
            if error.downcast_ref::<daemon::AnotherDaemon>().is_some() {
                std::process::ExitCode::from(rendezvous::EXIT_ANOTHER_DAEMON)
            } else {
                std::process::ExitCode::FAILURE
            }
        }
    }
}

fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve(args) => on_runtime(daemon::serve(args)),
        Command::Stdio(args) if args.embedded => on_runtime(embedded::serve(args.service)),
        Command::Stdio(args) => on_runtime(bridge::relay(args)),
        // It only waits for its service's end: no runtime, no log of its own.
        Command::Guard(args) => {
            guardian::run(&args.pipe);
            Ok(())
        }
    }
}

/// A role served on a multi-threaded runtime.
fn on_runtime(role: impl std::future::Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = runtime.block_on(role);
    // The service has drained; a thread still busy (a file-system call, a large answer) does not hold the
    // exit. Dropping the runtime would wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    result
}

/// Logs go to stderr: stdout carries only MCP messages. OpenTelemetry export, when configured, lasts as
/// long as the guard: keep it until the runtime has finished.
fn init_logging(args: &ServiceArgs) -> telemetry::TelemetryGuard {
    telemetry::init(args.log_json)
}
