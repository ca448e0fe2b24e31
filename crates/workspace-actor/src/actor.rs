//! The workspace actor: one per solution, supervised by the broker's `Supervisor`, and itself the supervisor
//! of its host process. Its handlers only decide: the slow work of a start (the back-off pause, the process,
//! the load, then the warm-up) runs as a task it owns, cancelled when the workspace stops, and what it comes to
//! is published as a [`Phase`] that calls wait on. Requests never pass through the mailbox: callers take the
//! ready host and talk to it directly, so reads run concurrently.

use crate::activity::Activity;
use crate::own_writes::OwnWrites;
use crate::phase::Phase;
use crate::restarts::Restarts;
use crate::settings::WorkspaceSettings;
use crate::status::StatusCell;
use crate::warm_up::{self, WarmGate};
use crate::watcher::{self, FolderWatcher};
use arc_swap::ArcSwapOption;
use kameo::prelude::*;
use protocol::host::ask;
use protocol::host::{LoadRequest, WorkspaceSummary};
use protocol::tools::diagnose::WorkspaceState;
use protocol::{ErrorCode, ToolError};
use roslyn_host::{HostInstall, HostProcess};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio::task::JoinHandle;
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
    /// The ready host, shared with the file-change forwarder and the callers.
    ready: Arc<ArcSwapOption<HostProcess>>,
    phase: Arc<watch::Sender<Phase>>,
    /// Cancelled when the workspace begins to stop: ends the start and the warm-up under way.
    stopping: CancellationToken,
    restarts: Restarts,
    round: u64,
    /// A host has loaded the solution before: the next start is a restart.
    started_once: bool,
    /// The start under way.
    starting: Option<JoinHandle<()>>,
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
    pub phase: Arc<watch::Sender<Phase>>,
    pub stopping: CancellationToken,
    pub own_writes: OwnWrites,
    pub warm_gate: WarmGate,
    pub activity: Activity,
}

impl Actor for WorkspaceActor {
    type Args = WorkspaceArgs;
    type Error = std::convert::Infallible;

    /// Watches the folder first (a recursive watch of a large tree takes a while), so that no change made
    /// during the first load is missed: a demand for the host waits in the mailbox meanwhile, and no other
    /// solution's does.
    async fn on_start(args: Self::Args, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        let watcher = watcher::start(&args.solution, &args.settings, &args.ready, &args.status, &args.own_writes).await;
        Ok(Self {
            solution: args.solution,
            install: args.install,
            settings: args.settings,
            status: args.status,
            ready: args.ready,
            phase: args.phase,
            stopping: args.stopping,
            restarts: Restarts::default(),
            round: 0,
            started_once: false,
            starting: None,
            warm_gate: args.warm_gate,
            activity: args.activity,
            _watcher: watcher,
        })
    }

    async fn on_stop(&mut self, _: WeakActorRef<Self>, _: ActorStopReason) -> Result<(), Self::Error> {
        self.stopping.cancel();
        self.phase.send_replace(Phase::Stopped);
        // A start cut off drops its host, which kills it.
        if let Some(start) = self.starting.take() {
            start.abort();
        }
        if let Some(host) = self.ready.swap(None) {
            host.stop(STOP_GRACE).await;
        }
        Ok(())
    }
}

/// A call found no live host: start one, unless a start is under way.
pub struct Demand;

impl Message<Demand> for WorkspaceActor {
    type Reply = ();

    async fn handle(&mut self, _: Demand, ctx: &mut Context<Self, Self::Reply>) {
        if self.starting.is_some() || self.stopping.is_cancelled() {
            return;
        }
        if let Some(host) = self.ready.load_full() {
            if !host.connection().is_closed() {
                return;
            }
            retire_crashed(&self.ready, &self.status, &host);
        }
        self.round += 1;
        let round = self.round;
        // A missing SDK or host is not a failed start: it is reported as is, with nothing to back off from.
        let install = match &self.install {
            Ok(install) => install.clone(),
            Err(error) => {
                self.phase.send_replace(Phase::Ended(round, Some(error.clone())));
                return;
            }
        };
        let pause = match self.restarts.next(&self.settings) {
            Ok(pause) => pause,
            Err(gave_up) => {
                let error = ToolError::new(
                    ErrorCode::ROSLYN_ERROR,
                    format!("The Roslyn host failed {} times in a row; not retrying yet", gave_up.failures_in_row),
                )
                .detail("solutionPath", self.solution.display().to_string())
                .detail("lastErrors", self.status.get().errors.clone())
                .suggest(format!(
                    "Retry in {} seconds, or fix the cause shown by diagnose",
                    self.settings.give_up_for.as_secs()
                ));
                self.phase.send_replace(Phase::Ended(round, Some(error)));
                return;
            }
        };
        self.phase.send_replace(Phase::Starting(round));
        let start = Start {
            solution: self.solution.clone(),
            install,
            settings: self.settings.clone(),
            status: self.status.clone(),
            restarting: self.started_once,
        };
        let (actor, cancel) = (ctx.actor_ref().clone(), self.stopping.clone());
        self.starting = Some(tokio::spawn(async move {
            let began = Instant::now();
            let result = tokio::select! {
                biased;
                () = cancel.cancelled() => None,
                result = start.run(pause) => Some(result),
            };
            let _ = actor.tell(Started { round, result, took: began.elapsed() }).await;
        }));
    }
}

/// What a start came to; `None` when the workspace's stop cut it off.
struct Started {
    round: u64,
    result: Option<Result<Loaded, ToolError>>,
    took: Duration,
}

struct Loaded {
    host: Arc<HostProcess>,
    version: u64,
    summary: WorkspaceSummary,
}

impl Message<Started> for WorkspaceActor {
    type Reply = ();

    async fn handle(&mut self, Started { round, result, took }: Started, _: &mut Context<Self, Self::Reply>) {
        self.starting = None;
        let Some(result) = result else {
            self.phase.send_replace(Phase::Stopped);
            return;
        };
        self.settings.events.solution_loaded(&self.solution, took, result.is_ok());
        self.restarts.ended(result.is_ok());
        match result {
            Ok(Loaded { host, version, summary }) => {
                self.status.loaded(&summary, version);
                self.status.update(|s| {
                    s.host_pid = Some(host.pid());
                    s.last_load_ms = Some(took.as_millis() as u64);
                });
                if std::mem::replace(&mut self.started_once, true) {
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
                    self.stopping.child_token(),
                );
                self.replenish_spare_after_warm_up();
                // The host before the phase: a call that sees the round ended finds its host.
                self.ready.store(Some(host));
                self.phase.send_replace(Phase::Ended(round, None));
            }
            Err(error) => {
                let message = error.to_string();
                self.status.update(|s| {
                    s.state = WorkspaceState::Error;
                    s.solution_loaded = false;
                    s.errors = vec![message.clone()];
                });
                self.phase.send_replace(Phase::Ended(round, Some(error)));
            }
        }
    }
}

/// The slow part of a start, owned by the task that runs it.
struct Start {
    solution: PathBuf,
    install: HostInstall,
    settings: WorkspaceSettings,
    status: Arc<StatusCell>,
    restarting: bool,
}

impl Start {
    async fn run(self, pause: Duration) -> Result<Loaded, ToolError> {
        tokio::time::sleep(pause).await;
        let restarting = self.restarting;
        self.status.update(|s| {
            s.state = if restarting { WorkspaceState::Restarting } else { WorkspaceState::Loading };
            s.host_pid = None;
        });
        let label = self.solution.display().to_string();
        let host = Arc::new(match &self.settings.spare {
            Some(spare) => spare.take(&label).await?,
            None => HostProcess::start(&self.install, &label, self.settings.load_timeout).await?,
        });
        load(&host, &self.solution, self.settings.load_timeout).await.map(|(version, summary)| Loaded {
            host,
            version,
            summary,
        })
    }
}

/// Loads the solution in a started host; a host whose load failed is stopped.
async fn load(host: &HostProcess, solution: &Path, limit: Duration) -> Result<(u64, WorkspaceSummary), ToolError> {
    let load = ask::load(LoadRequest { solution_path: solution.display().to_string() });
    // Cancelling the start drops this request, which tells the host to give it up.
    match host.connection().ask(load, limit, &CancellationToken::new()).await {
        Ok(reply) => Ok((reply.workspace_version, reply.body)),
        Err(failure) => {
            host.stop(STOP_GRACE).await;
            Err(failure.into())
        }
    }
}

impl WorkspaceActor {
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

/// Takes a host that went away unasked out of `ready` and counts the crash. The crash watcher, a waiting
/// call and the actor race to notice it; only the one that takes it out counts, so a crash counts once either
/// way, and a host stopped on purpose (already out of `ready`) never does.
pub(crate) fn retire_crashed(ready: &ArcSwapOption<HostProcess>, status: &StatusCell, host: &Arc<HostProcess>) {
    let previous = ready.compare_and_swap(&Some(host.clone()), None);
    if previous.as_ref().is_some_and(|p| Arc::ptr_eq(p, host)) {
        tracing::warn!(solution = %status.get().solution_path, pid = host.pid(), "Roslyn host died");
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
    use kameo::prelude::*;
    use protocol::ErrorCode;
    use protocol::host::{PingRequest, RequestBody};
    use roslyn_host::HostInstall;
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    use tokio_util::sync::CancellationToken;

    /// A supervisor for workspaces spawned alone.
    struct Parent;

    impl Actor for Parent {
        type Args = ();
        type Error = std::convert::Infallible;

        async fn on_start(_: (), _: ActorRef<Self>) -> Result<Self, Self::Error> {
            Ok(Self)
        }
    }

    fn spawn(solution: PathBuf, install: HostInstall, settings: WorkspaceSettings) -> Workspace {
        Workspace::spawn(solution, Ok(install), settings, &Parent::spawn(()))
    }

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
        let install =
            HostInstall { dotnet: PathBuf::from("/bin/false"), host_dll: dir.path().join("Host.dll"), nice: 0 };
        let workspace = spawn(solution.clone(), install, settings);
        assert!(workspace.load().await.is_err());
        assert_eq!(*loads.0.lock().expect("loads"), vec![(solution, false)]);
        workspace.stop().await;
    }

    #[tokio::test]
    async fn a_request_to_a_stopped_workspace_comes_back_unsent_with_its_body() {
        let dir = tempfile::tempdir().expect("temp dir");
        let install =
            HostInstall { dotnet: PathBuf::from("/bin/false"), host_dll: dir.path().join("Host.dll"), nice: 0 };
        let workspace = spawn(dir.path().join("App.sln"), install, WorkspaceSettings::default());
        workspace.stop().await;
        let body = RequestBody::Ping(PingRequest { delay_ms: 7 });
        let sent = workspace.request_within(body.clone(), None, &CancellationToken::new()).await;
        let Err(RequestError::Unsent(returned, error)) = sent else { panic!("a stopped workspace sends nothing") };
        assert_eq!(*returned, body);
        assert_eq!(error.code, protocol::ErrorCode::WORKSPACE_NOT_LOADED);
    }

    #[tokio::test]
    async fn a_stop_cuts_off_a_start_under_way_and_the_call_waiting_for_it_comes_back_unsent() {
        let dir = tempfile::tempdir().expect("temp dir");
        // A "dotnet" that never answers its handshake: the start would last the whole load limit.
        let pid_file = dir.path().join("host.pid");
        let dotnet = dir.path().join("dotnet");
        std::fs::write(&dotnet, format!("#!/bin/sh\necho $$ > {}\nexec sleep 3600\n", pid_file.display()))
            .expect("script");
        std::fs::set_permissions(&dotnet, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
        let install = HostInstall { dotnet, host_dll: dir.path().join("Host.dll"), nice: 0 };
        let settings = WorkspaceSettings { load_timeout: Duration::from_secs(3600), ..Default::default() };
        let workspace = Arc::new(spawn(dir.path().join("App.sln"), install, settings));
        let call = tokio::spawn({
            let workspace = workspace.clone();
            async move {
                let body = RequestBody::Ping(PingRequest { delay_ms: 0 });
                workspace.request_within(body, None, &CancellationToken::new()).await
            }
        });
        let pid = loop {
            if let Some(pid) = std::fs::read_to_string(&pid_file).ok().and_then(|p| p.trim().parse::<i32>().ok()) {
                break pid;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        // Bounded only so that a regression fails rather than hangs: the start would hold it for an hour.
        tokio::time::timeout(Duration::from_secs(120), workspace.stop()).await.expect("the stop waited for the start");
        let Err(RequestError::Unsent(_, error)) = call.await.expect("call") else {
            panic!("the waiting call is unsent, for the caller to send it again")
        };
        assert_eq!(error.code, ErrorCode::WORKSPACE_NOT_LOADED);
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
        };
        for _ in 0..500 {
            if !alive() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(!alive(), "the host process of the cut-off start was killed");
    }
}
