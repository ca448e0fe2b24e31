//! What the service started outside its own process ends with it, however it ends (`kill -9` included): a
//! test run's process group (`dotnet test`, the runner, its test hosts), the compiler server its builds
//! share with that server's pipe, and the Roslyn hosts' load-rehearsal folders.
//!
//! The guardian is this binary run as `roslyn-mcp guard`, in a process group of its own (a terminal's
//! Ctrl-C does not reach it). The service holds the only write end of its standard input and writes there
//! the groups it starts and ends; the kernel closes that end when the service's process ends, whatever the
//! way, and the guardian then kills what is left and exits. What a guardian itself killed left behind is
//! swept when the next service starts ([`sweep`]).

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
/// How long the guardian goes on removing the service's rehearsal folders while its hosts exit.
const HOSTS_GONE: Duration = Duration::from_secs(10);

/// The service's side: the guardian's process and the write end of its input. One per service process,
/// since it watches that process's end.
struct Guardian {
    input: Mutex<ChildStdin>,
    _process: Child,
}

static GUARDIAN: OnceLock<Guardian> = OnceLock::new();

/// Starts this service's guardian, which also ends the compiler server on `pipe`, after sweeping what killed
/// services left. A guardian that cannot start is logged: the service runs without that promise.
pub fn start(pipe: &str) {
    sweep();
    let started = std::env::current_exe().and_then(|exe| {
        roslyn_host::withhold_token(&mut Command::new(exe))
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

/// `roslyn-mcp guard`: reads the groups to watch until the service's end closes its input, then kills
/// them and the compiler server on `pipe`, and removes the pipe and the service's rehearsal folders.
pub fn run(pipe: &str) {
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
    while remove_rehearsals(|pid| Some(pid) == service) > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// At a service's start: what a service (or guardian) that was killed left behind, of this user and of
/// services gone: compiler servers, their pipes, rehearsal folders.
fn sweep() {
    let gone = |pid: u32| !alive(pid);
    kill_compiler_servers(|name| owner_pid(name).is_some_and(gone));
    remove_pipes(|name| owner_pid(name).is_some_and(gone));
    remove_rehearsals(gone);
}

/// The pid a name of ours carries after its prefix: `roslyn-mcp-<pid>-...`.
fn owner_pid(name: &str) -> Option<u32> {
    name.strip_prefix(PIPE_PREFIX)?.split('-').next()?.parse().ok()
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

/// Whether the process runs: a process ended but not yet reaped by its parent (a killed service adopted by
/// an init that reaps late) is gone.
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')))
}

/// Removes this user's rehearsal folders of the services `ours` accepts (by pid); how many are left.
fn remove_rehearsals(ours: impl Fn(u32) -> bool) -> usize {
    let mut left = 0;
    for (path, name) in entries(&std::env::temp_dir(), REHEARSAL_PREFIX) {
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
    fn names_carry_the_pid_of_who_made_them() {
        assert_eq!(owner_pid("roslyn-mcp-4242-0123456789ab"), Some(4242));
        assert_eq!(owner_pid("roslyn-mcp-rehearsal-77-x"), None, "a rehearsal folder is no pipe");
        assert_eq!(owner_pid("someone-else-4242"), None);
    }
}
