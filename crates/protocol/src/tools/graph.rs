//! get_project_graph.

use super::groups::{tool_input, tool_output};
pub use crate::host::{GraphProject, PackageVersion, UnusedReference};

tool_input! {
    pub struct ProjectGraphInput(; page "Projects") {
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        pub unused: Option<bool>,
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
