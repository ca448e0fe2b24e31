//! get_compilation_diagnostics.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeverityName {
    Hidden,
    Info,
    Warning,
    Error,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CompilationDiagnosticsInput {
    /// One file (absolute or relative to the workspace root); the whole solution when omitted.
    #[serde(default)]
    pub file_path: Option<String>,
    /// Solution or project to use; found from the file when omitted.
    #[serde(default)]
    pub solution_path: Option<String>,
    /// Lowest severity to report (default `warning`).
    #[serde(default)]
    pub min_severity: Option<SeverityName>,
    /// At most this many diagnostics (default 200, at most 1000); `hasMore` tells whether more exist.
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub max_results: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticItem {
    /// Compiler id, e.g. `CS0029`.
    pub id: String,
    pub severity: SeverityName,
    pub message: String,
    pub project: String,
    /// Absent for diagnostics without a source location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<super::Location>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompilationDiagnosticsOutput {
    /// Sorted by path, line, column and id; location-less ones first.
    pub diagnostics: Vec<DiagnosticItem>,
    pub total_count: u32,
    pub error_count: u32,
    pub warning_count: u32,
    pub has_more: bool,
    /// `file` or `solution`.
    pub scope: String,
    pub resolved_from_solution: String,
}
