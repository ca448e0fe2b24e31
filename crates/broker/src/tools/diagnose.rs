//! diagnose: health of the toolchain and of every loaded workspace, from published state only.
//! It never waits on an actor's mailbox or a host, so it answers while everything else is busy.

use super::Call;
use crate::resolve;
use protocol::host::PROTOCOL_VERSION;
use protocol::tools::diagnose::*;
use protocol::{ErrorCode, ToolError};
use workspace_actor::Workspace;

/// `tools` are the catalog's names, listed as the capabilities while the installation is whole.
pub async fn diagnose(call: &Call, input: DiagnoseInput, tools: &[&str]) -> Result<DiagnoseOutput, ToolError> {
    let services = &call.services;
    let components = services.components.get();
    let mut errors = Vec::new();
    let install = services.located.install();
    if let Err(error) = &install {
        let error = error.clone();
        errors.push(Issue { code: error.code.name().to_owned(), message: error.message });
    }
    let workspaces: Vec<WorkspaceStatus> = services.registry.workspaces().iter().map(|w| status_of(w)).collect();
    for status in workspaces.iter().filter(|s| s.state == WorkspaceState::Error) {
        errors.push(Issue {
            code: ErrorCode::SOLUTION_LOAD_FAILED.name().to_owned(),
            message: format!("{}: {}", status.solution_path, status.errors.join("; ")),
        });
    }
    for status in workspaces.iter().filter(|s| s.state == WorkspaceState::Unresponsive) {
        errors.push(Issue {
            code: ErrorCode::ROSLYN_ERROR.name().to_owned(),
            message: format!(
                "the Roslyn host of {} (pid {}) does not answer: its last pings went unanswered for {} ms each",
                status.solution_path,
                status.host_pid.unwrap_or_default(),
                workspace_actor::PING_LIMIT.as_millis()
            ),
        });
    }
    let warnings = workspaces
        .iter()
        .filter(|s| s.host_restarts > 0)
        .map(|s| Issue {
            code: ErrorCode::ROSLYN_ERROR.name().to_owned(),
            message: format!("the Roslyn host of {} was restarted {} time(s)", s.solution_path, s.host_restarts),
        })
        .collect();
    let workspace = match input.solution_path.as_deref() {
        Some(raw) => Some(named_workspace(call, raw)?),
        None => None,
    };
    let verbose = input.verbose.unwrap_or(false);
    Ok(DiagnoseOutput {
        healthy: errors.is_empty(),
        capabilities: if install.is_ok() {
            tools.iter().map(|c| (*c).to_owned()).collect()
        } else {
            vec!["diagnose".to_owned()]
        },
        components,
        workspace,
        workspaces,
        errors,
        warnings,
        settings: verbose.then(|| DiagnoseSettings {
            max_solutions: services.registry.unloading().max_solutions,
            idle_timeout_secs: services.registry.unloading().idle_timeout.as_secs(),
            max_host_memory_mb: services.registry.unloading().max_host_memory_mb,
            max_hosts_memory_mb: services.registry.unloading().max_hosts_memory_mb,
            host_dll: Some(services.located.host_dll.display().to_string()),
            dotnet_path: services.located.dotnet.as_ref().map(|p| p.display().to_string()),
            host_protocol_version: PROTOCOL_VERSION,
        }),
        http: services.http.get().cloned(),
        spare_host: services.spare_status(),
    })
}

/// A workspace's published status with its host's resident memory now.
fn status_of(workspace: &Workspace) -> WorkspaceStatus {
    let mut status = workspace.status();
    status.host_resident_bytes = workspace.host_pid().and_then(crate::telemetry::resident_bytes);
    status
}

/// The status of the named solution; one not loaded yet starts loading in the background.
fn named_workspace(call: &Call, raw: &str) -> Result<WorkspaceStatus, ToolError> {
    let target = resolve::target(Some(raw), None, &call.scope, &call.services.reaches, Vec::new)?;
    if let Some(workspace) = call.services.registry.peek(&target.solution) {
        return Ok(status_of(&workspace));
    }
    let workspace = call.services.workspace(target.solution.clone())?;
    tokio::spawn(async move { workspace.load().await });
    Ok(WorkspaceStatus::loading(target.solution.display().to_string()))
}
