//! `roslyn-mcp stdio`: relays one MCP session between standard input/output and the daemon's local
//! socket, byte for byte. When no daemon answers it starts one (`roslyn-mcp serve` with the same settings,
//! detached, logging to `daemon.log` in the run folder); when several bridges race to do so, the
//! single-instance lock lets one daemon win and the others exit, and every bridge connects to the winner.

use crate::config::StdioArgs;
use crate::daemon::run_dir;
use anyhow::Context;
use interprocess::local_socket::GenericFilePath;
use interprocess::local_socket::tokio::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::time::Instant;

/// How long a bridge waits for a daemon to answer, starting one if needed.
const CONNECT_WAIT: Duration = Duration::from_secs(30);
/// A daemon a bridge starts exits after this long with no session and no solution.
const AUTOSTART_IDLE_EXIT_SECS: &str = "900";

/// The line a bridge sends before any MCP message: the client's working directory.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct Preamble {
    pub cwd: PathBuf,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PreambleLine {
    roslyn_mcp_bridge: Preamble,
}

impl Preamble {
    fn line(self) -> anyhow::Result<Vec<u8>> {
        let mut line = serde_json::to_vec(&PreambleLine { roslyn_mcp_bridge: self })?;
        line.push(b'\n');
        Ok(line)
    }

    /// The preamble in a connection's first line, if it is one (else the line is MCP).
    pub fn parse(line: &[u8]) -> Option<Self> {
        serde_json::from_slice::<PreambleLine>(line).ok().map(|l| l.roslyn_mcp_bridge)
    }
}

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

/// Connects to the daemon of `run`, starting one when none answers.
async fn connect_or_start(run: &Path) -> anyhow::Result<LocalSocketStream> {
    let socket = run_dir::socket_path(run);
    let began = Instant::now();
    let mut started: Option<Child> = None;
    loop {
        if let Ok(stream) = connect(&socket).await {
            return Ok(stream);
        }
        // Start a daemon unless ours is still starting; one that lost the race to another exits at once.
        let ours_running = started.as_mut().is_some_and(|child| matches!(child.try_wait(), Ok(None)));
        if !ours_running {
            started = Some(start_daemon(run)?);
        }
        if began.elapsed() > CONNECT_WAIT {
            anyhow::bail!(
                "no roslyn-mcp daemon answered on {} within {CONNECT_WAIT:?}; see {}",
                socket.display(),
                run.join("daemon.log").display()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn connect(socket: &Path) -> std::io::Result<LocalSocketStream> {
    LocalSocketStream::connect(socket.to_fs_name::<GenericFilePath>()?).await
}

/// `roslyn-mcp serve` with this bridge's settings, in its own process group so the client's signals
/// (and the bridge's exit) leave it running.
fn start_daemon(run: &Path) -> anyhow::Result<Child> {
    use std::os::unix::process::CommandExt;
    std::fs::create_dir_all(run).with_context(|| format!("creating {}", run.display()))?;
    let log = std::fs::OpenOptions::new().create(true).append(true).open(run.join("daemon.log"))?;
    let settings: Vec<std::ffi::OsString> = std::env::args_os().skip(2).filter(|a| a != "--embedded").collect();
    let mut command = std::process::Command::new(std::env::current_exe()?);
    command.arg("serve").args(&settings);
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
