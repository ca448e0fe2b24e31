//! The state a workspace publishes for lock-free readers (diagnose): swapped whole, never waited on; and the
//! changes that made each snapshot of the host's, which plans read.

use crate::snapshots::SnapshotLog;
use arc_swap::{ArcSwap, ArcSwapOption};
use protocol::host::{WorkspaceDiagnosticKind, WorkspaceSummary};
use protocol::tools::diagnose::{WorkspaceState, WorkspaceStatus};
use std::sync::Arc;

pub struct StatusCell {
    status: ArcSwap<WorkspaceStatus>,
    summary: ArcSwapOption<WorkspaceSummary>,
    pub snapshots: SnapshotLog,
}

impl StatusCell {
    pub fn new(solution_path: String) -> Self {
        let status = ArcSwap::from_pointee(WorkspaceStatus::loading(solution_path));
        Self { status, summary: ArcSwapOption::empty(), snapshots: SnapshotLog::default() }
    }

    pub fn get(&self) -> Arc<WorkspaceStatus> {
        self.status.load_full()
    }

    /// The projects of the last load or applied change.
    pub fn summary(&self) -> Option<Arc<WorkspaceSummary>> {
        self.summary.load_full()
    }

    pub fn update(&self, change: impl Fn(&mut WorkspaceStatus)) {
        self.status.rcu(|current| {
            let mut next = WorkspaceStatus::clone(current);
            change(&mut next);
            next
        });
    }

    /// Records what a load or an applied change reported.
    pub fn loaded(&self, summary: &WorkspaceSummary, version: u64) {
        self.summary.store(Some(Arc::new(summary.clone())));
        self.update(|s| {
            s.state = WorkspaceState::Ready;
            s.solution_loaded = true;
            s.projects_loaded = None;
            s.project_count = summary.projects.len() as u32;
            s.document_count = summary.projects.iter().map(|p| p.document_count).sum();
            s.workspace_version = version;
            s.errors = summary
                .workspace_diagnostics
                .iter()
                .filter(|d| d.kind == WorkspaceDiagnosticKind::Failure)
                .map(|d| d.message.clone())
                .collect();
            s.warnings = summary
                .workspace_diagnostics
                .iter()
                .filter(|d| d.kind != WorkspaceDiagnosticKind::Failure)
                .map(|d| d.message.clone())
                .collect();
        });
    }
}
