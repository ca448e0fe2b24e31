//! change_signature (the new parameter list of a method, constructor, indexer, delegate or local function) and
//! safe_delete (what nothing references): their inputs and what their plans report besides the files.

use super::groups::tool_input;
use super::moves::FilePosition;
use super::plans::WriteOutput;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct ChangeSignatureInput(position; preview) {
        /// In order: each kept parameter (by its current name) and each added one (`add`); one left out is removed.
        pub parameters: Vec<NewParameter>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewParameter {
    /// Its current name; with `add`, the new one's.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add: Option<AddParameter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddParameter {
    #[serde(rename = "type")]
    pub type_name: String,
    /// A C# constant: makes it optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_value: Option<String>,
    /// What each call passes (else `defaultValue`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argument: Option<String>,
    /// Pass `name: argument`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named: Option<bool>,
}

/// What a change of signature did, or (in a preview) would do.
pub type ChangeSignatureOutput = WriteOutput<ChangeSignatureOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeSignatureOutline {
    /// The member as displayed before and after, e.g. `Shop.Pricing.Price(int, decimal)`.
    pub signature: String,
    pub new_signature: String,
    /// Method, Constructor, Property (an indexer), NamedType (a delegate), ...
    pub kind: String,
    /// The first declaration's name, before the change.
    pub location: FilePosition,
    /// Declarations changed: the member and the overrides, implementations and interface members with it
    /// (once per source place, however many target frameworks compile it).
    pub declarations: u32,
    /// Calls and other references of those declarations, each source place once.
    pub call_sites: u32,
    pub files_modified: u32,
    /// Text spans replaced over every file.
    pub total_edits: u32,
}

tool_input! {
    /// `filePath` with `line` and `column`: the type, member, parameter or local there (its declaration or a
    /// use); `filePath` alone: every type the file declares, and the file.
    pub struct SafeDeleteInput(place; preview) {
        #[serde(default)]
        pub include_public: Option<bool>,
    }
}

/// What safe_delete did, or (in a preview) would do.
pub type SafeDeleteOutput = WriteOutput<SafeDeleteOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SafeDeleteOutline {
    /// What goes, in source order.
    pub deleted: Vec<DeletedSymbol>,
    pub files_modified: u32,
    /// Files deleted: the file asked for, or a file left declaring nothing.
    pub files_deleted: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedSymbol {
    pub name: String,
    /// Class, Method, Property, Field, Parameter, Local, ...
    pub kind: String,
    pub fully_qualified_name: String,
    /// The first declaration's name.
    pub location: FilePosition,
}
