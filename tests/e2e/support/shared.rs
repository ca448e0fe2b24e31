//! The daemon the tests that only read share: one per test process, started at the first such test, with
//! one copy of each fixture they read, loaded once (by whichever test asks first) and answered to every
//! later test from the same load. Each test has a session of its own over a `roslyn-mcp stdio` bridge, as
//! agents have. A test that writes keeps its own copy and its own service ([`super::Server`]).
//!
//! The daemon and its copies live under `target/tmp/e2e-shared-<pid>/` (an earlier run's folders are removed
//! at the first use); the daemon gets SIGTERM when the test process ends, however it ends.

use super::daemon::{bridge_client, env_of};
use super::{Client, Fixture, restored};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

/// The shared daemon of this test process.
struct SharedDaemon {
    folder: PathBuf,
}

static DAEMON: LazyLock<SharedDaemon> = LazyLock::new(SharedDaemon::start);

/// The shared copy of each fixture, made at its first use.
static COPIES: Mutex<BTreeMap<String, &'static Fixture>> = Mutex::new(BTreeMap::new());

/// A session of its own on the shared daemon, and the shared copy of `fixture` (restored as [`Fixture::copy`]
/// makes one). The test must not change the copy: it answers every other reading test.
pub async fn session(fixture: &str) -> (&'static Fixture, Client) {
    super::timing::touch();
    let daemon = &*DAEMON;
    let copy = shared_copy(daemon, fixture);
    (copy, daemon.bridge(&copy.root).await)
}

/// The shared daemon's log, which every shared session's failure names.
pub fn log() -> PathBuf {
    DAEMON.log()
}

fn shared_copy(daemon: &SharedDaemon, name: &str) -> &'static Fixture {
    let mut copies = COPIES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    copies.entry(name.to_owned()).or_insert_with(|| {
        let fixture = Fixture::at(daemon.folder.join("fixtures").join(name));
        super::copy_tree(&Fixture::source(name), &fixture.root);
        if let Some(output) = restored::of_fixture(name) {
            output.write_into(&fixture.root);
        }
        Box::leak(Box::new(fixture))
    })
}

impl SharedDaemon {
    fn start() -> Self {
        let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
        remove_ended_runs(target);
        let folder = target.join(format!("e2e-shared-{}", std::process::id()));
        let state = folder.join("state");
        std::fs::create_dir_all(&state).expect("shared daemon folder");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).expect("private state folder");
        let daemon = Self { folder };
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"));
        let log = std::fs::File::create(daemon.log()).expect("shared daemon log");
        command.arg("serve").envs(daemon.env()).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
        command.stderr(log);
        // Every fixture stays loaded for the whole run (tests of one fixture may be far apart).
        command.env("ROSLYN_MCP_MAX_SOLUTIONS", "64").env("ROSLYN_MCP_IDLE_TIMEOUT_SECS", "7200");
        let pid = super::until_exit(command, "shared daemon");
        let published = daemon.state().join("run/daemon.json");
        let ready = std::iter::repeat_with(|| std::thread::sleep(Duration::from_millis(50)))
            .take(600)
            .any(|()| published.exists());
        assert!(ready, "the shared daemon {pid} did not start; log: {}", daemon.log().display());
        daemon
    }

    fn state(&self) -> PathBuf {
        self.folder.join("state")
    }

    fn log(&self) -> PathBuf {
        self.folder.join("daemon.log")
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        env_of(&self.state())
    }

    /// A session of its own: a `roslyn-mcp stdio` bridge to the shared daemon, started in `cwd`.
    async fn bridge(&self, cwd: &Path) -> Client {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"));
        command.arg("stdio").current_dir(cwd).envs(self.env());
        bridge_client((), command, self.log()).await
    }
}

/// Removes the folders of earlier runs whose test process has ended.
fn remove_ended_runs(target: &Path) {
    let Ok(entries) = std::fs::read_dir(target) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix("e2e-shared-")).and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| !super::alive(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
