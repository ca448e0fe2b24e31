//! Per-session state: the default workspace set by initialize_workspace. Loaded solutions are shared.

use std::path::PathBuf;
use std::sync::RwLock;

#[derive(Debug, Clone, PartialEq)]
pub struct SessionWorkspace {
    /// Relative paths resolve against it, and it is a workspace root of the gate.
    pub root: PathBuf,
    pub solution: PathBuf,
}

#[derive(Debug, Default)]
pub struct Session {
    workspace: RwLock<Option<SessionWorkspace>>,
}

impl Session {
    pub fn workspace(&self) -> Option<SessionWorkspace> {
        self.workspace.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    pub fn set_workspace(&self, workspace: SessionWorkspace) {
        *self.workspace.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(workspace);
    }
}
