//! `roslyn-mcp stdio`: relays one MCP session between standard input/output and the daemon's local
//! socket, byte for byte. When no daemon answers it starts one (`roslyn-mcp serve` with the same settings,
//! detached, logging to `daemon.log` in the run folder); when several bridges race to do so, the
//! single-instance lock lets one daemon win and the others exit, and every bridge connects to the winner.
//! A daemon that keeps exiting at start is tried a bounded number of times, never in a loop.

use crate::config::StdioArgs;
use crate::rendezvous::{self as run_dir, Preamble};
use anyhow::Context;
use interprocess::local_socket::GenericFilePath;
use interprocess::local_socket::tokio::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::time::Instant;

/// How long a bridge waits for a daemon to answer, starting one if needed.
const CONNECT_WAIT: Duration = Duration::from_secs(30);
/// Daemons a bridge starts, one after another, before it gives up.
const START_ATTEMPTS: u32 = 3;
/// The pause after a daemon exits at start, doubled with each attempt.
const RETRY_PAUSE: Duration = Duration::from_millis(200);
/// The log of a daemon a bridge started, in the run folder.
const DAEMON_LOG: &str = "daemon.log";
/// A daemon a bridge starts exits after this long with no session and no solution.
const AUTOSTART_IDLE_EXIT_SECS: &str = "900";

pub async fn relay(args: StdioArgs) -> anyhow::Result<()> {
    let run = args.service.run_dir();
    run_dir::ensure_private(&run)?; // never connect to a socket in a folder someone else controls
    let stream = connect_or_start(&run).await?;
    let (mut from_daemon, mut to_daemon) = tokio::io::split(stream);
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    to_daemon.write_all(&Preamble { cwd }.line()?).await?;
    let upstream = async {
        tokio::io::copy(&mut tokio::io::stdin(), &mut to_daemon).await?;
        // The client closed its end: the daemon ends the session and closes the socket in turn.
        to_daemon.shutdown().await
    };
    let downstream = async {
        let mut stdout = tokio::io::stdout();
        tokio::io::copy(&mut from_daemon, &mut stdout).await?;
        stdout.flush().await
    };
    tokio::pin!(downstream);
    tokio::select! {
        finished = &mut downstream => finished.context("relaying the daemon's messages")?,
        sent = upstream => {
            sent.context("relaying the client's messages")?;
            downstream.await.context("relaying the daemon's messages")?;
        }
    }
    Ok(())
}

/// Connects to the daemon of `run`, starting one when none answers. At most one daemon is started at a
/// time and at most [`START_ATTEMPTS`] in all: one that exits because another holds the lock means the
/// other is coming up (it is waited for, not raced); one that exits for any other reason is an attempt
/// spent, retried after a doubling pause. Then the bridge gives up with the daemon's own last words.
async fn connect_or_start(run: &Path) -> anyhow::Result<LocalSocketStream> {
    let socket = run_dir::socket_path(run);
    let began = Instant::now();
    let mut attempts = 0;
    let mut starting: Option<Child> = None;
    let mut another_starting = false;
    loop {
        if let Ok(stream) = connect(&socket).await {
            return Ok(stream);
        }
        let exited = match starting.as_mut().map(Child::try_wait) {
            Some(Ok(None)) => None,
            Some(Ok(Some(status))) => Some(status),
            Some(Err(error)) => return Err(error).context("watching the daemon this bridge started"),
            None if another_starting => None,
            None => {
                if attempts == START_ATTEMPTS {
                    return Err(gave_up(run, attempts));
                }
                attempts += 1;
                starting = Some(start_daemon(run)?);
                None
            }
        };
        if let Some(status) = exited {
            starting = None;
            if status.code() == Some(i32::from(run_dir::EXIT_ANOTHER_DAEMON)) {
                another_starting = true;
            } else {
                tracing::warn!(%status, attempt = attempts, "the daemon this bridge started exited");
                tokio::time::sleep(RETRY_PAUSE * 2u32.pow(attempts - 1)).await;
                continue;
            }
        }
        if began.elapsed() > CONNECT_WAIT {
            anyhow::bail!(
                "no roslyn-mcp daemon answered on {} within {CONNECT_WAIT:?}; see {}",
                socket.display(),
                run.join(DAEMON_LOG).display()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The one error a bridge ends with when every daemon it started exited: with the log's last line.
fn gave_up(run: &Path, attempts: u32) -> anyhow::Error {
    let log = run.join(DAEMON_LOG);
    let last = std::fs::read_to_string(&log)
        .ok()
        .and_then(|text| text.lines().rev().find(|l| !l.trim().is_empty()).map(str::to_owned))
        .map(|line| format!("; its last words: {line}"))
        .unwrap_or_default();
    anyhow::anyhow!("the roslyn-mcp daemon exited at start {attempts} times; giving up (log: {}){last}", log.display())
}

async fn connect(socket: &Path) -> std::io::Result<LocalSocketStream> {
    LocalSocketStream::connect(socket.to_fs_name::<GenericFilePath>()?).await
}

/// `roslyn-mcp serve` with this bridge's settings, in its own process group so the client's signals
/// (and the bridge's exit) leave it running.
fn start_daemon(run: &Path) -> anyhow::Result<Child> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::process::CommandExt;
    let log = std::fs::OpenOptions::new().create(true).append(true).mode(0o600).open(run.join(DAEMON_LOG))?;
    let settings: Vec<std::ffi::OsString> = std::env::args_os().skip(2).filter(|a| a != "--embedded").collect();
    let mut command = std::process::Command::new(std::env::current_exe()?);
    command.arg("serve").arg("--started-by-bridge").args(&settings);
    if !settings.iter().any(|a| a.to_string_lossy().starts_with("--exit-when-idle-secs"))
        && std::env::var_os("ROSLYN_MCP_EXIT_WHEN_IDLE_SECS").is_none()
    {
        command.args(["--exit-when-idle-secs", AUTOSTART_IDLE_EXIT_SECS]);
    }
    // The client's other descriptors (pipes, locks) must not stay open for as long as the daemon runs.
    #[allow(unsafe_code)]
    // SAFETY: runs between fork and exec; close_range is async-signal-safe and only closes descriptors
    // above standard input, output and error.
    unsafe {
        command.pre_exec(|| {
            libc::close_range(3, libc::c_uint::MAX, 0);
            Ok(())
        });
    }
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn()
        .context("starting the roslyn-mcp daemon")?;
    tracing::info!(pid = child.id(), "started a roslyn-mcp daemon");
    Ok(child)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preamble_is_told_apart_from_mcp() {
        let line = Preamble { cwd: PathBuf::from("/work/app") }.line().expect("line");
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(Preamble::parse(&line), Some(Preamble { cwd: PathBuf::from("/work/app") }));
        let initialize = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
        assert_eq!(Preamble::parse(initialize), None);
    }
}
