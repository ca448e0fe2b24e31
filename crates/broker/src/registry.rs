//! The registry of loaded solutions and their supervisor. The registry is a moka cache, least recently used
//! out first, idle entries expired; opening a solution is moka's get-or-insert (`entry().or_insert_with`), so
//! a workspace starts once. An evicted workspace is stopped (after any write in progress) and its host exits.
//! Each unloading is counted by its reason where that reason is decided. The [`Supervisor`] actor is linked to every workspace actor
//! and takes one that ended unasked out of the registry, so that the next call opens the solution afresh.

use crate::resolve::Loaded;
use crate::telemetry::{Eviction, Sample, Telemetry, resident_bytes};
use kameo::prelude::*;
use moka::notification::RemovalCause;
use moka::policy::EvictionPolicy;
use moka::sync::Cache;
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostInstall;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
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
    /// The hosts together holding more than this (MiB): the least recently used go, between calls.
    pub max_hosts_memory_mb: u64,
}

impl Unloading {
    pub fn max_host_memory_bytes(&self) -> u64 {
        self.max_host_memory_mb.saturating_mul(1024 * 1024)
    }

    pub fn max_hosts_memory_bytes(&self) -> u64 {
        self.max_hosts_memory_mb.saturating_mul(1024 * 1024)
    }
}

/// Loaded solutions, readable without any mailbox (diagnose iterates it directly).
pub struct Registry {
    cache: Cache<PathBuf, Arc<Workspace>>,
    unloading: Unloading,
    telemetry: Arc<Telemetry>,
    install: Result<HostInstall, ToolError>,
    settings: WorkspaceSettings,
    supervisor: ActorRef<Supervisor>,
    /// Set as the service stops: a call sent again then finds no solution to open, and starts no host.
    closing: AtomicBool,
}

impl Registry {
    /// The registry and the task that stops what it evicts. moka runs no threads of its own, so a timer
    /// drives idle expiry and pending evictions.
    pub fn start(
        unloading: Unloading,
        telemetry: Arc<Telemetry>,
        install: Result<HostInstall, ToolError>,
        settings: WorkspaceSettings,
    ) -> Arc<Self> {
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
        let registry = Arc::new_cyclic(|registry| Self {
            cache,
            unloading,
            telemetry,
            install,
            settings,
            supervisor: Supervisor::spawn(Supervisor { registry: registry.clone() }),
            closing: AtomicBool::new(false),
        });
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
                registry.unload_over_memory();
            }
        });
        registry
    }

    pub fn unloading(&self) -> Unloading {
        self.unloading
    }

    /// The workspace of `solution`, started if it is not loaded (its host starts with the first call);
    /// WORKSPACE_NOT_LOADED once the service is stopping.
    pub fn open(&self, solution: PathBuf) -> Result<Arc<Workspace>, ToolError> {
        if self.closing.load(Ordering::Acquire) {
            return Err(ToolError::new(
                ErrorCode::WORKSPACE_NOT_LOADED,
                "The service is stopping; no solution opens now",
            )
            .detail("solutionPath", solution.display().to_string())
            .suggest("Retry once the service has started again"));
        }
        let entry = self.cache.entry(solution.clone()).or_insert_with(|| {
            tracing::info!(solution = %solution.display(), "opening solution");
            let (install, settings) = (self.install.clone(), self.settings.clone());
            Arc::new(Workspace::spawn(solution, install, settings, &self.supervisor))
        });
        if entry.is_fresh() {
            // Evict beyond capacity now rather than at the next tick.
            self.cache.run_pending_tasks();
        }
        Ok(entry.into_value())
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
            hosts_memory_budget_bytes: self.unloading.max_hosts_memory_bytes(),
            spare_resident_bytes: None,
            jobs_working: 0,
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

    /// Unloads, between calls, the solutions whose host holds more memory than its budget, then, while the hosts
    /// together hold more than their shared budget, the least recently used (the longest without a call); the
    /// one used last stays, whatever it holds (its own budget bounds it), so that memory is given back before a
    /// host or a load fails for want of it. A solution with a call under way waits for the next tick, and the
    /// next call loads it again in a fresh host. Each host's memory is read once a tick for both.
    fn unload_over_memory(&self) {
        let mut hosts: Vec<_> = self
            .cache
            .iter()
            .filter_map(|(solution, workspace)| {
                Some((workspace.idle_for(), resident_bytes(workspace.host_pid()?)?, solution))
            })
            .collect();
        let budget = self.unloading.max_host_memory_bytes();
        hosts.retain(|(idle, bytes, solution)| {
            let unloaded = *bytes > budget && *idle > Duration::ZERO && self.cache.remove(solution.as_ref()).is_some();
            if unloaded {
                tracing::info!(solution = %solution.display(), budget_mb = self.unloading.max_host_memory_mb, "host over its memory budget");
                self.telemetry.solutions_evicted(Eviction::Memory, 1);
            }
            !unloaded
        });
        let shared = self.unloading.max_hosts_memory_bytes();
        let mut total: u64 = hosts.iter().map(|(_, bytes, _)| bytes).sum();
        if total <= shared {
            return;
        }
        hosts.sort_by_key(|(idle, _, _)| std::cmp::Reverse(*idle));
        hosts.pop();
        for (idle, bytes, solution) in hosts {
            if total <= shared {
                break;
            }
            if idle > Duration::ZERO && self.cache.remove(solution.as_ref()).is_some() {
                total = total.saturating_sub(bytes);
                tracing::info!(solution = %solution.display(), budget_mb = self.unloading.max_hosts_memory_mb, "the hosts are over their shared memory budget; unloading the least recently used");
                self.telemetry.solutions_evicted(Eviction::Pressure, 1);
            }
        }
    }

    /// Stops every workspace and waits for their hosts to exit.
    pub async fn shutdown(&self) {
        self.closing.store(true, Ordering::Release);
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

/// The supervisor of the workspace actors: linked to each before it runs, it hears when one ends. One that
/// ended unasked (a panic) is taken out of the registry, so that the next call opens its solution afresh
/// rather than finding a workspace that can no longer answer; an evicted one is out already. A host is not
/// an actor: each workspace actor supervises its own (see `workspace_actor::WorkspaceActor`).
pub struct Supervisor {
    registry: Weak<Registry>,
}

impl Actor for Supervisor {
    type Args = Self;
    type Error = std::convert::Infallible;

    async fn on_start(state: Self, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        Ok(state)
    }

    async fn on_link_died(
        &mut self,
        _: WeakActorRef<Self>,
        id: ActorId,
        reason: ActorStopReason,
    ) -> Result<ControlFlow<ActorStopReason>, Self::Error> {
        if let Some(registry) = self.registry.upgrade() {
            let ended = registry.cache.iter().find(|(_, w)| w.actor_id() == id);
            if let Some((solution, _)) = ended {
                tracing::warn!(solution = %solution.display(), ?reason, "workspace ended unasked; unloading it");
                registry.cache.invalidate(solution.as_ref());
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(unloading: Unloading, telemetry: &Arc<Telemetry>) -> Arc<Registry> {
        let install = Err(ToolError::new(ErrorCode::ROSLYN_ERROR, "no host in unit tests"));
        Registry::start(unloading, telemetry.clone(), install, WorkspaceSettings::default())
    }

    fn unloading(max_solutions: u64, idle_timeout: Duration) -> Unloading {
        Unloading { max_solutions, idle_timeout, max_host_memory_mb: 4096, max_hosts_memory_mb: 4096 }
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
        let registry = start(unloading(1, Duration::from_secs(600)), &telemetry);
        registry.open(dir.path().join("A.sln")).expect("open A");
        registry.open(dir.path().join("B.sln")).expect("open B");
        assert_eq!(evictions(&telemetry, &registry, "capacity"), "1");
        assert_eq!(evictions(&telemetry, &registry, "idle"), "0");

        registry.shutdown().await;
        assert_eq!(evictions(&telemetry, &registry, "shutdown"), "1");
        assert_eq!(evictions(&telemetry, &registry, "capacity"), "1", "shutdown is not capacity");

        let idle = start(unloading(4, Duration::ZERO), &telemetry);
        idle.open(dir.path().join("C.sln")).expect("open C");
        idle.expire_idle();
        assert_eq!(evictions(&telemetry, &idle, "idle"), "1");
        assert!(idle.workspaces().is_empty());
    }

    #[tokio::test]
    async fn a_solution_opens_once_and_a_workspace_that_ended_unasked_is_opened_afresh() {
        let dir = tempfile::tempdir().expect("temp dir");
        let registry = start(unloading(4, Duration::from_secs(600)), &Telemetry::new());
        let solution = dir.path().join("A.sln");
        let first = registry.open(solution.clone()).expect("open");
        assert!(Arc::ptr_eq(&first, &registry.open(solution.clone()).expect("open")), "opened once");

        // Stopped behind the registry's back, as a panicking actor would end: the supervisor hears of it.
        first.stop().await;
        for _ in 0..1000 {
            if registry.workspaces().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(registry.workspaces().is_empty(), "the supervisor took the ended workspace out");
        let second = registry.open(solution.clone()).expect("open again");
        assert_ne!(first.actor_id(), second.actor_id());
        assert!(!second.is_stopped());

        registry.shutdown().await;
        let refused = registry.open(solution).err().expect("no solution opens once the service stops");
        assert_eq!(refused.code, ErrorCode::WORKSPACE_NOT_LOADED);
    }
}
