//! get_available_members and get_method_overloads.

use super::common::{SourceSite, SymbolInfo};
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub type MethodOverloadsInput = super::PositionInput;

tool_input! {
    pub struct AvailableMembersInput(position; page "Members") {
        #[serde(default)]
        pub include_extension_methods: Option<bool>,
        #[serde(default)]
        pub include_static: Option<bool>,
        #[serde(default)]
        pub filter: Option<String>,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParameterItem {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documentation: Option<String>,
}

/// A member with its signature: a method, property, field, event or nested type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberItem {
    #[serde(flatten)]
    pub symbol: SymbolInfo,
    /// Minimal C# signature: `void Add(string item)`, `string Name { get; set; }`.
    pub signature: String,
    pub declaring_type: String,
    pub accessibility: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documentation: Option<String>,
    pub parameters: Vec<ParameterItem>,
    /// Return type of a method (absent for `void`), type of a property, field or event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_type: Option<String>,
    pub is_extension: bool,
    pub is_static: bool,
    pub is_async: bool,
    /// Where it is declared in the solution; absent for members of referenced assemblies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
}

tool_output! {
    pub struct AvailableMembersOutput {
        /// The type whose members are listed: of the expression or variable at the position, or the type named
        /// there.
        pub receiver_type: SymbolInfo,
        /// Sorted by name, kind, signature and id.
        pub members: Vec<MemberItem>,
        /// Accessible members before `filter`.
        pub total_count: u32,
        /// Members after `filter`, all pages.
        pub filtered_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
    }
}

tool_output! {
    pub struct MethodOverloadsOutput {
        /// The method at the position.
        pub method: SymbolInfo,
        /// Every method of that name on its type and base types (constructors of the type for a constructor),
        /// sorted by parameter count, then signature.
        pub overloads: Vec<MemberItem>,
        pub count: u32,
    }
}
