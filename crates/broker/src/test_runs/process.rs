//! One `dotnet` command of a test run or a generator's build, in its own process group: the build hosts, the runner and the test
//! processes it starts all go down together when the call's time runs out or the client cancels it. A
//! Microsoft.Testing.Platform run also has a watchdog: its test process is stopped when no test has finished
//! for the hang limit or the session's time is over, and its runner then writes what ran.

use crate::progress::Progress;
use crate::test_runs::compiler;
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostInstall;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How a command ended.
#[derive(Debug)]
pub enum Ended {
    Exited(ExitStatus),
    /// The deadline came first; the whole group was killed.
    TimedOut,
    /// The caller cancelled; the whole group was killed.
    Cancelled,
}

/// When to stop a run's test process while leaving its runner to report.
pub struct Watchdog {
    pub session_end: Instant,
    /// How long without a test finishing counts as a hang.
    pub idle: Duration,
}

impl Watchdog {
    /// Whether to stop the group's test process now, the last sign of life being `alive`; if not, from when
    /// the hang limit counts. It counts from the test process's start, not the runner's: a runner slow to
    /// start on a busy machine is no hang.
    fn check(&self, group: u32, alive: Instant) -> Result<Instant, Stop> {
        let now = Instant::now();
        if now >= self.session_end {
            return Err(Stop::SessionOver);
        }
        let Some(age) = test_host_age(group) else {
            // Not started yet: the session's end is the limit.
            return Ok(now);
        };
        let since = now.checked_sub(age).unwrap_or(now).max(alive);
        if since + self.idle > now + CLOCKS_DIFFER { Ok(since) } else { Err(Stop::Hung) }
    }
}

/// Why the watchdog stopped the test process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Hung,
    SessionOver,
}

/// How far a process's start read from `/proc` (wall clock) may be from the monotonic clock's.
const CLOCKS_DIFFER: Duration = Duration::from_millis(100);

/// The option Microsoft.Testing.Platform gives the test process it starts beside its runner (the controller).
const TEST_HOST_MARK: &str = "--internal-testhostcontroller-pid";

/// A `dotnet` command of a test run ([`roslyn_host::dotnet_command`]), its output read in English for the
/// progress it shows, every process of it marked as this service's for the guardian.
pub fn dotnet(install: &HostInstall, working_dir: &Path) -> Command {
    let mut command = roslyn_host::dotnet_command(install);
    command
        .current_dir(working_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env("DOTNET_CLI_UI_LANGUAGE", "en")
        .env(crate::guardian::SERVICE_PID, std::process::id().to_string());
    command
}

/// `dotnet build` of `project` with the service's compiler server, its errors written to `log`: how a test run
/// builds in its copy, and how the service builds a generator project.
pub fn build(install: &HostInstall, project: &Path, restore: bool, log: &Path) -> Command {
    let mut command = dotnet(install, project.parent().unwrap_or(Path::new("/")));
    command.arg("build").arg(project).args(["-nologo", "-nodeReuse:false", "-v:q", "-clp:NoSummary"]);
    if !restore {
        command.arg("--no-restore");
    }
    command
        .args(compiler::build_properties())
        .arg(format!("-flp:LogFile={};Verbosity=quiet;ErrorsOnly", log.display()));
    command
}

/// Runs `command` until it exits, `deadline` passes or `cancel` fires; each line it prints goes to `line`,
/// whose message (a test finished) is progress and, for the `watchdog`, a sign of life.
pub async fn run(
    mut command: Command,
    deadline: Instant,
    cancel: &CancellationToken,
    progress: &Progress,
    watchdog: Option<Watchdog>,
    mut line: impl FnMut(&str) -> Option<String>,
) -> Result<(Ended, Option<Stop>), ToolError> {
    let mut child = command
        .spawn()
        .map_err(|e| ToolError::new(ErrorCode::SDK_NOT_FOUND, format!("starting dotnet failed: {e}")))?;
    let group = child.id();
    // Watched from here: a service killed meanwhile leaves nothing of the group running.
    group.into_iter().for_each(crate::guardian::watch);
    let _group = KillGroupOnDrop(group);
    let mut lines = child.stdout.take().map(|out| BufReader::new(out).lines());
    let (mut stopped, mut alive) = (None, Instant::now());
    let ended = loop {
        let watch = watchdog.as_ref().map(|w| (alive + w.idle).min(w.session_end));
        tokio::select! {
            next = async { lines.as_mut()?.next_line().await.ok().flatten() }, if lines.is_some() => match next {
                Some(text) => if let Some(message) = line(&text) {
                    alive = Instant::now();
                    progress.step(message).await;
                },
                None => lines = None,
            },
            () = async { tokio::time::sleep_until(watch.unwrap_or(deadline)).await }, if watch.is_some() && stopped.is_none() => {
                match (&watchdog, group) {
                    (Some(watchdog), Some(group)) => match crate::offload::cpu(|| watchdog.check(group, alive)) {
                        Ok(since) => alive = since,
                        Err(stop) => {
                            stopped = Some(stop);
                            crate::offload::cpu(|| stop_test_host(group));
                        }
                    },
                    // No group to watch (the process is already gone): its exit comes next.
                    _ => alive = Instant::now(),
                }
            }
            status = child.wait(), if lines.is_none() => {
                break Ended::Exited(status.map_err(|e| {
                    ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("waiting for dotnet failed: {e}"))
                })?);
            }
            () = tokio::time::sleep_until(deadline) => break Ended::TimedOut,
            () = cancel.cancelled() => break Ended::Cancelled,
        }
    };
    if let (false, Some(group)) = (matches!(ended, Ended::Exited(_)), group) {
        roslyn_host::kill_group(group);
        let _ = child.wait().await;
    }
    Ok((ended, stopped))
}

/// Kills the test process of the group's Microsoft.Testing.Platform run, whose runner then writes the results
/// it had; with no such process, the whole group.
fn stop_test_host(group: u32) {
    let hosts = test_hosts(group);
    if hosts.is_empty() {
        roslyn_host::kill_group(group);
    }
    hosts.into_iter().for_each(roslyn_host::kill_process);
}

/// How long ago the group's newest test process started (its `/proc` folder is made when it starts).
fn test_host_age(group: u32) -> Option<Duration> {
    let started = test_hosts(group)
        .into_iter()
        .filter_map(|pid| std::fs::metadata(format!("/proc/{pid}")).and_then(|m| m.modified()).ok())
        .max()?;
    Some(std::time::SystemTime::now().duration_since(started).unwrap_or_default())
}

/// The group's test processes: those the platform's runner started, marked by its option.
fn test_hosts(group: u32) -> Vec<u32> {
    roslyn_host::group_members(group)
        .into_iter()
        .filter(|pid| roslyn_host::has_argument(*pid, TEST_HOST_MARK))
        .collect()
}

/// Whatever the command left running (a test process it started, a build node) ends with the call, even
/// when the call itself is dropped mid-way; but the compiler server a build started stays for the next one
/// (killed with the rest only when the call's time ran out or it was cancelled).
struct KillGroupOnDrop(Option<u32>);

impl Drop for KillGroupOnDrop {
    fn drop(&mut self) {
        let Some(group) = self.0 else { return };
        // Every process's `/proc` entry read: off the async workers.
        crate::offload::cpu(|| kill_all_but_the_compiler_server(group));
        crate::guardian::ended(group);
    }
}

/// One by one to spare the server; again while a process another one started before its end is left.
fn kill_all_but_the_compiler_server(group: u32) {
    for _ in 0..3 {
        let members = roslyn_host::group_members(group);
        if !members.iter().any(|pid| compiler::is_server(*pid)) {
            return roslyn_host::kill_group(group);
        }
        let others: Vec<u32> = members.into_iter().filter(|pid| !compiler::is_server(*pid)).collect();
        if others.is_empty() {
            return;
        }
        others.into_iter().for_each(roslyn_host::kill_process);
    }
}
