//! The workspace actor: owns the host process of one solution, starts it on demand, restarts it after a
//! crash with bounded, backed-off retries, and stops it when the workspace is evicted.
//! Requests do not pass through the mailbox: callers `Acquire` the live host and talk to it directly,
//! so reads run concurrently.

use crate::activity::Activity;
use crate::own_writes::OwnWrites;
use crate::settings::WorkspaceSettings;
use crate::status::StatusCell;
use crate::warm_up::{self, WarmGate};
use crate::watcher::{self, FolderWatcher};
use arc_swap::ArcSwapOption;
use kameo::prelude::*;
use protocol::host::{LoadRequest, RequestBody, ResponseBody};
use protocol::tools::diagnose::WorkspaceState;
use protocol::{ErrorCode, ToolError};
use roslyn_host::{HostFailure, HostInstall, HostProcess};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Grace given to a host asked to exit before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// The next spare host starts once calls have paused this long after a load's warm-up (an agent's calls
/// come in bursts, and the first ones follow the load) ...
const SPARE_AFTER_PAUSE: Duration = Duration::from_secs(1);
/// ... or this long after it whatever the calls do, so that a solution busy without pause still gets one.
const SPARE_AT_MOST: Duration = Duration::from_secs(30);

pub struct WorkspaceActor {
    solution: PathBuf,
    install: Result<HostInstall, ToolError>,
    settings: WorkspaceSettings,
    status: Arc<StatusCell>,
    /// The ready host, shared with the file-change forwarder.
    ready: Arc<ArcSwapOption<HostProcess>>,
    failures_in_row: u32,
    last_attempt: Option<Instant>,
    started_once: bool,
    /// Closed while the host compiles its projects after a load.
    warm_gate: WarmGate,
    /// The workspace's calls under way, which the next spare host waits to pause.
    activity: Activity,
    /// Forwards file changes to the ready host until the actor stops.
    _watcher: Option<FolderWatcher>,
}

pub struct WorkspaceArgs {
    pub solution: PathBuf,
    pub install: Result<HostInstall, ToolError>,
    pub settings: WorkspaceSettings,
    pub status: Arc<StatusCell>,
    pub ready: Arc<ArcSwapOption<HostProcess>>,
    pub own_writes: OwnWrites,
    pub warm_gate: WarmGate,
    pub activity: Activity,
}

impl Actor for WorkspaceActor {
    type Args = WorkspaceArgs;
    type Error = std::convert::Infallible;

    /// Watches the folder first (a recursive watch of a large tree takes a while): requests for this solution
    /// wait in the mailbox meanwhile, and no other solution's do.
    async fn on_start(args: Self::Args, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        let watcher = watcher::start(&args.solution, &args.settings, &args.ready, &args.status, &args.own_writes).await;
        Ok(Self {
            solution: args.solution,
            install: args.install,
            settings: args.settings,
            status: args.status,
            ready: args.ready,
            failures_in_row: 0,
            last_attempt: None,
            started_once: false,
            warm_gate: args.warm_gate,
            activity: args.activity,
            _watcher: watcher,
        })
    }

    async fn on_stop(&mut self, _: WeakActorRef<Self>, _: ActorStopReason) -> Result<(), Self::Error> {
        if let Some(host) = self.ready.swap(None) {
            host.stop(STOP_GRACE).await;
        }
        Ok(())
    }
}

/// Returns the live host, starting or restarting it (and loading the solution) first when needed.
pub struct Acquire;

impl Message<Acquire> for WorkspaceActor {
    type Reply = Result<Arc<HostProcess>, ToolError>;

    async fn handle(&mut self, _: Acquire, _: &mut Context<Self, Self::Reply>) -> Self::Reply {
        if let Some(host) = self.ready.load_full() {
            if !host.connection().is_closed() {
                return Ok(host);
            }
            retire_crashed(&self.ready, &self.status, &host);
            tracing::warn!(solution = %self.solution.display(), pid = host.pid(), "Roslyn host died; restarting");
        }
        self.start().await
    }
}

impl WorkspaceActor {
    async fn start(&mut self) -> Result<Arc<HostProcess>, ToolError> {
        // A missing SDK or host is not a failed start: it is reported as is, with nothing to back off from.
        if let Err(error) = &self.install {
            return Err(error.clone());
        }
        if self.failures_in_row >= self.settings.max_restarts {
            let cooled = self.last_attempt.is_some_and(|t| t.elapsed() >= self.settings.give_up_for);
            if !cooled {
                return Err(ToolError::new(
                    ErrorCode::ROSLYN_ERROR,
                    format!("The Roslyn host failed {} times in a row; not retrying yet", self.failures_in_row),
                )
                .detail("solutionPath", self.solution.display().to_string())
                .detail("lastErrors", self.status.get().errors.clone())
                .suggest(format!(
                    "Retry in {} seconds, or fix the cause shown by diagnose",
                    self.settings.give_up_for.as_secs()
                )));
            }
            self.failures_in_row = 0;
        }
        if self.failures_in_row > 0 {
            tokio::time::sleep(self.settings.restart_backoff * 2u32.pow(self.failures_in_row - 1)).await;
        }
        let restarting = self.started_once;
        self.status.update(|s| {
            s.state = if restarting { WorkspaceState::Restarting } else { WorkspaceState::Loading };
            s.host_pid = None;
        });
        self.last_attempt = Some(Instant::now());
        let began = Instant::now();
        let result = self.start_and_load().await;
        let took = began.elapsed();
        self.settings.events.solution_loaded(&self.solution, took, result.is_ok());
        match result {
            Ok((host, version, summary)) => {
                self.failures_in_row = 0;
                self.started_once = true;
                self.status.loaded(&summary, version);
                self.status.update(|s| {
                    s.host_pid = Some(host.pid());
                    s.last_load_ms = Some(took.as_millis() as u64);
                });
                if restarting {
                    self.settings.events.host_restarted(&self.solution);
                }
                self.watch_for_crash(&host);
                crate::liveness::watch(&host, self.status.clone());
                warm_up::start(
                    &host,
                    &summary,
                    self.status.clone(),
                    self.warm_gate.clone(),
                    self.settings.load_timeout,
                );
                self.replenish_spare_after_warm_up();
                self.ready.store(Some(host.clone()));
                Ok(host)
            }
            Err(error) => {
                self.failures_in_row += 1;
                let message = error.to_string();
                self.status.update(|s| {
                    s.state = WorkspaceState::Error;
                    s.solution_loaded = false;
                    s.errors = vec![message.clone()];
                });
                Err(error)
            }
        }
    }

    async fn start_and_load(&self) -> Result<(Arc<HostProcess>, u64, protocol::host::WorkspaceSummary), ToolError> {
        let install = self.install.clone()?;
        let label = self.solution.display().to_string();
        let host = Arc::new(match &self.settings.spare {
            Some(spare) => spare.take(&label).await?,
            None => HostProcess::start(&install, &label, self.settings.load_timeout).await?,
        });
        let load = RequestBody::Load(LoadRequest { solution_path: label });
        let reply = host.connection().request(load, self.settings.load_timeout, &CancellationToken::new()).await;
        match reply {
            Ok(reply) => match reply.body {
                ResponseBody::Loaded(summary) => Ok((host, reply.workspace_version, summary)),
                other => Err(HostFailure::Handshake(format!("unexpected answer to Load: {other:?}")).into()),
            },
            Err(failure) => {
                host.stop(STOP_GRACE).await;
                Err(failure.into())
            }
        }
    }

    /// Starts the next spare host once this load's warm-up is over and calls have paused, so that its start
    /// takes neither the cores the warm-up is using nor those of the calls that follow it.
    fn replenish_spare_after_warm_up(&self) {
        if let Some(spare) = self.settings.spare.clone() {
            let (gate, activity) = (self.warm_gate.clone(), self.activity.clone());
            tokio::spawn(async move {
                gate.passed(&CancellationToken::new()).await;
                activity.paused(SPARE_AFTER_PAUSE, SPARE_AT_MOST).await;
                spare.replenish();
            });
        }
    }

    /// Marks the workspace as restarting, and counts the restart, as soon as its host goes away unasked, so
    /// diagnose shows it at once.
    fn watch_for_crash(&self, host: &Arc<HostProcess>) {
        let closed = host.connection().closed();
        let status = self.status.clone();
        let ready = self.ready.clone();
        let host = Arc::downgrade(host);
        tokio::spawn(async move {
            closed.cancelled().await;
            if let Some(host) = host.upgrade() {
                retire_crashed(&ready, &status, &host);
            }
        });
    }
}

/// Takes a host that went away unasked out of `ready` and counts the crash. The crash watcher and the next
/// call's `Acquire` race to notice it; only the one that takes it out counts, so a crash counts once either
/// way, and a host stopped on purpose (already out of `ready`) never does.
fn retire_crashed(ready: &ArcSwapOption<HostProcess>, status: &StatusCell, host: &Arc<HostProcess>) {
    let previous = ready.compare_and_swap(&Some(host.clone()), None);
    if previous.as_ref().is_some_and(|p| Arc::ptr_eq(p, host)) {
        status.update(|s| {
            s.state = WorkspaceState::Restarting;
            s.host_pid = None;
            s.host_restarts += 1;
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::{RequestError, Workspace, WorkspaceEvents, WorkspaceSettings};
    use protocol::host::{PingRequest, RequestBody};
    use roslyn_host::HostInstall;
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    use tokio_util::sync::CancellationToken;

    #[derive(Default)]
    struct Loads(Mutex<Vec<(PathBuf, bool)>>);

    impl WorkspaceEvents for Loads {
        fn solution_loaded(&self, solution: &Path, _: Duration, ok: bool) {
            self.0.lock().expect("loads").push((solution.to_path_buf(), ok));
        }
    }

    #[tokio::test]
    async fn a_failed_load_is_reported_to_the_observer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let solution = dir.path().join("App.sln");
        let loads = Arc::new(Loads::default());
        let settings =
            WorkspaceSettings { events: loads.clone(), load_timeout: Duration::from_secs(10), ..Default::default() };
        // A "dotnet" that exits at once: the host never answers its handshake.
        let install = HostInstall { dotnet: PathBuf::from("/bin/false"), host_dll: dir.path().join("Host.dll") };
        let workspace = Workspace::spawn(solution.clone(), Ok(install), settings);
        assert!(workspace.load().await.is_err());
        assert_eq!(*loads.0.lock().expect("loads"), vec![(solution, false)]);
        workspace.stop().await;
    }

    #[tokio::test]
    async fn a_request_to_a_stopped_workspace_comes_back_unsent_with_its_body() {
        let dir = tempfile::tempdir().expect("temp dir");
        let install = HostInstall { dotnet: PathBuf::from("/bin/false"), host_dll: dir.path().join("Host.dll") };
        let workspace = Workspace::spawn(dir.path().join("App.sln"), Ok(install), WorkspaceSettings::default());
        workspace.stop().await;
        let body = RequestBody::Ping(PingRequest { delay_ms: 7 });
        let sent = workspace.request_within(body.clone(), None, &CancellationToken::new()).await;
        let Err(RequestError::Unsent(returned, error)) = sent else { panic!("a stopped workspace sends nothing") };
        assert_eq!(*returned, body);
        assert_eq!(error.code, protocol::ErrorCode::WORKSPACE_NOT_LOADED);
    }
}
