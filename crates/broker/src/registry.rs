//! The broker actor and its registry of loaded solutions: a moka cache, least recently used out first,
//! idle entries expired. An evicted workspace is stopped (after any write in progress) and its host exits.
//! Each unloading is counted by its reason where that reason is decided.

use crate::resolve::Loaded;
use crate::telemetry::{Eviction, Sample, Telemetry, resident_bytes};
use kameo::prelude::*;
use moka::notification::RemovalCause;
use moka::policy::EvictionPolicy;
use moka::sync::Cache;
use protocol::ToolError;
use roslyn_host::HostInstall;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use workspace_actor::{Workspace, WorkspaceSettings};

/// When solutions are unloaded.
#[derive(Debug, Clone, Copy)]
pub struct Unloading {
    /// More loaded than this: the least recently used goes.
    pub max_solutions: u64,
    /// No call for this long: unloaded.
    pub idle_timeout: Duration,
    /// A host with more resident memory than this (MiB): unloaded once no call is under way.
    pub max_host_memory_mb: u64,
}

impl Unloading {
    pub fn max_host_memory_bytes(&self) -> u64 {
        self.max_host_memory_mb.saturating_mul(1024 * 1024)
    }
}

/// Loaded solutions, readable without the broker's mailbox (diagnose iterates it directly).
pub struct Registry {
    cache: Cache<PathBuf, Arc<Workspace>>,
    unloading: Unloading,
    telemetry: Arc<Telemetry>,
}

impl Registry {
    /// The registry and the task that stops what it evicts. moka runs no threads of its own, so a timer
    /// drives idle expiry and pending evictions.
    pub fn start(unloading: Unloading, telemetry: Arc<Telemetry>) -> Arc<Self> {
        let (evicted_tx, evicted_rx) = mpsc::unbounded_channel::<(Arc<Workspace>, RemovalCause)>();
        let counter = telemetry.clone();
        let cache = Cache::builder()
            .max_capacity(unloading.max_solutions)
            .eviction_policy(EvictionPolicy::lru())
            .eviction_listener(move |_, workspace, cause| {
                // Only moka knows when capacity pushes one out; idle and shutdown removals are ours.
                if cause == RemovalCause::Size {
                    counter.solutions_evicted(Eviction::Capacity, 1);
                }
                let _ = evicted_tx.send((workspace, cause));
            })
            .build();
        let registry = Arc::new(Self { cache, unloading, telemetry });
        tokio::spawn(stop_evicted(evicted_rx));
        let weak = Arc::downgrade(&registry);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                let Some(registry) = weak.upgrade() else {
                    return;
                };
                registry.expire_idle();
                registry.unload_over_budget();
            }
        });
        registry
    }

    pub fn unloading(&self) -> Unloading {
        self.unloading
    }

    /// Every loaded workspace, sorted by solution path.
    pub fn workspaces(&self) -> Vec<Arc<Workspace>> {
        let mut all: Vec<Arc<Workspace>> = self.cache.iter().map(|(_, w)| w).collect();
        all.sort_by(|a, b| a.solution().cmp(b.solution()));
        all
    }

    /// Every solution loaded now, with the folders of its projects (for resolving a file's solution).
    pub fn loaded(&self) -> Vec<Loaded> {
        self.cache
            .iter()
            .filter_map(|(solution, workspace)| {
                let summary = workspace.summary()?;
                let project_dirs = summary
                    .projects
                    .iter()
                    .filter_map(|p| Path::new(&p.file_path).parent().map(Path::to_path_buf))
                    .collect();
                Some(Loaded { solution: PathBuf::clone(&solution), project_dirs })
            })
            .collect()
    }

    /// A loaded workspace, without touching its recency (diagnose must not keep solutions alive).
    pub fn peek(&self, solution: &PathBuf) -> Option<Arc<Workspace>> {
        self.cache.iter().find(|(k, _)| k.as_ref() == solution).map(|(_, w)| w)
    }

    /// What /metrics reads at scrape time: loaded solutions and the memory of every live host and our own.
    pub fn sample(&self) -> Sample {
        let workspaces = self.workspaces();
        let solutions_loaded = workspaces.iter().filter(|w| w.status().solution_loaded).count();
        let hosts = workspaces
            .iter()
            .filter_map(|w| Some((w.solution().display().to_string(), resident_bytes(w.host_pid()?)?)))
            .collect();
        Sample {
            solutions_loaded: i64::try_from(solutions_loaded).unwrap_or(i64::MAX),
            hosts,
            host_memory_budget_bytes: self.unloading.max_host_memory_bytes(),
            spare_resident_bytes: None,
            own_resident_bytes: resident_bytes(std::process::id()),
        }
    }

    /// Marks a solution as just used, for the least-recently-used order.
    pub fn touch(&self, solution: &Path) {
        let _ = self.cache.get(solution);
    }

    /// Unloads workspaces with no call under way for the idle timeout. Idle time is the workspace's own
    /// (from the end of its last call), so a long load is never mistaken for idleness.
    fn expire_idle(&self) {
        for (solution, workspace) in self.cache.iter() {
            if workspace.idle_for() >= self.unloading.idle_timeout && self.cache.remove(solution.as_ref()).is_some() {
                self.telemetry.solutions_evicted(Eviction::Idle, 1);
            }
        }
        self.cache.run_pending_tasks();
    }

    /// Unloads the solutions whose host holds more memory than the budget, between calls: one with a call
    /// under way waits for the next tick. The next call loads it again in a fresh host.
    fn unload_over_budget(&self) {
        let budget = self.unloading.max_host_memory_bytes();
        for (solution, workspace) in self.cache.iter() {
            let over = workspace.host_pid().and_then(resident_bytes).is_some_and(|bytes| bytes > budget);
            if over && workspace.idle_for() > Duration::ZERO && self.cache.remove(solution.as_ref()).is_some() {
                tracing::info!(solution = %solution.display(), budget_mb = self.unloading.max_host_memory_mb, "host over its memory budget");
                self.telemetry.solutions_evicted(Eviction::Memory, 1);
            }
        }
    }

    /// Stops every workspace and waits for their hosts to exit.
    pub async fn shutdown(&self) {
        let all = self.workspaces();
        self.cache.invalidate_all();
        self.telemetry.solutions_evicted(Eviction::Shutdown, all.len() as u64);
        for workspace in all {
            workspace.stop().await;
        }
    }
}

async fn stop_evicted(mut evicted: mpsc::UnboundedReceiver<(Arc<Workspace>, RemovalCause)>) {
    while let Some((workspace, cause)) = evicted.recv().await {
        tracing::info!(solution = %workspace.solution().display(), ?cause, "unloading solution");
        tokio::spawn(async move { workspace.stop().await });
    }
}

/// Starts workspace actors on demand; one message at a time, so a solution is never started twice.
pub struct Broker {
    registry: Arc<Registry>,
    install: Result<HostInstall, ToolError>,
    settings: WorkspaceSettings,
}

impl Broker {
    pub fn new(registry: Arc<Registry>, install: Result<HostInstall, ToolError>, settings: WorkspaceSettings) -> Self {
        Self { registry, install, settings }
    }
}

impl Actor for Broker {
    type Args = Self;
    type Error = std::convert::Infallible;

    async fn on_start(state: Self, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        Ok(state)
    }
}

/// The workspace of a solution, started if it is not loaded.
pub struct OpenWorkspace(pub PathBuf);

impl Message<OpenWorkspace> for Broker {
    type Reply = Arc<Workspace>;

    async fn handle(
        &mut self,
        OpenWorkspace(solution): OpenWorkspace,
        _: &mut Context<Self, Self::Reply>,
    ) -> Self::Reply {
        if let Some(workspace) = self.registry.cache.get(&solution) {
            return workspace;
        }
        tracing::info!(solution = %solution.display(), "opening solution");
        let workspace = Arc::new(Workspace::spawn(solution.clone(), self.install.clone(), self.settings.clone()));
        self.registry.cache.insert(solution, workspace.clone());
        // Evict beyond capacity now rather than at the next tick.
        self.registry.cache.run_pending_tasks();
        workspace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ErrorCode;

    fn spawn_broker(registry: &Arc<Registry>) -> ActorRef<Broker> {
        let install = Err(ToolError::new(ErrorCode::ROSLYN_ERROR, "no host in unit tests"));
        Broker::spawn(Broker::new(registry.clone(), install, WorkspaceSettings::default()))
    }

    fn unloading(max_solutions: u64, idle_timeout: Duration) -> Unloading {
        Unloading { max_solutions, idle_timeout, max_host_memory_mb: 4096 }
    }

    fn evictions(telemetry: &Telemetry, registry: &Registry, reason: &str) -> String {
        let text = telemetry.encode(registry.sample());
        let prefix = format!("roslyn_mcp_solution_evictions_total{{reason=\"{reason}\"}} ");
        text.lines().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_default().to_owned()
    }

    #[tokio::test]
    async fn evictions_are_counted_by_capacity_idleness_and_shutdown() {
        let dir = tempfile::tempdir().expect("temp dir");
        let telemetry = Telemetry::new();
        let registry = Registry::start(unloading(1, Duration::from_secs(600)), telemetry.clone());
        let broker = spawn_broker(&registry);
        broker.ask(OpenWorkspace(dir.path().join("A.sln"))).await.expect("open A");
        broker.ask(OpenWorkspace(dir.path().join("B.sln"))).await.expect("open B");
        assert_eq!(evictions(&telemetry, &registry, "capacity"), "1");
        assert_eq!(evictions(&telemetry, &registry, "idle"), "0");

        registry.shutdown().await;
        assert_eq!(evictions(&telemetry, &registry, "shutdown"), "1");
        assert_eq!(evictions(&telemetry, &registry, "capacity"), "1", "shutdown is not capacity");

        let idle = Registry::start(unloading(4, Duration::ZERO), telemetry.clone());
        spawn_broker(&idle).ask(OpenWorkspace(dir.path().join("C.sln"))).await.expect("open C");
        idle.expire_idle();
        assert_eq!(evictions(&telemetry, &idle, "idle"), "1");
        assert!(idle.workspaces().is_empty());
    }
}
