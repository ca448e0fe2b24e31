//! What the service started outside its own process ends with it, however it ends (`kill -9` included): a
//! test run's process group (`dotnet test`, the runner, its test hosts), the compiler server its builds
//! share with that server's pipe, and the Roslyn hosts' load-rehearsal folders.
//!
//! The guardian is this binary run as `roslyn-mcp guard`, in a process group of its own (a terminal's
//! Ctrl-C does not reach it). The service holds the only write end of its standard input and writes there
//! the groups it starts and ends; the kernel closes that end when the service's process ends, whatever the
//! way, and the guardian then kills what is left and exits. As it starts, a guardian sweeps what killed
//! services (and guardians) left behind, off its service's start-up: a service and its guardian killed
//! together leave a test run going, whose every process carries its service's pid ([`SERVICE_PID`]).

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How the compiler server's pipe and the rehearsal folders are named: `<prefix><service pid>-...`.
pub const PIPE_PREFIX: &str = "roslyn-mcp-";
const REHEARSAL_PREFIX: &str = "roslyn-mcp-rehearsal-";
/// Where the compiler server binds its pipe on Unix, whatever `TMPDIR` says: `/tmp/<pipe name>`.
const PIPE_FOLDER: &str = "/tmp";
/// The variable every process of a test run or a generator's build inherits: the pid of the service that
/// started it, which the next guardian's sweep reads to end the processes of a service gone.
pub const SERVICE_PID: &str = "ROSLYN_MCP_SERVICE_PID";
/// How long the guardian goes on removing the service's rehearsal folders while its hosts exit.
const HOSTS_GONE: Duration = Duration::from_secs(10);

/// The service's side: the guardian's process and the write end of its input. One per service process,
/// since it watches that process's end.
struct Guardian {
    input: Mutex<ChildStdin>,
    _process: Child,
}

static GUARDIAN: OnceLock<Guardian> = OnceLock::new();

/// Starts this service's guardian, which also ends the compiler server on `pipe`. A guardian that cannot start
/// is logged: the service runs without that promise.
pub fn start(pipe: &str) {
    let started = std::env::current_exe().and_then(|exe| {
        Command::new(exe)
            .args(["guard", "--pipe", pipe])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .current_dir("/")
            .process_group(0)
            .spawn()
    });
    match started {
        Ok(mut process) => {
            if let Some(input) = process.stdin.take() {
                let _ = GUARDIAN.set(Guardian { input: Mutex::new(input), _process: process });
            }
        }
        Err(error) => tracing::warn!(%error, "the guardian did not start: test runs may outlive a killed service"),
    }
}

/// The process group `group` leads is to be killed if the service ends before [`ended`] is said of it.
pub fn watch(group: u32) {
    say(&format!("+{group}"));
}

/// The group has been killed or has ended: the guardian forgets it.
pub fn ended(group: u32) {
    say(&format!("-{group}"));
}

fn say(line: &str) {
    let Some(guardian) = GUARDIAN.get() else { return };
    let mut input = guardian.input.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // A few bytes to a pipe the guardian drains: never blocks in practice. A guardian gone is logged; the
    // service goes on.
    if let Err(error) = writeln!(input, "{line}") {
        tracing::warn!(%error, "the guardian is gone");
    }
}

/// `roslyn-mcp guard`: sweeps what killed services left, reads the groups to watch until its service's end
/// closes its input, then kills them and the compiler server on `pipe`, and removes the pipe and the
/// service's rehearsal folders.
pub fn run(pipe: &str) {
    sweep();
    let mut groups = BTreeSet::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match (line.get(..1), line.get(1..).and_then(|n| n.parse::<u32>().ok())) {
            (Some("+"), Some(group)) => groups.insert(group),
            (Some("-"), Some(group)) => groups.remove(&group),
            _ => false,
        };
    }
    groups.into_iter().for_each(roslyn_host::kill_group);
    kill_compiler_servers(|name| name == pipe);
    remove_pipes(|name| name == pipe);
    // The hosts exit once their connection to the service is gone; one still writing in its folder may
    // leave something the first removal misses.
    let service = owner_pid(pipe);
    let until = Instant::now() + HOSTS_GONE;
    while remove_rehearsals(&std::env::temp_dir(), |pid| Some(pid) == service) > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// What a service (or guardian) that was killed left behind, of this user and of services gone: test runs and
/// builds, compiler servers, their pipes, rehearsal folders.
fn sweep() {
    let gone = |pid: u32| !roslyn_host::running(pid);
    kill_orphans(gone);
    kill_compiler_servers(|name| owner_pid(name).is_some_and(gone));
    remove_pipes(|name| owner_pid(name).is_some_and(gone));
    remove_rehearsals(&std::env::temp_dir(), gone);
}

/// The pid a name of ours carries after its prefix: `roslyn-mcp-<pid>-...`.
fn owner_pid(name: &str) -> Option<u32> {
    name.strip_prefix(PIPE_PREFIX)?.split('-').next()?.parse().ok()
}

/// Kills this user's processes started for a service that `gone` says is gone ([`SERVICE_PID`]).
fn kill_orphans(gone: impl Fn(u32) -> bool) {
    let uid = own_uid();
    let marker = format!("{SERVICE_PID}=");
    for pid in roslyn_host::processes() {
        let Ok(environment) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
        let service = environment
            .split(|b| *b == 0)
            .find_map(|entry| std::str::from_utf8(entry.strip_prefix(marker.as_bytes())?).ok()?.parse::<u32>().ok());
        if service.is_some_and(&gone) && owned_by(Path::new(&format!("/proc/{pid}")), uid) {
            roslyn_host::kill_process(pid);
        }
    }
}

/// Kills this user's compiler servers whose pipe name `ours` accepts.
fn kill_compiler_servers(ours: impl Fn(&str) -> bool) {
    let uid = own_uid();
    for pid in roslyn_host::processes() {
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else { continue };
        let server = cmdline
            .split(|b| *b == 0)
            .filter_map(|arg| arg.strip_prefix(b"-pipename:"))
            .any(|name| std::str::from_utf8(name).is_ok_and(|name| name.starts_with(PIPE_PREFIX) && ours(name)));
        if server && owned_by(Path::new(&format!("/proc/{pid}")), uid) {
            roslyn_host::kill_process(pid);
        }
    }
}

/// Removes this user's compiler server sockets whose pipe name `ours` accepts: a killed server never
/// removes its own.
fn remove_pipes(ours: impl Fn(&str) -> bool) {
    use std::os::unix::fs::FileTypeExt;
    for (path, name) in entries(Path::new(PIPE_FOLDER), PIPE_PREFIX) {
        let socket = path.symlink_metadata().is_ok_and(|meta| meta.file_type().is_socket());
        if socket && ours(&format!("{PIPE_PREFIX}{name}")) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Removes this user's rehearsal folders in `folder` (the temporary one) of the services `ours` accepts (by
/// pid); how many are left.
fn remove_rehearsals(folder: &Path, ours: impl Fn(u32) -> bool) -> usize {
    let mut left = 0;
    for (path, name) in entries(folder, REHEARSAL_PREFIX) {
        if name.split('-').next().and_then(|pid| pid.parse::<u32>().ok()).is_some_and(&ours) {
            left += usize::from(std::fs::remove_dir_all(&path).is_err());
        }
    }
    left
}

/// This user's entries of `folder` named `<prefix><rest>`, not links: (path, rest).
fn entries(folder: &Path, prefix: &str) -> Vec<(PathBuf, String)> {
    let uid = own_uid();
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let rest = entry.file_name().to_str()?.strip_prefix(prefix)?.to_owned();
            let path = entry.path();
            (owned_by(&path, uid) && !entry.file_type().ok()?.is_symlink()).then_some((path, rest))
        })
        .collect()
}

/// This process's user, as `/proc` shows the owner of what it runs.
fn own_uid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map_or(u32::MAX, |meta| meta.uid())
}

fn owned_by(path: &Path, uid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    path.symlink_metadata().is_ok_and(|meta| meta.uid() == uid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_rehearsal_folders_of_services_gone_are_swept() {
        let temp = tempfile::tempdir().expect("temp dir");
        // A process that ended and was reaped: its pid names no running service.
        let mut ended = Command::new("true").spawn().expect("a process");
        let gone = ended.id();
        ended.wait().expect("reaped");
        let ours = std::process::id();
        for name in [format!("roslyn-mcp-rehearsal-{gone}-a"), format!("roslyn-mcp-rehearsal-{ours}-b"), "other".into()]
        {
            std::fs::create_dir_all(temp.path().join(name).join("obj")).expect("a folder");
        }
        assert_eq!(remove_rehearsals(temp.path(), |pid| !roslyn_host::running(pid)), 0);
        let mut left: Vec<String> = std::fs::read_dir(temp.path())
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into())
            .collect();
        left.sort();
        assert_eq!(left, ["other".to_owned(), format!("roslyn-mcp-rehearsal-{ours}-b")]);
    }

    #[test]
    fn a_process_started_for_a_service_gone_is_killed_and_one_of_a_live_service_is_not() {
        let mut ended = Command::new("true").spawn().expect("a process");
        let gone = ended.id();
        ended.wait().expect("reaped");
        let start = |service: u32| {
            Command::new("sleep").arg("60").env(SERVICE_PID, service.to_string()).spawn().expect("sleep")
        };
        let (mut orphan, mut kept) = (start(gone), start(std::process::id()));
        // The kernel writes a new program's environment just after its parent resumes from the spawn.
        let marked = |pid: u32| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|environment| environment.windows(SERVICE_PID.len()).any(|w| w == SERVICE_PID.as_bytes()))
        };
        let until = Instant::now() + Duration::from_secs(30);
        while !(marked(orphan.id()) && marked(kept.id())) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        kill_orphans(|pid| pid == gone);
        assert!(orphan.wait().expect("reaped").code().is_none(), "killed by a signal");
        assert!(kept.try_wait().expect("state").is_none(), "a live service's process runs on");
        kept.kill().expect("kill");
        kept.wait().expect("reaped");
    }

    #[test]
    fn names_carry_the_pid_of_who_made_them() {
        assert_eq!(owner_pid("roslyn-mcp-4242-0123456789ab"), Some(4242));
        assert_eq!(owner_pid("roslyn-mcp-rehearsal-77-x"), None, "a rehearsal folder is no pipe");
        assert_eq!(owner_pid("someone-else-4242"), None);
    }
}
