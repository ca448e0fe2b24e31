//! The workspace actor: one per solution, supervised by the broker's `Supervisor`, and itself the supervisor
//! of its host process. It owns the workspace's [`Shared`] state. Its handlers only decide: the slow work of a
//! start (the back-off pause, the process, the load, then the warm-up) runs as a task of the workspace, ended
//! when the workspace stops, and what it comes to is published as a [`Phase`] that calls wait on. Requests never pass through the mailbox: callers take the
//! ready host and talk to it directly, so reads run concurrently.

use crate::phase::Phase;
use crate::restarts::Restarts;
use crate::shared::Shared;
use crate::{generators, liveness, warm_up, watcher};
use kameo::prelude::*;
use protocol::host::ask;
use protocol::host::{LoadRequest, PingRequest, WorkspaceSummary};
use protocol::tools::diagnose::WorkspaceState;
use protocol::{ErrorCode, ToolError};
use roslyn_host::{HostInstall, HostProcess};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Grace given to a host asked to exit before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(3);
/// How often a load under way is asked how far it got.
const LOAD_PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The next spare host starts once calls have paused this long after a load's warm-up (an agent's calls
/// come in bursts, and the first ones follow the load) ...
const SPARE_AFTER_PAUSE: Duration = Duration::from_secs(1);
/// ... or this long after it whatever the calls do, so that a solution busy without pause still gets one.
const SPARE_AT_MOST: Duration = Duration::from_secs(30);

pub struct WorkspaceActor {
    shared: Arc<Shared>,
    install: Result<HostInstall, ToolError>,
    restarts: Restarts,
    round: u64,
    /// A host has loaded the solution before: the next start is a restart.
    started_once: bool,
    /// The start under way.
    starting: Option<JoinHandle<()>>,
}

pub struct WorkspaceArgs {
    pub(crate) shared: Arc<Shared>,
    pub install: Result<HostInstall, ToolError>,
}

impl Actor for WorkspaceActor {
    type Args = WorkspaceArgs;
    type Error = std::convert::Infallible;

    /// Starts watching the folder in a task of the workspace (a recursive watch of a large tree takes a
    /// while): a load waits for the watch, so that no change made during the first load is missed, while the
    /// mailbox, diagnose and other solutions never do.
    async fn on_start(args: Self::Args, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        let shared = args.shared;
        let watched = shared.clone();
        shared.spawn(async move {
            // The watch lives with its forwarder, a task of the workspace that its stop ends.
            watcher::start(&watched).await;
            watched.watching.cancel();
        });
        shared.spawn(generators::follow(shared.clone()));
        Ok(Self {
            shared,
            install: args.install,
            restarts: Restarts::default(),
            round: 0,
            started_once: false,
            starting: None,
        })
    }

    async fn on_stop(&mut self, _: WeakActorRef<Self>, _: ActorStopReason) -> Result<(), Self::Error> {
        self.shared.stopping.cancel();
        self.shared.phase.send_replace(Phase::Stopped);
        // A start cut off drops its host, which kills it.
        if let Some(start) = self.starting.take() {
            start.abort();
        }
        if let Some(host) = self.shared.take_host() {
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
        let shared = &self.shared;
        if self.starting.is_some() || shared.stopping.is_cancelled() || shared.live_host().is_some() {
            return;
        }
        self.round += 1;
        let round = self.round;
        // A missing SDK or host is not a failed start: it is reported as is, with nothing to back off from.
        let install = match &self.install {
            Ok(install) => install.clone(),
            Err(error) => {
                shared.phase.send_replace(Phase::Ended(round, Some(error.clone())));
                return;
            }
        };
        let pause = match self.restarts.next(&shared.settings) {
            Ok(pause) => pause,
            Err(gave_up) => {
                let error = ToolError::new(
                    ErrorCode::ROSLYN_ERROR,
                    format!("The Roslyn host failed {} times in a row; not retrying yet", gave_up.failures_in_row),
                )
                .detail("solutionPath", shared.solution.display().to_string())
                .detail("lastErrors", shared.status.get().errors.clone())
                .suggest(format!(
                    "Retry in {} seconds, or fix the cause shown by diagnose",
                    shared.settings.give_up_for.as_secs()
                ));
                shared.phase.send_replace(Phase::Ended(round, Some(error)));
                return;
            }
        };
        shared.phase.send_replace(Phase::Starting(round));
        let start = Start { shared: shared.clone(), install, restarting: self.started_once };
        let actor = ctx.actor_ref().clone();
        // A stop ends the task before it reports: the actor is stopping then, and publishes so itself.
        self.starting = Some(shared.spawn(async move {
            let began = Instant::now();
            let result = start.run(pause).await;
            let _ = actor.tell(Started { round, result, took: began.elapsed() }).await;
        }));
    }
}

/// What a start came to.
struct Started {
    round: u64,
    result: Result<Loaded, ToolError>,
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
        let shared = &self.shared;
        if shared.stopping.is_cancelled() {
            return;
        }
        shared.settings.events.solution_loaded(&shared.solution, took, result.is_ok());
        let (ms, ok) = (took.as_millis() as u64, result.is_ok());
        tracing::info!(solution = %shared.solution.display(), ms, ok, "solution loaded");
        self.restarts.ended(result.is_ok());
        match result {
            Ok(Loaded { host, version, summary }) => {
                shared.status.loaded(&summary, version);
                shared.status.update(|s| {
                    s.host_pid = Some(host.pid());
                    s.last_load_ms = Some(took.as_millis() as u64);
                });
                if std::mem::replace(&mut self.started_once, true) {
                    shared.settings.events.host_restarted(&shared.solution);
                }
                watch_for_crash(shared, &host);
                liveness::watch(shared, &host);
                if shared.settings.warm_up {
                    warm_up::start(shared, &host, &summary);
                }
                replenish_spare_after_warm_up(shared);
                // The host before the phase: a call that sees the round ended finds its host.
                shared.set_ready(host);
                shared.phase.send_replace(Phase::Ended(round, None));
            }
            Err(error) => {
                let message = error.to_string();
                shared.status.update(|s| {
                    s.state = WorkspaceState::Error;
                    s.solution_loaded = false;
                    s.errors = vec![message.clone()];
                });
                shared.phase.send_replace(Phase::Ended(round, Some(error)));
            }
        }
    }
}

/// The slow part of a start, owned by the task that runs it.
struct Start {
    shared: Arc<Shared>,
    install: HostInstall,
    restarting: bool,
}

impl Start {
    async fn run(self, pause: Duration) -> Result<Loaded, ToolError> {
        let shared = &self.shared;
        shared.watching.cancelled().await;
        tokio::time::sleep(pause).await;
        let restarting = self.restarting;
        shared.status.update(|s| {
            s.state = if restarting { WorkspaceState::Restarting } else { WorkspaceState::Loading };
            s.host_pid = None;
        });
        let label = shared.solution.display().to_string();
        let settings = &shared.settings;
        let host = Arc::new(match &settings.spare {
            Some(spare) => spare.take(&label).await?,
            None => HostProcess::start(&self.install, &label, settings.load_timeout).await?,
        });
        let (version, summary) = load(&host, shared, settings.load_timeout).await?;
        // Calls wait for the generators too: their first answers include the code the generators write.
        let (version, summary) = generators::build(shared, &host, &summary).await.unwrap_or((version, summary));
        Ok(Loaded { host, version, summary })
    }
}

/// Loads the solution in a started host, publishing the projects it has opened as the load goes (a ping
/// each second, which the host answers while it loads); a host whose load failed is stopped.
async fn load(host: &HostProcess, shared: &Shared, limit: Duration) -> Result<(u64, WorkspaceSummary), ToolError> {
    let load = ask::load(LoadRequest { solution_path: shared.solution.display().to_string() });
    let progress = async {
        loop {
            tokio::time::sleep(LOAD_PROGRESS_EVERY).await;
            let ping = ask::ping(PingRequest { delay_ms: 0 });
            if let Ok(reply) = host.connection().ask(ping, LOAD_PROGRESS_EVERY, &CancellationToken::new()).await {
                shared.status.update(|s| s.projects_loaded = Some(reply.body.projects_loaded));
            }
        }
    };
    // Cancelling the start drops this request, which tells the host to give it up.
    let uncancelled = CancellationToken::new();
    let loaded = tokio::select! {
        loaded = host.connection().ask(load, limit, &uncancelled) => loaded,
        never = progress => never,
    };
    match loaded {
        Ok(reply) => Ok((reply.workspace_version, reply.body)),
        Err(failure) => {
            host.stop(STOP_GRACE).await;
            Err(failure.into())
        }
    }
}

/// Starts the next spare host once this load's warm-up (if the service warms up) is over and calls have
/// paused, so that its start takes neither the cores the warm-up is using nor those of the calls that follow.
fn replenish_spare_after_warm_up(shared: &Arc<Shared>) {
    if let Some(spare) = shared.settings.spare.clone() {
        let (gate, activity) = (shared.warm_gate.clone(), shared.activity.clone());
        shared.spawn(async move {
            gate.passed(&CancellationToken::new()).await;
            activity.paused(SPARE_AFTER_PAUSE, SPARE_AT_MOST).await;
            spare.replenish();
        });
    }
}

/// Retires the host (marks the workspace restarting and counts the restart) as soon as it goes away unasked,
/// so diagnose shows it at once.
fn watch_for_crash(shared: &Arc<Shared>, host: &Arc<HostProcess>) {
    let (closed, watched) = (host.connection().closed(), shared.clone());
    shared.spawn(async move {
        closed.cancelled().await;
        watched.live_host();
    });
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
        let sent = workspace.request_within(body.clone(), None, &CancellationToken::new(), None).await;
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
                workspace.request_within(body, None, &CancellationToken::new(), None).await
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
        // The start, the folder watch and its forwarder were the workspace's tasks: none outlives the stop.
        assert_eq!(workspace.shared.tasks_left(), 0, "every task of the workspace ended with its stop");
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
