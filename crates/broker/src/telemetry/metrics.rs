//! The Prometheus families behind /metrics. Every series with a label set known in advance is created at
//! start, so dashboards show zeros before the first event rather than nothing.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use std::sync::Mutex;
use std::time::Duration;

/// The transports a session can arrive on.
const TRANSPORTS: [&str; 3] = ["http", "socket", "stdio"];
const OUTCOMES: [&str; 2] = ["ok", "error"];
/// How a wait for a write lock ended.
const WRITE_LOCK_OUTCOMES: [&str; 2] = ["granted", "busy"];
/// How a plan came onto the solution at its write.
const PLAN_OUTCOMES: [&str; 4] = ["as_seen", "kept", "replayed", "merged"];
/// Why a plan was refused at its write.
const PLAN_REFUSALS: [&str; 5] = ["exact", "conflict", "compilation", "replay_failed", "other"];
/// From a cached lookup to a cross-solution search.
const CALL_BUCKETS: [f64; 15] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];
/// A load restores and compiles a solution: seconds to minutes.
const LOAD_BUCKETS: [f64; 11] = [0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    tool: String,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    tool: String,
    code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ToolLabels {
    tool: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TransportLabels {
    transport: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabels {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PlanLabels {
    outcome: &'static str,
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SolutionLabels {
    solution: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VersionLabels {
    version: &'static str,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Why a solution was unloaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eviction {
    /// More solutions than `--max-solutions`: the least recently used one made room.
    Capacity,
    /// No call for the idle timeout.
    Idle,
    /// The service stopped.
    Shutdown,
    /// The host held more memory than `--max-host-memory-mb`.
    Memory,
    /// The hosts together held more than `--max-hosts-memory-mb`: the least recently used made room.
    Pressure,
}

impl Eviction {
    const ALL: [Eviction; 5] =
        [Eviction::Capacity, Eviction::Idle, Eviction::Shutdown, Eviction::Memory, Eviction::Pressure];

    fn label(self) -> &'static str {
        match self {
            Eviction::Capacity => "capacity",
            Eviction::Idle => "idle",
            Eviction::Shutdown => "shutdown",
            Eviction::Memory => "memory",
            Eviction::Pressure => "pressure",
        }
    }
}

/// Values read at scrape time rather than counted as they happen.
pub struct Sample {
    pub solutions_loaded: i64,
    /// Each live host's solution and resident bytes.
    pub hosts: Vec<(String, u64)>,
    /// The resident memory past which a host's solution is unloaded.
    pub host_memory_budget_bytes: u64,
    /// The resident memory of all hosts together past which the least recently used solutions are unloaded.
    pub hosts_memory_budget_bytes: u64,
    /// The spare host's resident bytes; none while there is no started spare.
    pub spare_resident_bytes: Option<u64>,
    pub own_resident_bytes: Option<u64>,
    /// Calls whose work goes on after they answered with their job.
    pub jobs_working: i64,
}

pub struct Metrics {
    registry: Registry,
    /// One scrape samples and encodes at a time, so a sample never mixes with another's.
    scrape: Mutex<()>,
    tool_calls: Family<CallLabels, Counter>,
    tool_call_duration: Histograms<CallLabels>,
    tool_errors: Family<ErrorLabels, Counter>,
    busy_rejections: Family<ToolLabels, Counter>,
    sessions_open: Family<TransportLabels, Gauge>,
    sessions: Family<TransportLabels, Counter>,
    solutions_loaded: Gauge,
    jobs_working: Gauge,
    solution_loads: Family<OutcomeLabels, Counter>,
    solution_load_duration: Histograms<OutcomeLabels>,
    write_lock_wait: Histograms<OutcomeLabels>,
    write_lock_hold: Histogram,
    plans_settled: Family<PlanLabels, Counter>,
    evictions: Family<ReasonLabels, Counter>,
    host_restarts: Counter,
    host_memory: Family<SolutionLabels, Gauge>,
    host_memory_budget: Gauge,
    hosts_memory_budget: Gauge,
    spare_memory: Gauge,
    watcher_events: Counter,
    own_memory: Gauge,
}

impl Metrics {
    pub fn new() -> Self {
        let metrics = Self {
            registry: Registry::default(),
            scrape: Mutex::new(()),
            tool_calls: Family::default(),
            tool_call_duration: Family::new_with_constructor(|| Histogram::new(CALL_BUCKETS)),
            tool_errors: Family::default(),
            busy_rejections: Family::default(),
            sessions_open: Family::default(),
            sessions: Family::default(),
            solutions_loaded: Gauge::default(),
            jobs_working: Gauge::default(),
            solution_loads: Family::default(),
            solution_load_duration: Family::new_with_constructor(|| Histogram::new(LOAD_BUCKETS)),
            write_lock_wait: Family::new_with_constructor(|| Histogram::new(CALL_BUCKETS)),
            write_lock_hold: Histogram::new(CALL_BUCKETS),
            plans_settled: Family::default(),
            evictions: Family::default(),
            host_restarts: Counter::default(),
            host_memory: Family::default(),
            host_memory_budget: Gauge::default(),
            hosts_memory_budget: Gauge::default(),
            spare_memory: Gauge::default(),
            watcher_events: Counter::default(),
            own_memory: Gauge::default(),
        };
        // Creating a series is getting it once.
        for transport in TRANSPORTS {
            metrics.sessions_open.get_or_create_owned(&TransportLabels { transport });
            metrics.sessions.get_or_create_owned(&TransportLabels { transport });
        }
        for outcome in OUTCOMES {
            metrics.solution_loads.get_or_create_owned(&OutcomeLabels { outcome });
            metrics.solution_load_duration.get_or_create_owned(&OutcomeLabels { outcome });
        }
        for outcome in WRITE_LOCK_OUTCOMES {
            metrics.write_lock_wait.get_or_create_owned(&OutcomeLabels { outcome });
        }
        for outcome in PLAN_OUTCOMES {
            metrics.plans_settled.get_or_create_owned(&PlanLabels { outcome, reason: "none" });
        }
        for reason in PLAN_REFUSALS {
            metrics.plans_settled.get_or_create_owned(&PlanLabels { outcome: "refused", reason });
        }
        for eviction in Eviction::ALL {
            metrics.evictions.get_or_create_owned(&ReasonLabels { reason: eviction.label() });
        }
        metrics.register()
    }

    fn register(mut self) -> Self {
        let build_info = Family::<VersionLabels, Gauge>::default();
        build_info.get_or_create(&VersionLabels { version: env!("CARGO_PKG_VERSION") }).set(1);
        let r = &mut self.registry;
        r.register("roslyn_mcp_tool_calls", "Tool calls by tool and outcome", self.tool_calls.clone());
        r.register_with_unit(
            "roslyn_mcp_tool_call_duration",
            "Tool call latency by tool and outcome",
            Unit::Seconds,
            self.tool_call_duration.clone(),
        );
        r.register("roslyn_mcp_tool_errors", "Failed tool calls by tool and error code", self.tool_errors.clone());
        r.register(
            "roslyn_mcp_busy_rejections",
            "Calls refused because another write held the solution (WORKSPACE_BUSY)",
            self.busy_rejections.clone(),
        );
        r.register("roslyn_mcp_sessions_open", "MCP sessions open by transport", self.sessions_open.clone());
        r.register("roslyn_mcp_sessions", "MCP sessions opened by transport", self.sessions.clone());
        r.register("roslyn_mcp_solutions_loaded", "Solutions loaded in a Roslyn host", self.solutions_loaded.clone());
        r.register("roslyn_mcp_solution_loads", "Solution loads by outcome", self.solution_loads.clone());
        r.register(
            "roslyn_mcp_jobs_working",
            "Calls whose work goes on after they answered with their job",
            self.jobs_working.clone(),
        );
        r.register_with_unit(
            "roslyn_mcp_solution_load_duration",
            "Time to start a host and load a solution, by outcome",
            Unit::Seconds,
            self.solution_load_duration.clone(),
        );
        r.register_with_unit(
            "roslyn_mcp_write_lock_wait",
            "Time a write waited in line for its solution's write lock, by outcome (granted, busy)",
            Unit::Seconds,
            self.write_lock_wait.clone(),
        );
        r.register_with_unit(
            "roslyn_mcp_write_lock_hold",
            "Time a write held its solution's write lock, from computing the plan to its verdict",
            Unit::Seconds,
            self.write_lock_hold.clone(),
        );
        r.register(
            "roslyn_mcp_plans_settled",
            "Plans at their write: applied as computed (as_seen), kept after a compile check, replayed or merged on \
             a newer snapshot, or refused (by reason)",
            self.plans_settled.clone(),
        );
        r.register("roslyn_mcp_solution_evictions", "Solutions unloaded by reason", self.evictions.clone());
        r.register("roslyn_mcp_host_restarts", "Roslyn hosts restarted after a crash", self.host_restarts.clone());
        r.register_with_unit(
            "roslyn_mcp_host_resident_memory",
            "Resident memory of each live Roslyn host",
            Unit::Bytes,
            self.host_memory.clone(),
        );
        r.register_with_unit(
            "roslyn_mcp_host_memory_budget",
            "Resident memory past which a host's solution is unloaded between calls",
            Unit::Bytes,
            self.host_memory_budget.clone(),
        );
        r.register_with_unit(
            "roslyn_mcp_hosts_memory_budget",
            "Resident memory of all Roslyn hosts together past which the least recently used solutions are unloaded",
            Unit::Bytes,
            self.hosts_memory_budget.clone(),
        );
        r.register_with_unit(
            "roslyn_mcp_spare_host_resident_memory",
            "Resident memory of the Roslyn host started ahead of need (0 while there is none)",
            Unit::Bytes,
            self.spare_memory.clone(),
        );
        r.register(
            "roslyn_mcp_watcher_events",
            "File changes sent to a host by the watcher",
            self.watcher_events.clone(),
        );
        r.register_with_unit(
            "process_resident_memory",
            "Resident memory of this process",
            Unit::Bytes,
            self.own_memory.clone(),
        );
        r.register("roslyn_mcp_build_info", "The running version", build_info);
        self
    }

    pub fn record_call(&self, tool: &str, error_code: Option<&str>, busy: bool, elapsed: Duration) {
        let outcome = if error_code.is_some() { "error" } else { "ok" };
        let labels = CallLabels { tool: tool.to_owned(), outcome };
        self.tool_calls.get_or_create(&labels).inc();
        self.tool_call_duration.get_or_create(&labels).observe(elapsed.as_secs_f64());
        if let Some(code) = error_code {
            self.tool_errors.get_or_create(&ErrorLabels { tool: labels.tool.clone(), code: code.to_owned() }).inc();
        }
        if busy {
            self.busy_rejections.get_or_create(&ToolLabels { tool: labels.tool }).inc();
        }
    }

    pub fn session_opened(&self, transport: &'static str) {
        self.sessions.get_or_create(&TransportLabels { transport }).inc();
        self.sessions_open.get_or_create(&TransportLabels { transport }).inc();
    }

    pub fn session_closed(&self, transport: &'static str) {
        self.sessions_open.get_or_create(&TransportLabels { transport }).dec();
    }

    /// Sessions open now, on every transport together.
    pub fn sessions_open(&self) -> usize {
        let open = |transport| self.sessions_open.get_or_create(&TransportLabels { transport }).get();
        usize::try_from(TRANSPORTS.into_iter().map(open).sum::<i64>()).unwrap_or_default()
    }

    pub fn solution_loaded(&self, took: Duration, ok: bool) {
        let labels = OutcomeLabels { outcome: if ok { "ok" } else { "error" } };
        self.solution_loads.get_or_create(&labels).inc();
        self.solution_load_duration.get_or_create(&labels).observe(took.as_secs_f64());
    }

    pub fn write_lock_waited(&self, waited: Duration, granted: bool) {
        let labels = OutcomeLabels { outcome: WRITE_LOCK_OUTCOMES[usize::from(!granted)] };
        self.write_lock_wait.get_or_create(&labels).observe(waited.as_secs_f64());
    }

    pub fn write_lock_held(&self, held: Duration) {
        self.write_lock_hold.observe(held.as_secs_f64());
    }

    pub fn plan_settled(&self, how: Option<protocol::tools::plans::RebaseKind>, refused: Option<&'static str>) {
        let labels = match (refused, how) {
            (Some(reason), _) => PlanLabels { outcome: "refused", reason },
            (None, how) => PlanLabels { outcome: how.map_or("as_seen", |how| how.name()), reason: "none" },
        };
        self.plans_settled.get_or_create(&labels).inc();
    }

    pub fn solutions_evicted(&self, why: Eviction, count: u64) {
        self.evictions.get_or_create(&ReasonLabels { reason: why.label() }).inc_by(count);
    }

    pub fn host_restarted(&self) {
        self.host_restarts.inc();
    }

    pub fn files_changed(&self, count: usize) {
        self.watcher_events.inc_by(count as u64);
    }

    /// The OpenMetrics text of every family, with `sample` as the values of the sampled gauges.
    pub fn encode(&self, sample: Sample) -> String {
        let _scrape = self.scrape.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.solutions_loaded.set(sample.solutions_loaded);
        self.jobs_working.set(sample.jobs_working);
        // Hosts that exited since the last scrape leave no stale series behind.
        self.host_memory.clear();
        self.host_memory_budget.set(saturating_i64(sample.host_memory_budget_bytes));
        self.hosts_memory_budget.set(saturating_i64(sample.hosts_memory_budget_bytes));
        for (solution, bytes) in sample.hosts {
            self.host_memory.get_or_create(&SolutionLabels { solution }).set(saturating_i64(bytes));
        }
        self.spare_memory.set(saturating_i64(sample.spare_resident_bytes.unwrap_or(0)));
        if let Some(bytes) = sample.own_resident_bytes {
            self.own_memory.set(saturating_i64(bytes));
        }
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }
}

fn saturating_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
