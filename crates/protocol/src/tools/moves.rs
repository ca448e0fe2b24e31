//! move_type_to_file and move_type_to_namespace (seed 000 §1.1, §1.2): inputs, the applied result and the
//! preview.

use super::groups::tool_input;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A C# identifier path: `Name` or `Outer.Name`.
pub const NAME_PATTERN: &str = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$";
/// An absolute Unix or Windows path of a `.cs` file.
pub const CS_PATH_PATTERN: &str = r"^[A-Za-z]:\\.*\.cs$|^/.*\.cs$";

tool_input! {
    pub struct MoveTypeToFileInput(moved; write) {
        /// Absolute path of the file to move the type into.
        #[schemars(regex(pattern = CS_PATH_PATTERN))]
        pub target_file: String,
        /// Create the target file if it does not exist (default true).
        #[serde(default)]
        pub create_target_file: Option<bool>,
    }
}

tool_input! {
    pub struct MoveTypeToNamespaceInput(moved; write) {
        /// The namespace to move the type into, e.g. `MyApp.Services`.
        #[schemars(regex(pattern = NAME_PATTERN))]
        pub target_namespace: String,
        /// Also move the file to the folder matching the namespace under its project (default false).
        #[serde(default)]
        pub update_file_location: Option<bool>,
    }
}

/// What a move did, or (in a preview) would do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum MoveOutput {
    Applied(MoveApplied),
    Preview(MovePreview),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveApplied {
    /// Always true.
    pub success: bool,
    /// Names this write in the service's log and journal.
    pub operation_id: String,
    pub changes: FileChangeSummary,
    /// sha256 (lowercase hex) of the text of every modified and created file as written, by path.
    pub checksums: BTreeMap<String, String>,
    #[serde(flatten)]
    pub outline: MoveOutline,
}

/// What both a preview and an applied move report about the move itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveOutline {
    pub symbol: MovedType,
    /// References in other places whose file needed an edit to keep binding to the type.
    pub references_updated: u32,
    pub using_directives_added: u32,
    pub using_directives_removed: u32,
    pub execution_time_ms: u64,
    pub resolved_from_solution: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileChangeSummary {
    /// Sorted absolute paths.
    pub files_modified: Vec<String>,
    pub files_created: Vec<String>,
    pub files_deleted: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MovedType {
    pub name: String,
    /// Class, Struct, Interface, Enum, Record, RecordStruct, Delegate.
    pub kind: String,
    pub fully_qualified_name: String,
    pub previous_fully_qualified_name: String,
    /// Empty for the global namespace.
    pub previous_namespace: String,
    pub new_namespace: String,
    pub previous_location: FilePosition,
    pub new_location: FilePosition,
}

/// A 1-based position of the type's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilePosition {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MovePreview {
    /// Always true.
    pub success: bool,
    /// Always true: nothing was written.
    pub preview: bool,
    pub operation_id: String,
    /// One entry per file, sorted by path.
    pub pending_changes: Vec<PendingChange>,
    #[serde(flatten)]
    pub outline: MoveOutline,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ChangeType {
    Modify,
    Create,
    Delete,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingChange {
    pub file: String,
    pub change_type: ChangeType,
    pub description: String,
    /// Unified diff against the file on disk (Modify and Delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The whole new file (Create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// sha256 of the file as it would be written (Modify and Create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// sha256 of the file on disk now (Modify and Delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_sha256: Option<String>,
}
