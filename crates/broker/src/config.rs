//! Command line and environment: one place that says what can be set.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
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
    /// Seconds a refactoring (computing it, writing the files, updating the host) may take; past it every
    /// file is restored and the call fails with TIMEOUT.
    #[arg(long, env = "ROSLYN_MCP_WRITE_TIMEOUT_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=120))]
    pub write_timeout_secs: u64,
    /// Where writes in progress keep their journal, so that a crash in the middle is undone at the next
    /// start (default: `$XDG_STATE_HOME/roslyn-mcp`, else `~/.local/state/roslyn-mcp`).
    #[arg(long, env = "ROSLYN_MCP_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
    /// Fault injection for tests: milliseconds every write pauses after replacing its files and before
    /// updating the host.
    #[arg(long, env = "ROSLYN_MCP_FAULT_APPLY_DELAY_MS", default_value_t = 0, hide = true)]
    pub fault_apply_delay_ms: u64,
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
            write_timeout: Duration::from_secs(self.write_timeout_secs),
            journal_dir: self.journal_dir(),
            apply_delay: Duration::from_millis(self.fault_apply_delay_ms),
            ..WorkspaceSettings::default()
        }
    }

    pub fn journal_dir(&self) -> PathBuf {
        self.state_dir().join("journal")
    }

    fn state_dir(&self) -> PathBuf {
        if let Some(dir) = &self.state_dir {
            return dir.clone();
        }
        let env_dir = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        env_dir("XDG_STATE_HOME")
            .or_else(|| env_dir("HOME").map(|home| home.join(".local/state")))
            .unwrap_or_else(std::env::temp_dir)
            .join("roslyn-mcp")
    }
}
