//! Where bridges and the daemon meet: the run folder, with the lock that makes one daemon the only one for
//! its state folder, the local socket bridges connect to, and `daemon.json`, which says where it listens
//! once every listener is bound; and the preamble line a bridge sends first on that socket.

use anyhow::Context;
use paths::create_private_dir;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::path::{Path, PathBuf};

const LOCK: &str = "daemon.lock";
const SOCKET: &str = "daemon.sock";
const INFO: &str = "daemon.json";

/// What a running daemon publishes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DaemonInfo {
    pub pid: u32,
    /// The HTTP address actually bound (`127.0.0.1:7717`); none when it could not be bound (a daemon a
    /// bridge started serves the socket regardless).
    pub http: Option<String>,
    pub socket: PathBuf,
    pub version: String,
}

/// Another daemon holds the run folder's lock: it serves (or is starting to serve) this state folder.
#[derive(Debug)]
pub struct AnotherDaemon(String);

impl std::fmt::Display for AnotherDaemon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AnotherDaemon {}

/// The exit status of a daemon that found another one holding the lock: a bridge that started it then
/// waits for the winner rather than starting again.
pub const EXIT_ANOTHER_DAEMON: u8 = 75;

/// The run folder, locked by this process until dropped (the kernel releases it if the process dies).
pub struct RunDir {
    dir: PathBuf,
    _lock: File,
}

impl RunDir {
    /// Takes the single-instance lock, or says which daemon holds it.
    pub fn lock(dir: &Path) -> anyhow::Result<Self> {
        ensure_private(dir)?;
        let lock = File::create(dir.join(LOCK)).with_context(|| format!("opening {}", dir.join(LOCK).display()))?;
        if lock.try_lock().is_err() {
            let holder = read_info(dir)
                .map(|info| format!(" (pid {}, http {})", info.pid, info.http.as_deref().unwrap_or("not served")));
            let message = format!("another roslyn-mcp daemon serves {}{}", dir.display(), holder.unwrap_or_default());
            return Err(AnotherDaemon(message).into());
        }
        Ok(Self { dir: dir.to_path_buf(), _lock: lock })
    }

    /// The socket's path. A file left there by a daemon that died is removed: holding the lock proves
    /// nobody serves it.
    pub fn fresh_socket(&self) -> anyhow::Result<PathBuf> {
        let socket = socket_path(&self.dir);
        match std::fs::remove_file(&socket) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("removing the stale socket {}", socket.display()));
            }
            _ => {}
        }
        Ok(socket)
    }

    /// Announces the daemon: written whole (a temporary renamed into place), so a reader never sees half.
    pub fn publish(&self, info: &DaemonInfo) -> anyhow::Result<()> {
        let temporary = self.dir.join(format!(".{INFO}.{}", std::process::id()));
        std::fs::write(&temporary, serde_json::to_vec_pretty(info)?)?;
        std::fs::rename(&temporary, self.dir.join(INFO))?;
        Ok(())
    }

    /// Withdraws the announcement and the socket, so bridges no longer try this daemon.
    pub fn withdraw(&self) {
        for name in [INFO, SOCKET] {
            let _ = std::fs::remove_file(self.dir.join(name));
        }
    }
}

/// Creates or checks the run folder and the state folder holding it: both must be private (see
/// `create_private_dir`), since whoever controls them controls the socket bridges connect to and the
/// journals writes are undone from.
pub fn ensure_private(dir: &Path) -> anyhow::Result<()> {
    for folder in dir.parent().into_iter().chain([dir]) {
        create_private_dir(folder).context("the state folder cannot be used")?;
    }
    Ok(())
}

/// Where the daemon of a run folder listens for bridges.
pub fn socket_path(dir: &Path) -> PathBuf {
    dir.join(SOCKET)
}

/// What the daemon of a run folder published, if it did.
pub fn read_info(dir: &Path) -> Option<DaemonInfo> {
    serde_json::from_slice(&std::fs::read(dir.join(INFO)).ok()?).ok()
}

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
    pub fn line(self) -> anyhow::Result<Vec<u8>> {
        let mut line = serde_json::to_vec(&PreambleLine { roslyn_mcp_bridge: self })?;
        line.push(b'\n');
        Ok(line)
    }

    /// The preamble in a connection's first line, if it is one (else the line is MCP).
    pub fn parse(line: &[u8]) -> Option<Self> {
        serde_json::from_slice::<PreambleLine>(line).ok().map(|l| l.roslyn_mcp_bridge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_daemon_is_refused_until_the_first_is_gone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let run = dir.path().join("run");
        let first = RunDir::lock(&run).expect("first daemon");
        let info =
            DaemonInfo { pid: 42, http: Some("127.0.0.1:1".into()), socket: socket_path(&run), version: "0".into() };
        first.publish(&info).expect("publish");
        let refused = RunDir::lock(&run).err().expect("second daemon refused").to_string();
        assert!(refused.contains("pid 42"), "{refused}");
        first.withdraw();
        assert!(read_info(&run).is_none());
        drop(first);
        RunDir::lock(&run).expect("the lock is free again");
    }
}
