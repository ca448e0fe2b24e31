//! The state a workspace publishes for lock-free readers (diagnose): swapped whole, never waited on; and the
//! changes that made each snapshot of the host's, which plans read.

use crate::snapshots::SnapshotLog;
use arc_swap::{ArcSwap, ArcSwapOption};
use protocol::host::{GeneratorBuild, GeneratorProject, GeneratorState, WorkspaceDiagnosticKind, WorkspaceSummary};
use protocol::tools::diagnose::{GeneratorStatus, WorkspaceState, WorkspaceStatus};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

pub struct StatusCell {
    status: ArcSwap<WorkspaceStatus>,
    summary: ArcSwapOption<WorkspaceSummary>,
    pub snapshots: SnapshotLog,
    /// Told of every summary recorded (a load, an applied change): the generators' follower waits on it.
    pub changed: Notify,
    /// The service's last build of each generator (by assembly): what it came to, and the sources it was for.
    builds: Mutex<BTreeMap<String, GeneratorNote>>,
}

struct GeneratorNote {
    note: String,
    /// The generator's `sources_changed_ms` when the build was tried: it is not tried again on the same sources.
    tried_for: u64,
    /// What the build gave, when it succeeded: a host started afresh (a restart) is given it again.
    built: Option<GeneratorBuild>,
}

/// What to do about a generator the solution does not run as its sources say.
pub enum GeneratorPlan {
    /// Build it.
    Build,
    /// Give the host the build made for its sources as they are (a host started afresh lacks it).
    Reuse(GeneratorBuild),
    /// Nothing: it runs as its sources say, no project is known, or its build failed on these sources.
    Leave,
}

impl StatusCell {
    pub fn new(solution_path: String) -> Self {
        let status = ArcSwap::from_pointee(WorkspaceStatus::loading(solution_path));
        Self {
            status,
            summary: ArcSwapOption::empty(),
            snapshots: SnapshotLog::default(),
            changed: Notify::new(),
            builds: Mutex::default(),
        }
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

    /// What to do about the generator: build it when it does not run as its sources say, its project is known,
    /// and no build was tried on its sources as they are; give the host again a build made for them.
    pub fn generator_plan(&self, generator: &GeneratorProject) -> GeneratorPlan {
        if generator.state == GeneratorState::Current || generator.project.is_empty() {
            return GeneratorPlan::Leave;
        }
        match self.builds().get(&generator.assembly) {
            Some(tried) if tried.tried_for == generator.sources_changed_ms => match &tried.built {
                Some(built) if std::path::Path::new(&built.built).exists() && generator.built != built.built => {
                    GeneratorPlan::Reuse(built.clone())
                }
                _ => GeneratorPlan::Leave,
            },
            _ => GeneratorPlan::Build,
        }
    }

    /// Records where the service's build of the generator stands, and what it gave.
    pub fn note_generator(&self, generator: &GeneratorProject, note: String, built: Option<GeneratorBuild>) {
        let tried_for = generator.sources_changed_ms;
        self.builds().insert(generator.assembly.clone(), GeneratorNote { note: note.clone(), tried_for, built });
        self.update(|s| {
            for g in s.generators.iter_mut().filter(|g| g.project.assembly == generator.assembly) {
                g.build = Some(note.clone());
            }
        });
    }

    fn builds(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, GeneratorNote>> {
        self.builds.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records what a load or an applied change reported.
    pub fn loaded(&self, summary: &WorkspaceSummary, version: u64) {
        self.summary.store(Some(Arc::new(summary.clone())));
        let generators: Vec<GeneratorStatus> = {
            let builds = self.builds();
            let note = |g: &GeneratorProject| builds.get(&g.assembly).map(|b| b.note.clone());
            summary.generators.iter().map(|g| GeneratorStatus { project: g.clone(), build: note(g) }).collect()
        };
        self.update(|s| {
            s.generators = generators.clone();
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
        self.changed.notify_one();
    }
}
