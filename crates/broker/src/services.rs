//! What every session shares: the registry of loaded solutions and its supervisor, the toolchain state.

use crate::actions::ActionStore;
use crate::components::ComponentsCell;
use crate::config::ServiceArgs;
use crate::in_flight::Budget;
use crate::limits::Limits;
use crate::paging::Pager;
use crate::plans::PlanStore;
use crate::registry::{Registry, Unloading};
use crate::telemetry::{Sample, Telemetry};
use protocol::tools::diagnose::{HttpEndpoint, SpareHostState, SpareHostStatus};

use protocol::ToolError;
use roslyn_host::{Located, SpareHost, SpareState};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use workspace_actor::{Workspace, WorkspaceSettings};

pub struct Services {
    pub registry: Arc<Registry>,
    pub components: Arc<ComponentsCell>,
    pub located: Located,
    pub limits: Limits,
    /// Results retained for their cursors.
    pub pager: Pager,
    /// Plans previews computed, until applied or expired.
    pub plans: PlanStore,
    /// Code actions get_code_actions listed, until they expire.
    pub actions: ActionStore,
    pub telemetry: Arc<Telemetry>,
    /// The daemon's HTTP endpoint, once it tried to bind it (never set in-process).
    pub http: OnceLock<HttpEndpoint>,
    /// The limits on requests in flight, which every session's transport counts against.
    pub requests: Arc<Budget>,
    /// The host started ahead of need, unless `--spare-host false` (or no host is installed).
    pub spare: Option<Arc<SpareHost>>,
    /// Where test runs build, unless `--test-runs false`.
    pub test_runs: Option<crate::test_runs::TestRuns>,
    /// The project folders each solution reaches beyond its own, read from its files.
    pub reaches: crate::reach::Reaches,
    /// Calls whose work outlasts the answer bound, until their answers expire.
    pub jobs: crate::jobs::Jobs,
    /// The host whose handshake versions diagnose last took.
    versions_noted_for: AtomicU32,
    /// How long a stop waits for writes and calls under way: a write ends (done or rolled back) within its
    /// limit; past this the service exits anyway, and the journal settles a cut write at the next start.
    drain: std::time::Duration,
}

impl Services {
    pub fn start(args: &ServiceArgs) -> Arc<Self> {
        crate::guardian::start(crate::test_runs::compiler::pipe());
        let located = roslyn_host::locate(args.host_nice);
        let telemetry = Telemetry::new();
        let limits = Unloading {
            max_solutions: args.max_solutions,
            idle_timeout: args.idle_timeout(),
            max_host_memory_mb: args.max_host_memory_mb,
            // Three quarters of the machine's memory unless set (no bound when it cannot be read).
            max_hosts_memory_mb: args
                .max_hosts_memory_mb
                .unwrap_or_else(|| crate::telemetry::machine_bytes().map_or(u64::MAX, |bytes| (bytes / 4 * 3) >> 20)),
        };
        let components = ComponentsCell::start(&located);
        let mut settings = WorkspaceSettings { events: telemetry.workspace_events(), ..args.workspace_settings() };
        if args.spare_host
            && let Ok(install) = located.install()
        {
            let spare = Arc::new(SpareHost::new(install, settings.load_timeout));
            spare.replenish();
            settings.spare = Some(spare);
        }
        if let Ok(install) = located.install() {
            let builds =
                crate::test_runs::generators::GeneratorBuilds::new(args.generator_build, &args.state_dir(), install);
            settings.generators = builds.map(|b| Arc::new(b) as Arc<dyn workspace_actor::GeneratorBuilder>);
        }
        let spare = settings.spare.clone();
        let drain = settings.write_timeout + std::time::Duration::from_secs(10);
        let requests = Budget::new(args.max_requests_per_session, args.max_requests);
        crate::heap::return_after_bursts(requests.clone());
        let registry = Registry::start(limits, telemetry.clone(), located.install(), settings);
        Arc::new(Self {
            registry,
            components,
            located,
            limits: args.limits(),
            pager: Pager::new(args.cursor_ttl()),
            plans: PlanStore::default(),
            actions: ActionStore::default(),
            telemetry,
            test_runs: args.test_runs_dir().map(|dir| crate::test_runs::TestRuns::new(dir, args.state_dir())),
            reaches: Default::default(),
            jobs: crate::jobs::Jobs::new(
                args.answer_within(),
                Duration::from_secs(args.request_timeout_secs),
                args.instance.as_deref(),
            ),
            http: OnceLock::new(),
            requests,
            spare,
            versions_noted_for: AtomicU32::new(0),
            drain,
        })
    }

    /// What /metrics reads at scrape time: the registry's sample and the spare host's memory.
    pub fn sample(&self) -> Sample {
        let spare = self.spare_status().and_then(|spare| spare.host_resident_bytes);
        let jobs_working = i64::try_from(self.jobs.working()).unwrap_or(i64::MAX);
        Sample { spare_resident_bytes: spare, jobs_working, ..self.registry.sample() }
    }

    /// The spare host as diagnose shows it, with its resident memory now; none when there is no spare.
    pub fn spare_status(&self) -> Option<SpareHostStatus> {
        Some(match self.spare.as_ref()?.state()? {
            SpareState::Starting => {
                SpareHostStatus { state: SpareHostState::Starting, host_pid: None, host_resident_bytes: None }
            }
            SpareState::Ready(pid) => SpareHostStatus {
                state: SpareHostState::Ready,
                host_pid: Some(pid),
                host_resident_bytes: crate::telemetry::resident_bytes(pid),
            },
        })
    }

    /// The workspace of `solution`, started if needed (the solution loads on its first request).
    pub fn workspace(&self, solution: PathBuf) -> Result<Arc<Workspace>, ToolError> {
        self.registry.open(solution)
    }

    /// Records the versions a host reported, for diagnose.
    pub fn note_host_versions(&self, workspace: &Workspace) {
        // Once per host: calls after the first find nothing new.
        let Some(pid) = workspace.host_pid() else {
            return;
        };
        if self.versions_noted_for.swap(pid, Ordering::Relaxed) == pid {
            return;
        }
        let Some(hello) = workspace.host_hello() else {
            return;
        };
        let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        self.components.update(|c| {
            c.roslyn_available = true;
            c.roslyn_version = non_empty(&hello.roslyn_version).or(c.roslyn_version.take());
            c.msbuild_version = non_empty(&hello.msbuild_version).or(c.msbuild_version.take());
            c.msbuild_found = c.msbuild_found || !hello.msbuild_version.is_empty();
            c.dotnet_sdk_version = non_empty(&hello.dotnet_sdk_version).or(c.dotnet_sdk_version.take());
        });
    }

    pub async fn shutdown(&self) {
        // Calls that answered with their job belong to no session any more: they stop as the sessions' calls did.
        self.jobs.cancel_all();
        if tokio::time::timeout(self.drain, self.registry.shutdown()).await.is_err() {
            tracing::warn!(drain_secs = self.drain.as_secs(), "work still under way after the drain time; exiting");
        }
        crate::test_runs::compiler::stop();
    }
}
