//! Command line and environment: one place that says what can be set.

use clap::{Args, Parser, Subcommand};
use std::time::Duration;
use workspace_actor::WorkspaceSettings;

#[derive(Debug, Parser)]
#[command(name = "roslyn-mcp", version, about = "Compiler-accurate C# navigation for AI agents, over MCP")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve one MCP session on standard input and output (what an MCP client launches).
    Stdio(ServiceArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ServiceArgs {
    /// Solutions kept loaded at once; the least recently used one is unloaded beyond this.
    #[arg(long, env = "ROSLYN_MCP_MAX_SOLUTIONS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_solutions: u64,
    /// Seconds a solution stays loaded without being used.
    #[arg(long, env = "ROSLYN_MCP_IDLE_TIMEOUT_SECS", default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_secs: u64,
    /// Seconds one read may take in the Roslyn host before it is cancelled (TIMEOUT).
    #[arg(long, env = "ROSLYN_MCP_REQUEST_TIMEOUT_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=120))]
    pub request_timeout_secs: u64,
    /// Seconds starting a host and loading a solution (restore included) may take.
    #[arg(long, env = "ROSLYN_MCP_LOAD_TIMEOUT_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub load_timeout_secs: u64,
    /// Milliseconds file-system events settle before the host sees them.
    #[arg(long, env = "ROSLYN_MCP_DEBOUNCE_MS", default_value_t = 150)]
    pub debounce_ms: u64,
    /// Log as JSON lines (to stderr).
    #[arg(long, env = "ROSLYN_MCP_LOG_JSON")]
    pub log_json: bool,
}

impl ServiceArgs {
    pub fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.idle_timeout_secs)
    }

    pub fn workspace_settings(&self) -> WorkspaceSettings {
        WorkspaceSettings {
            load_timeout: Duration::from_secs(self.load_timeout_secs),
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            debounce: Duration::from_millis(self.debounce_ms),
            ..WorkspaceSettings::default()
        }
    }
}
