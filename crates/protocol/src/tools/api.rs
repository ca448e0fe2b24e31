//! get_public_api and compare_public_api.

use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct PublicApiInput(; page "Members") {
        pub project: String,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

tool_output! {
    pub struct PublicApiOutput {
        /// The project file.
        pub project: String,
        /// The target framework compiled.
        pub framework: String,
        /// This page's members, one line each, sorted: the stable text of the surface.
        pub text: String,
        /// The same members as items.
        pub members: Vec<ApiMember>,
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiMember {
    /// The documentation comment id (`M:Shop.Cart.Add(System.Int32)`).
    pub id: String,
    /// Modifiers, the member, ` -> ` its type, in the style of PublicAPI.Shipped.txt.
    pub line: String,
    /// `class`, `record`, `method`, `constructor`, `property`, `indexer`, `field`, `event`, `operator`, ...
    pub kind: String,
}

tool_input! {
    pub struct CompareApiInput(;) {
        pub project: String,
        /// A git revision.
        pub since: String,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

tool_output! {
    pub struct CompareApiOutput {
        pub project: String,
        pub framework: String,
        /// The commit `since` names.
        pub since_commit: String,
        /// Members the revision had and the files on disk do not (another signature of the same name counts as
        /// changed instead). Breaking.
        pub removed: Vec<ApiChange>,
        /// Members whose line differs (signature, accessibility, static, sealed/virtual/abstract, a type's kind).
        pub changed: Vec<ApiChange>,
        /// Members the files on disk add; breaking when code outside must then implement them (an abstract
        /// member, an interface member without a body).
        pub added: Vec<ApiChange>,
        pub breaking_count: u32,
        /// Each list holds at most the service's item cap (200 unless set lower), the first by line.
        pub truncated: bool,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiChange {
    pub id: String,
    pub kind: String,
    /// The line in the revision (absent for an added member).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_line: Option<String>,
    /// The line on disk (absent for a removed member).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_line: Option<String>,
    pub breaking: bool,
}
