//! Spawning a host process on a private local socket, and owning it: the process is killed when its
//! owner drops it, and its stderr goes to our log.

use crate::connection::HostConnection;
use crate::failure::HostFailure;
use crate::host_log;
use crate::locate::HostInstall;
use interprocess::local_socket::tokio::prelude::*;
use interprocess::local_socket::{GenericFilePath, ListenerOptions};
use interprocess::os::unix::local_socket::ListenerOptionsExt;
use paths::{PrivateTempDir, is_private_dir};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::process::{Child, Command};

/// A running host and its connection. Dropping it kills the process.
pub struct HostProcess {
    child: tokio::sync::Mutex<Child>,
    pid: u32,
    connection: HostConnection,
    /// What its log lines name: the solution it serves (a spare gets one when it is taken).
    label: Arc<Mutex<String>>,
}

impl HostProcess {
    /// Starts the host and completes the handshake within `limit`.
    pub async fn start(install: &HostInstall, label: &str, limit: Duration) -> Result<Self, HostFailure> {
        Self::launch(install, label, limit, &[]).await
    }

    /// Starts a host kept for a later load: it also rehearses a load while idle.
    pub(crate) async fn start_spare(install: &HostInstall, label: &str, limit: Duration) -> Result<Self, HostFailure> {
        Self::launch(install, label, limit, &["--rehearse-load"]).await
    }

    async fn launch(install: &HostInstall, label: &str, limit: Duration, flags: &[&str]) -> Result<Self, HostFailure> {
        let socket_dir = socket_dir().map_err(|e| HostFailure::Spawn(format!("socket folder: {e}")))?;
        let socket = socket_dir.path().join("host.sock");
        let listener = ListenerOptions::new()
            .name(socket.as_path().to_fs_name::<GenericFilePath>().map_err(|e| HostFailure::Spawn(e.to_string()))?)
            .mode(0o600)
            .create_tokio()
            .map_err(|e| HostFailure::Spawn(format!("listening on {}: {e}", socket.display())))?;
        // Its own process group: the MSBuild build hosts it starts go down with it (see `kill_group`).
        let mut child = dotnet_command(install)
            .arg(&install.host_dll)
            .arg("--socket")
            .arg(&socket)
            .args(flags)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| HostFailure::Spawn(format!("{}: {e}", install.dotnet.display())))?;
        let pid = child.id().unwrap_or_default();
        let label = Arc::new(Mutex::new(label.to_owned()));
        if let Some(stderr) = child.stderr.take() {
            tokio::spawn(forward_stderr(stderr, pid, label.clone()));
        }
        let connect = async {
            let stream = listener.accept().await.map_err(|e| HostFailure::Spawn(format!("accepting the host: {e}")))?;
            HostConnection::establish(stream).await
        };
        let connection = tokio::select! {
            connection = tokio::time::timeout(limit, connect) => match connection {
                Ok(result) => result?,
                Err(_) => return Err(HostFailure::Handshake(format!("no handshake within {limit:?}"))),
            },
            status = child.wait() => {
                return Err(HostFailure::Spawn(format!("the host exited during start-up ({})", describe(status))));
            }
        };
        // The socket and its folder are only needed until the host has connected.
        drop(listener);
        drop(socket_dir);
        Ok(Self { child: tokio::sync::Mutex::new(child), pid, connection, label })
    }

    /// Names the solution the host serves from now on, in its log lines.
    pub fn relabel(&self, label: &str) {
        *self.label.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = label.to_owned();
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub fn connection(&self) -> &HostConnection {
        &self.connection
    }

    /// Asks the host to exit, and kills it if it has not within `grace`.
    pub async fn stop(&self, grace: Duration) {
        self.connection.shutdown();
        let mut child = self.child.lock().await;
        if tokio::time::timeout(grace, child.wait()).await.is_err() {
            let _ = child.kill().await;
        }
        kill_group(self.pid);
    }
}

impl Drop for HostProcess {
    fn drop(&mut self) {
        kill_group(self.pid);
    }
}

/// `dotnet` as the service starts it: no input, no telemetry or banner, no MSBuild node left behind, the
/// leader of its own process group ([`kill_group`] ends what it started), killed if dropped, and `install.nice` steps below the service's CPU priority, it and every
/// thread and process it starts: when Roslyn's work fills the cores, the service's own threads (health
/// checks, metrics, diagnose, relaying answers) still get a core at once.
pub fn dotnet_command(install: &HostInstall) -> Command {
    let mut command = Command::new(&install.dotnet);
    command
        .stdin(Stdio::null())
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_NOLOGO", "1")
        .env("MSBUILDDISABLENODEREUSE", "1")
        // What a host makes in the temporary folder carries it: the service's guardian removes it.
        .env("ROSLYN_MCP_SERVICE_PID", std::process::id().to_string())
        .process_group(0)
        .kill_on_drop(true);
    let nice = install.nice;
    if nice > 0 {
        #[allow(unsafe_code)]
        // SAFETY: between fork and exec, `nice` is two system calls (getpriority, setpriority) on the child
        // alone. Its result is not checked: -1 is a valid new value, and at the floor (19) it only clamps.
        unsafe {
            command.pre_exec(move || {
                libc::nice(nice);
                Ok(())
            });
        }
    }
    command
}

/// Kills whatever is left of the process group `pid` leads (for the host: MSBuild build hosts caught
/// mid-build).
pub fn kill_group(pid: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(pid)
        && pid > 0
    {
        // ESRCH (nobody left) is the usual, fine answer.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// Every process's id, from `/proc`.
pub fn processes() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
}

/// The running processes of the group `pid` leads.
pub fn group_members(pid: u32) -> Vec<u32> {
    let in_group = |member: u32| stat(member).is_some_and(|s| s.running() && s.group == Some(pid));
    processes().filter(|member| in_group(*member)).collect()
}

/// Whether the process runs: one that ended but is not reaped yet (a zombie: a killed service adopted by an
/// init that reaps late) is gone.
pub fn running(pid: u32) -> bool {
    stat(pid).is_some_and(|s| s.running())
}

/// What `/proc/<id>/stat` says after the parenthesized name: the state (`Z`: ended, not yet reaped) and,
/// after the parent, the group.
struct Stat {
    state: String,
    group: Option<u32>,
}

impl Stat {
    fn running(&self) -> bool {
        self.state != "Z"
    }
}

fn stat(pid: u32) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.to_owned();
    Some(Stat { state, group: fields.nth(1).and_then(|g| g.parse().ok()) })
}

/// Whether the process was started with `argument` as one of its arguments.
pub fn has_argument(pid: u32, argument: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .is_ok_and(|cmdline| cmdline.split(|b| *b == 0).any(|arg| arg == argument.as_bytes()))
}

/// Kills one process (a test run's test host, so that its runner still writes what ran).
pub fn kill_process(pid: u32) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(pid)
        && pid > 0
    {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

fn describe(status: std::io::Result<std::process::ExitStatus>) -> String {
    match status {
        Ok(status) => status.to_string(),
        Err(e) => e.to_string(),
    }
}

/// A fresh folder only this user can enter, for one host's socket: in `XDG_RUNTIME_DIR` when that is
/// private (ours, 0700, not a symlink), else in the temporary folder. Its name is unpredictable and it is
/// created exclusively, so no one can have prepared it (a fixed `/tmp/roslyn-mcp-<uid>` could be).
fn socket_dir() -> std::io::Result<PrivateTempDir> {
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute() && is_private_dir(dir))
        .unwrap_or_else(std::env::temp_dir);
    PrivateTempDir::create_in(&base, "roslyn-mcp-")
}

/// The host's stderr into our log, bounded per host process (see [`host_log`]).
async fn forward_stderr(stderr: tokio::process::ChildStderr, pid: u32, label: Arc<Mutex<String>>) {
    host_log::forward(stderr, |line| {
        let label = label.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        tracing::info!(target: "roslyn_host", host_pid = pid, solution = %label, "{line}");
    })
    .await;
}
