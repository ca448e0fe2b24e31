//! get_project_graph.

use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct ProjectGraphInput(; page "Projects") {
        /// One project, by name (`Shop.Core`) or project file path; omit for every project.
        #[serde(default)]
        pub project: Option<String>,
        /// Also list the project and package references no code names (default false: it reads every
        /// document of the projects answered).
        #[serde(default)]
        pub unused: Option<bool>,
        /// Solution or project to use; the session's when omitted.
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

tool_output! {
    pub struct ProjectGraphOutput {
        /// One per project file (its target frameworks together), sorted by path.
        pub projects: Vec<GraphProject>,
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
        /// With `unused`: references no code of the projects answered names, sorted by project and reference
        /// (on every page). Candidates, with the evidence.
        pub unused: Vec<UnusedReference>,
        pub warnings: Vec<String>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GraphProject {
    pub name: String,
    /// The project file.
    pub path: String,
    pub assembly_name: String,
    pub target_frameworks: Vec<String>,
    /// `library`, `exe`, `winexe`, `module`, ...
    pub output_kind: String,
    /// It references a test framework (xunit, NUnit, MSTest, TUnit).
    pub is_test_project: bool,
    /// The project files it references itself (what restore recorded), sorted.
    pub project_references: Vec<String>,
    /// The packages it references itself, with the version restore resolved, sorted by name.
    pub packages: Vec<PackageVersion>,
    /// Analyzer assemblies that report diagnostics, sorted.
    pub analyzers: Vec<String>,
    /// Source generators, `Assembly: Type`, sorted.
    pub generators: Vec<String>,
    /// The project files it depends on, directly or not, sorted.
    pub dependencies: Vec<String>,
    /// The project files that depend on it, directly or not: what rebuilds when it changes. Sorted.
    pub dependents: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackageVersion {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnusedReference {
    /// The project file that holds the reference.
    pub project: String,
    /// `project` or `package`.
    pub kind: String,
    /// The referenced project file, or the package name.
    pub reference: String,
    pub evidence: String,
}
