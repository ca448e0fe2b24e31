//! diagnose (seed 000 §1.3): answered from published state, never from a mailbox or a host.

pub use crate::host::{GeneratorProject, GeneratorState};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiagnoseInput {
    /// Also starts loading it.
    #[serde(default)]
    pub solution_path: Option<String>,
    #[serde(default)]
    pub verbose: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Components {
    pub roslyn_available: bool,
    pub roslyn_version: Option<String>,
    pub msbuild_found: bool,
    pub msbuild_version: Option<String>,
    pub dotnet_sdk_available: bool,
    pub dotnet_sdk_version: Option<String>,
    pub service_version: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum WorkspaceState {
    /// Host starting or solution loading.
    Loading,
    Ready,
    /// The host died; the next call restarts it.
    Restarting,
    /// The host runs but did not answer two pings in a row within a second each (stopped, or wedged); calls
    /// to it wait and may time out. Back to `Ready` once it answers again.
    Unresponsive,
    /// Loading failed, or restarts were exhausted.
    Error,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceStatus {
    pub state: WorkspaceState,
    pub solution_loaded: bool,
    pub solution_path: String,
    pub project_count: u32,
    pub document_count: u32,
    /// Increases with every change the host applied.
    pub workspace_version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_pid: Option<u32>,
    /// Times the host went away unasked (a crash, a kill): counted when it is noticed; the next call
    /// restarts it.
    pub host_restarts: u32,
    /// Times the file watch lost events (its queue overflowed) and the solution was read again from disk.
    #[serde(default)]
    pub watch_overflows: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_load_ms: Option<u64>,
    /// While a load runs: the projects it has opened so far (in every target framework).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projects_loaded: Option<u32>,
    /// The host's resident memory now; past `maxHostMemoryMb` the solution is unloaded between calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_resident_bytes: Option<u64>,
    /// Whether a writing tool holds this workspace's lock.
    pub write_locked: bool,
    /// Who holds it, when a write does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_holder: Option<WriteHolder>,
    /// Writes waiting for the lock, in arrival order.
    pub writes_waiting: u32,
    /// Compiling every project after the load; absent before the first load, and when the service runs
    /// without warm-up (`--warm-up false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warm_up: Option<WarmUp>,
    /// Load failures and host faults.
    pub errors: Vec<String>,
    /// What MSBuild reported while loading.
    pub warnings: Vec<String>,
    /// The projects the solution references as analyzers (source generators) and analyzer assemblies that are
    /// missing: whether the solution runs what their sources say, and what the service's build of each came to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generators: Vec<GeneratorStatus>,
}

/// A generator project as the solution uses it, and the service's build of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneratorStatus {
    #[serde(flatten)]
    pub project: GeneratorProject,
    /// What the service's last build of it came to (building, built, failed and why, or turned off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
}

impl WorkspaceStatus {
    /// A workspace whose solution has not finished loading yet.
    pub fn loading(solution_path: String) -> Self {
        Self {
            state: WorkspaceState::Loading,
            solution_loaded: false,
            solution_path,
            project_count: 0,
            document_count: 0,
            workspace_version: 0,
            host_pid: None,
            host_restarts: 0,
            watch_overflows: 0,
            last_load_ms: None,
            projects_loaded: None,
            host_resident_bytes: None,
            write_locked: false,
            write_holder: None,
            writes_waiting: 0,
            warm_up: None,
            errors: Vec::new(),
            warnings: Vec::new(),
            generators: Vec::new(),
        }
    }
}

/// The write holding a workspace's lock: what a queued or refused writer waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteHolder {
    /// The tool writing (`rename_symbol`, `apply_plan`, `undo`, `run_tests` copying the files, ...).
    pub tool: String,
    pub session_id: String,
    /// When it took the lock (RFC 3339, UTC).
    pub since: String,
}

/// After each load the service compiles every project, one by one, as a build would; calls that arrive
/// meanwhile wait for it without counting the wait against their time limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WarmUp {
    pub phase: WarmUpPhase,
    /// Projects compiled so far (one per target framework).
    pub projects_warmed: u32,
    pub project_count: u32,
    /// Time spent warming so far, or in all once it ended.
    pub ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum WarmUpPhase {
    Compiling,
    Done,
    /// A project could not be compiled in time, or the host went away: calls no longer wait for it.
    Stopped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    pub code: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiagnoseSettings {
    pub max_solutions: u64,
    pub idle_timeout_secs: u64,
    /// A host's resident memory past which its solution is unloaded between calls (it reloads on the next).
    pub max_host_memory_mb: u64,
    /// All hosts' resident memory past which the least recently used solutions are unloaded between calls.
    pub max_hosts_memory_mb: u64,
    pub host_dll: Option<String>,
    pub dotnet_path: Option<String>,
    pub host_protocol_version: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiagnoseOutput {
    pub healthy: bool,
    pub components: Components,
    /// The workspace named by `solutionPath`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<WorkspaceStatus>,
    /// Every loaded workspace, sorted by path.
    pub workspaces: Vec<WorkspaceStatus>,
    pub capabilities: Vec<String>,
    pub errors: Vec<Issue>,
    pub warnings: Vec<Issue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settings: Option<DiagnoseSettings>,
    /// The daemon's HTTP endpoint: where it listens, or why it does not (absent when the session is
    /// served in-process).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpEndpoint>,
    /// The Roslyn host kept started ahead of need (`--spare-host`) for the next load or restart; absent
    /// when there is none (turned off, just taken by a load, or not started again yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spare_host: Option<SpareHostStatus>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpareHostStatus {
    pub state: SpareHostState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_pid: Option<u32>,
    /// Its resident memory now (no solution is loaded in it, so no budget applies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_resident_bytes: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SpareHostState {
    /// Its process is starting.
    Starting,
    /// Started and waiting for a load (it readies Roslyn and rehearses a load meanwhile).
    Ready,
}

/// A daemon started by a bridge serves its sessions over the local socket even when its HTTP address
/// cannot be bound; this says which.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HttpEndpoint {
    /// The address bound (`127.0.0.1:7717`), when serving.
    pub address: Option<String>,
    /// Why HTTP is not served (`cannot listen on 127.0.0.1:7717: Address in use, held by ...`).
    pub error: Option<String>,
}
