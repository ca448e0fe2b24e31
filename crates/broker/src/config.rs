//! Command line and environment: one place that says what can be set.

use crate::limits::{self, Limits};
use clap::{Args, Parser, Subcommand};
use protocol::tools::plans::HistoryBound;
use std::net::SocketAddr;
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
    /// The daemon: MCP over Streamable HTTP and a local socket for `stdio` bridges; every session shares
    /// the loaded solutions. Also serves /healthz and /metrics.
    Serve(ServeArgs),
    /// What an MCP client launches: relays one MCP session on standard input and output to the daemon,
    /// starting it when none runs (`--embedded` serves in this process instead).
    Stdio(StdioArgs),
    /// The guardian a service starts beside itself (see `guardian.rs`): not for people to run.
    #[command(hide = true)]
    Guard(GuardArgs),
}

/// The variable that hands the daemon its HTTP bearer token, and the one naming a file that holds it.
pub const TOKEN_VARIABLE: &str = "ROSLYN_MCP_TOKEN";
pub const TOKEN_FILE_VARIABLE: &str = "ROSLYN_MCP_TOKEN_FILE";

/// Takes the token's variables out of this process's environment and returns the token's value, so that
/// nothing a service starts (Roslyn hosts, builds, test runs, git, its guardian) inherits them: a repository's
/// code or hooks run there, and their output may reach a client or a log.
pub fn withdraw_token() -> Option<String> {
    let token = std::env::var(TOKEN_VARIABLE).ok();
    #[allow(unsafe_code)]
    // SAFETY: called first thing in `main`, before the runtime, the logging or any other thread exists:
    // nothing reads or writes the environment meanwhile.
    unsafe {
        std::env::remove_var(TOKEN_VARIABLE);
        std::env::remove_var(TOKEN_FILE_VARIABLE);
    }
    token
}

impl Command {
    /// Whether it serves sessions in this process (the daemon, or `stdio --embedded`), rather than relaying
    /// them (a bridge, which passes its environment to the daemon it starts) or guarding a service.
    pub fn serves(&self) -> bool {
        matches!(self, Command::Serve(_)) || matches!(self, Command::Stdio(args) if args.embedded)
    }

    /// The service's settings; none for the guardian, which serves nothing.
    pub fn service(&self) -> Option<&ServiceArgs> {
        match self {
            Command::Serve(args) => Some(&args.service),
            Command::Stdio(args) => Some(&args.service),
            Command::Guard(_) => None,
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct GuardArgs {
    /// The pipe of the service's compiler server, ended with the service.
    #[arg(long)]
    pub pipe: String,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub service: ServiceArgs,
    /// Address of the HTTP endpoint (/mcp, /healthz, /metrics). Anything but loopback needs a token.
    #[arg(long, env = "ROSLYN_MCP_HTTP", default_value = "127.0.0.1:7717")]
    pub http: SocketAddr,
    /// A file holding the bearer token HTTP clients must send (`Authorization: Bearer ...`); the
    /// ROSLYN_MCP_TOKEN variable may hold it instead. Without either, a token is generated at first
    /// start into `<state-dir>/http-token` (readable by this user only).
    #[arg(long, env = TOKEN_FILE_VARIABLE)]
    pub token_file: Option<PathBuf>,
    /// The token `ROSLYN_MCP_TOKEN` held, taken out of the environment as the process starts
    /// ([`withdraw_token`]).
    #[arg(skip)]
    pub token: Option<String>,
    /// Serve HTTP on loopback without a token: every local user may then call the daemon, and loading a
    /// project runs its MSBuild targets as this user. Refused for any address but loopback.
    #[arg(long, env = "ROSLYN_MCP_HTTP_OPEN_TO_LOCAL_USERS", value_parser = clap::builder::BoolishValueParser::new())]
    pub http_open_to_local_users: bool,
    /// Seconds an HTTP client may take to send a request's headers, and again its body; a slower one is
    /// cut off (headers) or answered 408 (body).
    #[arg(long, env = "ROSLYN_MCP_HTTP_READ_TIMEOUT_SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub http_read_timeout_secs: u64,
    /// Set by a bridge that starts the daemon: the bridges' socket is what it is for, so an HTTP address
    /// that cannot be bound is reported (log, diagnose) rather than fatal.
    #[arg(long, hide = true)]
    pub started_by_bridge: bool,
    /// Fault injection for tests: the daemon exits with an error at once, before taking its lock.
    #[arg(long, env = "ROSLYN_MCP_FAULT_EXIT_AT_START", hide = true, value_parser = clap::builder::BoolishValueParser::new())]
    pub fault_exit_at_start: bool,
    /// Exit after this many seconds with no session open and no solution loaded (a daemon a bridge
    /// started does so after 15 minutes; by default one started by hand runs until stopped).
    #[arg(long, env = "ROSLYN_MCP_EXIT_WHEN_IDLE_SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub exit_when_idle_secs: Option<u64>,
}

#[derive(Debug, Clone, Args)]
pub struct StdioArgs {
    #[command(flatten)]
    pub service: ServiceArgs,
    /// Serve the session in this process, with its own Roslyn hosts, instead of through the daemon.
    #[arg(long)]
    pub embedded: bool,
}

/// How long a call works before it answers with its job, unless `--answer-within` says.
pub const ANSWER_WITHIN_SECS: u64 = 45;

#[derive(Debug, Clone, Args)]
pub struct ServiceArgs {
    /// Solutions kept loaded at once; the least recently used one is unloaded beyond this.
    #[arg(long, env = "ROSLYN_MCP_MAX_SOLUTIONS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_solutions: u64,
    /// Seconds a solution stays loaded without being used.
    #[arg(long, env = "ROSLYN_MCP_IDLE_TIMEOUT_SECS", default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_secs: u64,
    /// MiB of resident memory a Roslyn host may use: past it, its solution is unloaded as soon as no call is
    /// under way, and loads again (in a fresh host) with the next call.
    #[arg(long, env = "ROSLYN_MCP_MAX_HOST_MEMORY_MB", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_host_memory_mb: u64,
    /// MiB of resident memory the Roslyn hosts may use together (default: three quarters of the machine's):
    /// past it, the least recently used solutions with no call under way are unloaded until the rest fit; the
    /// one used last stays.
    #[arg(long, env = "ROSLYN_MCP_MAX_HOSTS_MEMORY_MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_hosts_memory_mb: Option<u64>,
    /// Keep one Roslyn host started ahead of need (`false` to not): a load then takes it instead of
    /// waiting about 0.8 s for a host to start. The idle spare is one more `dotnet` process.
    #[arg(long, env = "ROSLYN_MCP_SPARE_HOST", default_value_t = true, action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub spare_host: bool,
    /// Compile every project and rehearse searches after each load, before the first call is answered, so
    /// that it and the next are answered warm (`false`: a call after a load pays only for what it reads; for
    /// a service that answers a few calls and exits, as in a CI job).
    #[arg(long, env = "ROSLYN_MCP_WARM_UP", default_value_t = true, action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub warm_up: bool,
    /// Let `run_tests` build and run the solutions' tests (`false` to refuse it with TEST_RUNS_DISABLED).
    /// A test run executes the repository's code as the service's user, as a build does.
    #[arg(long, env = "ROSLYN_MCP_TEST_RUNS", default_value_t = true, action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub test_runs: bool,
    /// Where the service builds the projects a solution references as analyzers (its own source generators)
    /// when their assembly is missing or older than their sources: `copy` (in the service's own copy of the
    /// repository; the user's bin/ and obj/ stay as they are), `in-place` (into the project's own bin/ and
    /// obj/, as `dotnet build` there would), or `off` (the solution goes without what they write, and every
    /// answer says so). A build runs the repository's build of those projects, as loading runs its evaluation.
    #[arg(long, env = "ROSLYN_MCP_GENERATOR_BUILD", value_enum, default_value_t = GeneratorBuild::Copy)]
    pub generator_build: GeneratorBuild,
    /// How many steps below the service's own CPU priority (nice) its Roslyn hosts run, and the builds and
    /// test runs it starts: when they fill every core, health checks, metrics and diagnose still answer at
    /// once. 0 runs them at the service's priority.
    #[arg(long, env = "ROSLYN_MCP_HOST_NICE", default_value_t = 10, value_parser = clap::value_parser!(i32).range(0..=19))]
    pub host_nice: i32,
    /// Seconds one read may take in the Roslyn host before it is cancelled (TIMEOUT).
    #[arg(long, env = "ROSLYN_MCP_REQUEST_TIMEOUT_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=120))]
    pub request_timeout_secs: u64,
    /// Seconds a call may work before it answers with its job (status `running` and a `jobId`; a task for a
    /// request that declares the Tasks extension) while the work goes on; `get_job` then returns the call's
    /// answer. 45 leaves a client's usual 60-second limit room for a proxy, the transport and a busy machine.
    #[arg(long, env = "ROSLYN_MCP_ANSWER_WITHIN_SECS", default_value_t = ANSWER_WITHIN_SECS, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub answer_within_secs: u64,
    /// This daemon's name among several behind one proxy: every job id starts with it (`<instance>.<id>`), so
    /// the proxy sends `get_job` and `tasks/*` to the daemon that owns the job. Letters, digits, `-` and `_`.
    #[arg(long, env = "ROSLYN_MCP_INSTANCE", value_parser = instance_name)]
    pub instance: Option<String>,
    /// Seconds starting a host and loading a solution (restore included) may take.
    #[arg(long, env = "ROSLYN_MCP_LOAD_TIMEOUT_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub load_timeout_secs: u64,
    /// Milliseconds file-system events settle before the host sees them.
    #[arg(long, env = "ROSLYN_MCP_DEBOUNCE_MS", default_value_t = 150)]
    pub debounce_ms: u64,
    /// Seconds a write may hold the solution's write lock (bringing its plan onto the solution as it is,
    /// writing the files, updating the host): what other writers wait behind. Past it every file is restored
    /// and the call fails with TIMEOUT.
    #[arg(long, env = "ROSLYN_MCP_WRITE_TIMEOUT_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=120))]
    pub write_timeout_secs: u64,
    /// Seconds a write's computation (its plan, in the Roslyn host) may take, counted from when the host
    /// starts it; past the answer bound the call goes on as a job meanwhile. Past it nothing is written
    /// (TIMEOUT). It stops a runaway computation: a whole-project write on a large library takes minutes.
    #[arg(long, env = "ROSLYN_MCP_COMPUTE_TIMEOUT_SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub compute_timeout_secs: u64,
    /// Where writes in progress keep their journal, so that a crash in the middle is undone at the next
    /// start (default: `$XDG_STATE_HOME/roslyn-mcp`, else `~/.local/state/roslyn-mcp`).
    #[arg(long, env = "ROSLYN_MCP_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
    /// Applied operations kept per solution for undo (under `<state-dir>/history`); older ones are forgotten.
    #[arg(long, env = "ROSLYN_MCP_HISTORY_MAX_OPERATIONS", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub history_max_operations: u32,
    /// MiB of saved file contents the history keeps per solution; the oldest operations are forgotten
    /// beyond it (the newest is always kept).
    #[arg(long, env = "ROSLYN_MCP_HISTORY_MAX_MB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub history_max_mb: u64,
    /// Items per page of a paged list; a larger `pageSize` is lowered to it. At most 200.
    #[arg(long, env = "ROSLYN_MCP_MAX_PAGE_SIZE", default_value_t = limits::MAX_PAGE_SIZE, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_page_size: u32,
    /// Items of a list that is not paged (and diagnostics per file); more is CAP_EXCEEDED. At most 200.
    #[arg(long, env = "ROSLYN_MCP_MAX_ITEMS", default_value_t = limits::MAX_ITEMS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_items: u32,
    /// Items of a paged result over all pages; more is CAP_EXCEEDED. At most 20,000 (5,000 files for
    /// diagnostics).
    #[arg(long, env = "ROSLYN_MCP_MAX_TOTAL_ITEMS", default_value_t = limits::MAX_TOTAL_ITEMS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_total_items: u32,
    /// Bytes of one tool answer (read tools); more is CAP_EXCEEDED. At most 524,288.
    #[arg(long, env = "ROSLYN_MCP_MAX_RESPONSE_BYTES", default_value_t = limits::MAX_RESPONSE_BYTES, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_response_bytes: u32,
    /// Seconds a paged result stays retained for its cursors; later pages then fail with CURSOR_EXPIRED.
    #[arg(long, env = "ROSLYN_MCP_CURSOR_TTL_SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub cursor_ttl_secs: u64,
    /// Requests one session may have in flight (read, not yet answered); more are refused at once with
    /// TOO_MANY_REQUESTS.
    #[arg(long, env = "ROSLYN_MCP_MAX_REQUESTS_PER_SESSION", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_requests_per_session: u32,
    /// Requests in flight over every session of the service; more are refused at once with
    /// TOO_MANY_REQUESTS.
    #[arg(long, env = "ROSLYN_MCP_MAX_REQUESTS", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_requests: u32,
    /// Fault injection for tests: every write that has replaced its files waits until this file exists
    /// before updating the host, so that tests act in that window without racing the clock.
    #[arg(long, env = "ROSLYN_MCP_FAULT_HOLD_APPLY", hide = true)]
    pub fault_hold_apply: Option<PathBuf>,
    /// Fault injection for tests: `<step>:<file>` pauses every write at that step of its journal (staged,
    /// replacing, recorded, removing), once `<file>.held` is created, until the file exists.
    #[arg(long, env = "ROSLYN_MCP_FAULT_HOLD_JOURNAL", hide = true)]
    pub fault_hold_journal: Option<workspace_actor::JournalHold>,
    /// Fault injection for tests: a workspace's start-up (watching its folder) waits as long as this file
    /// exists, so that tests call other solutions while one is starting.
    #[arg(long, env = "ROSLYN_MCP_FAULT_HOLD_WORKSPACE_START", hide = true)]
    pub fault_hold_workspace_start: Option<PathBuf>,
    /// Fault injection for tests: while a file of this name exists in a solution's folder, its watch loses
    /// every event, and the file's removal stands for the watch queue's overflow.
    #[arg(long, env = "ROSLYN_MCP_FAULT_WATCH_OVERFLOW", hide = true)]
    pub fault_watch_overflow: Option<std::ffi::OsString>,
    /// Log as JSON lines (to stderr).
    #[arg(long, env = "ROSLYN_MCP_LOG_JSON", value_parser = clap::builder::BoolishValueParser::new())]
    pub log_json: bool,
}

/// Where the service builds generator projects (`--generator-build`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GeneratorBuild {
    /// In the service's own copy of the repository: the user's `bin/` and `obj/` stay as they are.
    Copy,
    /// Where the project is, into its own `bin/` and `obj/`, as `dotnet build` there would.
    InPlace,
    /// Not at all: the solution goes without what the generators write, and every answer says so.
    Off,
}

/// An instance name as job ids and a proxy's rules can carry it.
fn instance_name(name: &str) -> Result<String, String> {
    let valid =
        (1..=32).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    valid.then(|| name.to_owned()).ok_or_else(|| "1 to 32 letters, digits, '-' or '_'".to_owned())
}

impl ServiceArgs {
    pub fn answer_within(&self) -> Duration {
        Duration::from_secs(self.answer_within_secs)
    }

    pub fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.idle_timeout_secs)
    }

    pub fn workspace_settings(&self) -> WorkspaceSettings {
        WorkspaceSettings {
            load_timeout: Duration::from_secs(self.load_timeout_secs),
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            debounce: Duration::from_millis(self.debounce_ms),
            warm_up: self.warm_up,
            write_timeout: Duration::from_secs(self.write_timeout_secs),
            compute_timeout: Duration::from_secs(self.compute_timeout_secs),
            journal_dir: self.journal_dir(),
            fence_dir: self.state_dir().join("fences"),
            history_dir: self.state_dir().join("history"),
            history_bound: HistoryBound {
                max_operations: self.history_max_operations,
                max_bytes: self.history_max_mb * 1024 * 1024,
            },
            apply_hold: self.fault_hold_apply.clone(),
            journal_hold: self.fault_hold_journal.clone(),
            start_hold: self.fault_hold_workspace_start.clone(),
            overflow_fault: self.fault_watch_overflow.clone(),
            ..WorkspaceSettings::default()
        }
    }

    /// The caps as set, lowered to the hard maxima.
    pub fn limits(&self) -> Limits {
        Limits::clamped(self.max_page_size, self.max_items, self.max_total_items, self.max_response_bytes)
    }

    pub fn cursor_ttl(&self) -> Duration {
        Duration::from_secs(self.cursor_ttl_secs)
    }

    /// Where test runs build and write their results, when they are allowed.
    pub fn test_runs_dir(&self) -> Option<PathBuf> {
        self.test_runs.then(|| self.state_dir().join("test-runs"))
    }

    pub fn journal_dir(&self) -> PathBuf {
        self.state_dir().join("journal")
    }

    /// Where the daemon keeps its lock, its socket and what it tells bridges (`daemon.json`).
    pub fn run_dir(&self) -> PathBuf {
        self.state_dir().join("run")
    }

    /// The state folder; whoever uses it checks it is private first (`paths::create_private_dir`).
    /// Without a home, a per-user name in the temporary folder: users do not collide, and one that another
    /// user created first is refused by that check rather than shared.
    pub fn state_dir(&self) -> PathBuf {
        if let Some(dir) = &self.state_dir {
            return dir.clone();
        }
        let env_dir = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        env_dir("XDG_STATE_HOME")
            .or_else(|| env_dir("HOME").map(|home| home.join(".local/state")))
            .map(|base| base.join("roslyn-mcp"))
            .unwrap_or_else(|| std::env::temp_dir().join(format!("roslyn-mcp-state-{}", paths::user_id())))
    }
}

#[cfg(test)]
mod tests {
    use super::{Cli, Command};
    use clap::Parser;

    fn serve(args: &[&str]) -> super::ServiceArgs {
        match Cli::try_parse_from([&["roslyn-mcp", "serve"], args].concat()).expect("parsed").command {
            Command::Serve(serve) => serve.service,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_warm_up_is_on_unless_told_off() {
        assert!(serve(&[]).workspace_settings().warm_up, "on by default (unless ROSLYN_MCP_WARM_UP says)");
        assert!(!serve(&["--warm-up", "false"]).workspace_settings().warm_up);
        assert!(Cli::try_parse_from(["roslyn-mcp", "serve", "--warm-up", "maybe"]).is_err());
    }
}
