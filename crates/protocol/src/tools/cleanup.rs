//! format_document, find_replace and remove_unused (seed 003's workspace.find_replace and delete of dead code
//! and unused imports): whole-solution edits as plans.

use super::Location;
use super::groups::tool_input;
use super::plans::WriteOutput;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct FormatDocumentInput(; write) {
        #[serde(default)]
        pub file_path: Option<String>,
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        #[schemars(range(min = 1))]
        pub start_line: Option<u32>,
        #[serde(default)]
        #[schemars(range(min = 1))]
        pub end_line: Option<u32>,
    }
}

/// What format_document did, or (in a preview) would do.
pub type FormatDocumentOutput = WriteOutput<FormatOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FormatOutline {
    /// Documents examined.
    pub documents_formatted: u32,
    pub files_changed: u32,
}

tool_input! {
    pub struct FindReplaceInput(; write) {
        pub pattern: String,
        /// With `regex`, `$1` and `${name}` stand for groups.
        pub replacement: String,
        #[serde(default)]
        pub regex: Option<bool>,
        /// Default true.
        #[serde(default)]
        pub case_sensitive: Option<bool>,
        #[serde(default)]
        pub whole_word: Option<bool>,
        /// A path glob from the solution's folder.
        #[serde(default)]
        pub include: Option<String>,
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        pub include_other_files: Option<bool>,
    }
}

/// What find_replace did, or (in a preview) would do.
pub type FindReplaceOutput = WriteOutput<FindReplaceOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindReplaceOutline {
    pub match_count: u32,
    /// Every match (at most 500 listed; `matchCount` counts all), sorted by path and position.
    pub matches: Vec<TextMatch>,
    /// More matches than listed.
    pub matches_truncated: bool,
    /// Files searched.
    pub files_searched: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextMatch {
    /// In the file as it is before the replacement.
    pub location: Location,
    pub text: String,
    pub replacement: String,
    /// The match's first line before and after.
    pub line_before: String,
    pub line_after: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum UnusedKindName {
    /// Private members never referenced or never read (IDE0051, IDE0052).
    Members,
    /// Locals never used (CS0168, CS0219, IDE0059).
    Locals,
    /// Unused parameters of private methods, with their arguments (IDE0060).
    Parameters,
    /// Unnecessary using directives (CS8019).
    Usings,
}

tool_input! {
    pub struct RemoveUnusedInput(; write) {
        #[serde(default)]
        pub file_path: Option<String>,
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        pub kinds: Option<Vec<UnusedKindName>>,
        #[serde(default)]
        pub include_public: Option<bool>,
    }
}

/// What remove_unused did, or (in a preview) would do.
pub type RemoveUnusedOutput = WriteOutput<RemoveUnusedOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoveUnusedOutline {
    /// Everything removed, sorted by path and position.
    pub removed: Vec<RemovedItem>,
    pub removed_count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemovedItem {
    pub kind: UnusedKindName,
    pub name: String,
    /// The diagnostic that found it (`IDE0051`, `CS0168`, ...), or `unreferenced` (with `includePublic`).
    pub rule: String,
    pub file_path: String,
    pub line: u32,
    pub column: u32,
}
