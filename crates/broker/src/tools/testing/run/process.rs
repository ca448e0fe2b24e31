//! One `dotnet` command of a test run, in its own process group: the build hosts, the runner and the test
//! processes it starts all go down together when the call's time runs out or the client cancels it.

use crate::progress::Progress;
use protocol::{ErrorCode, ToolError};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
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

/// A `dotnet` command of a test run ([`roslyn_host::dotnet_command`]), its output read in English for the
/// progress it shows.
pub fn dotnet(exe: &Path, working_dir: &Path) -> Command {
    let mut command = roslyn_host::dotnet_command(exe);
    command.current_dir(working_dir).stdout(Stdio::piped()).stderr(Stdio::null()).env("DOTNET_CLI_UI_LANGUAGE", "en");
    command
}

/// Runs `command` until it exits, `deadline` passes or `cancel` fires; each line it prints goes to `line`.
pub async fn run(
    mut command: Command,
    deadline: Instant,
    cancel: &CancellationToken,
    progress: &Progress,
    mut line: impl FnMut(&str) -> Option<String>,
) -> Result<Ended, ToolError> {
    let mut child = command
        .spawn()
        .map_err(|e| ToolError::new(ErrorCode::SDK_NOT_FOUND, format!("starting dotnet failed: {e}")))?;
    let group = child.id();
    let _group = KillGroupOnDrop(group);
    let mut lines = child.stdout.take().map(|out| BufReader::new(out).lines());
    let ended = loop {
        tokio::select! {
            next = async { lines.as_mut()?.next_line().await.ok().flatten() }, if lines.is_some() => match next {
                Some(text) => if let Some(message) = line(&text) {
                    progress.step(message).await;
                },
                None => lines = None,
            },
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
    Ok(ended)
}

/// Whatever the command left running (a test process it started, a build node) ends with the call, even
/// when the call itself is dropped mid-way.
struct KillGroupOnDrop(Option<u32>);

impl Drop for KillGroupOnDrop {
    fn drop(&mut self) {
        if let Some(group) = self.0 {
            roslyn_host::kill_group(group);
        }
    }
}
