//! move_type_to_file and move_type_to_namespace (seed 000 §1.1, §1.2): inputs, the applied result and the
//! preview.

pub use super::groups::NAME_PATTERN;
use super::groups::tool_input;
use super::plans::WriteOutput;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct MoveTypeToFileInput(moved; write) {
        pub target_file: String,
        #[serde(default)]
        pub create_target_file: Option<bool>,
    }
}

tool_input! {
    pub struct MoveTypeToNamespaceInput(moved; write) {
        #[schemars(regex(pattern = NAME_PATTERN))]
        pub target_namespace: String,
        #[serde(default)]
        pub update_file_location: Option<bool>,
    }
}

/// What a move did, or (in a preview) would do.
pub type MoveOutput = WriteOutput<MoveOutline>;

/// What a move's preview and its applied write report about the move itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveOutline {
    pub symbol: MovedType,
    /// References in other places whose file needed an edit to keep binding to the type.
    pub references_updated: u32,
    pub using_directives_added: u32,
    pub using_directives_removed: u32,
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
