//! initialize_workspace.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InitializeWorkspaceInput {
    #[serde(default)]
    pub working_directory: Option<String>,
    #[serde(default)]
    pub preferred_solution: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrimarySolution {
    pub path: String,
    pub name: String,
    pub project_count: u32,
    pub document_count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FoundSolution {
    pub path: String,
    /// Project names as the solution file lists them, sorted.
    pub projects: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectItem {
    pub name: String,
    pub path: String,
    pub target_frameworks: Vec<String>,
    pub document_count: u32,
    pub project_references: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitializeWorkspaceOutput {
    /// The loaded solution, now this session's default.
    pub primary_solution: PrimarySolution,
    /// Every solution found, sorted by path.
    pub all_solutions: Vec<FoundSolution>,
    /// Target frameworks of the primary solution's projects, sorted and deduplicated.
    pub framework_versions: Vec<String>,
    /// Relative paths in later calls resolve against this directory.
    pub workspace_root: String,
    /// The primary solution's projects, sorted by name.
    pub projects: Vec<ProjectItem>,
    /// What MSBuild reported while loading (missing references, unsupported projects...).
    pub workspace_diagnostics: Vec<String>,
}
