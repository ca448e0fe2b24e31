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
mod lifecycle;
mod limits;
mod offload;
mod paging;
mod plans;
mod progress;
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
    let cli = Cli::parse();
    let service = match &cli.command {
        Command::Serve(args) => &args.service,
        Command::Stdio(args) => &args.service,
        Command::Guard(args) => {
            guardian::run(&args.pipe);
            return std::process::ExitCode::SUCCESS;
        }
    };
    let _telemetry = init_logging(service);
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
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = match command {
        Command::Serve(args) => runtime.block_on(daemon::serve(args)),
        Command::Stdio(args) if args.embedded => runtime.block_on(embedded::serve(args.service)),
        Command::Stdio(args) => runtime.block_on(bridge::relay(args)),
        Command::Guard(args) => {
            guardian::run(&args.pipe);
            Ok(())
        }
    };
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
