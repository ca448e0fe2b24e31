//! get_project_graph.

use super::groups::{tool_input, tool_output};
pub use crate::host::{GraphProject, PackageVersion, UnusedReference};

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
