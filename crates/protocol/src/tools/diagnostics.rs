//! get_compilation_diagnostics.

use super::groups::{tool_input, tool_output};
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

impl SeverityName {
    /// As it is written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            SeverityName::Hidden => "hidden",
            SeverityName::Info => "info",
            SeverityName::Warning => "warning",
            SeverityName::Error => "error",
        }
    }
}

tool_input! {
    pub struct CompilationDiagnosticsInput(; page "Files") {
        #[serde(default)]
        pub file_path: Option<String>,
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        pub solution_path: Option<String>,
        #[serde(default)]
        pub min_severity: Option<SeverityName>,
        #[serde(default)]
        pub include_analyzers: Option<bool>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticItem {
    /// `sha256:` + hex sha256 of `filePath|line:column|endLine:endColumn|severity|code|message` (the project
    /// file and empty positions for diagnostics without a location).
    pub id: String,
    /// Compiler or analyzer id, e.g. `CS0029`, `CA1822`, `IDE0051`.
    pub code: String,
    /// `compiler`, or the analyzer assembly that reported it (`Microsoft.CodeAnalysis.NetAnalyzers`, ...).
    pub source: String,
    pub severity: SeverityName,
    pub message: String,
    pub project: String,
    /// Absent for diagnostics without a source location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<super::Location>,
}

/// The diagnostics of one file (or, for those without a location, of one project file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticFile {
    pub file_path: String,
    /// Sorted by position, severity (errors first), code and message; at most the service's item cap (200
    /// unless set lower), the first ones in that order.
    pub diagnostics: Vec<DiagnosticItem>,
    /// Diagnostics of the file before the cap.
    pub diagnostic_count: u32,
    /// Some were left out by the cap.
    pub truncated: bool,
}

tool_output! {
    pub struct CompilationDiagnosticsOutput {
        /// `file`, `project` or `solution`.
        pub scope: String,
        /// One entry per file with diagnostics, sorted by path; the page's files.
        pub files: Vec<DiagnosticFile>,
        /// Files with diagnostics, all pages.
        pub file_count: u32,
        /// Diagnostics in all files, all pages.
        pub total_count: u32,
        pub error_count: u32,
        pub warning_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
    }
}
