//! change_signature (the new parameter list of a method, constructor, indexer, delegate or local function) and
//! safe_delete (what nothing references): their inputs and what their plans report besides the files.

use super::groups::tool_input;
use super::moves::FilePosition;
use super::plans::WriteOutput;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct ChangeSignatureInput(position; preview) {
        /// The new parameter list, in order: each parameter the member keeps (by its current name, optionally
        /// renamed or retyped) and each one added (with `add`). A parameter left out is removed. An extension
        /// method's `this` stays first and a `params` array last.
        #[schemars(length(max = 256))]
        pub parameters: Vec<NewParameter>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewParameter {
    /// A parameter the member has, by its current name; with `add`, the new parameter's name.
    #[schemars(length(min = 1, max = 512))]
    pub name: String,
    /// Rename this parameter: its declaration, its uses, named arguments at calls and `<param>` tags, in
    /// every override and implementation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 512))]
    pub new_name: Option<String>,
    /// Give this parameter another type (C#, as the member's file names it); refused where a call's
    /// argument no longer converts or a call would bind to another overload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1024))]
    pub new_type: Option<String>,
    /// Add a parameter named `name` here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add: Option<AddParameter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddParameter {
    /// Its type (C#, as the member's file names it), e.g. `string` or `System.Threading.CancellationToken`.
    #[serde(rename = "type")]
    #[schemars(length(min = 1, max = 1024))]
    pub type_name: String,
    /// A default value (a C# constant expression), which makes the parameter optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 4096))]
    pub default_value: Option<String>,
    /// What every existing call passes (a C# expression). Omit it, with `defaultValue`, to let the calls
    /// take the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 4096))]
    pub argument: Option<String>,
    /// Pass `argument` as a named argument, `name: argument` (default false).
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
        /// Also delete what may be used without a reference the compiler sees, kept by default: overrides,
        /// interface implementations, entry points, members with attributes (tests, serializers, reflection),
        /// a library's public API, names a Razor or XAML file mentions (default false).
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
