//! get_type_at_position, find_symbol_definition, find_type_definition, find_references.

use super::common::{Location, PositionInput, SourceSite, SymbolInfo};
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub type TypeAtPositionInput = PositionInput;
pub type SymbolDefinitionInput = PositionInput;
pub type TypeDefinitionInput = PositionInput;

tool_output! {
    pub struct TypeAtPositionOutput {
        /// Minimal display of the type: `List<string>`.
        pub symbol_name: String,
        /// `System.Collections.Generic.List<System.String>`.
        pub full_type_name: String,
        pub kind: String,
        pub assembly: String,
        pub namespace: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub documentation: Option<String>,
        pub is_generic: bool,
        pub type_arguments: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub base_type: Option<String>,
        pub interfaces: Vec<String>,
        /// Where the type is declared in the solution (several for partial types; none for metadata types).
        pub declarations: Vec<Location>,
        /// For a type from a referenced assembly: where it reads as C#.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub metadata_source: Option<super::sources::MetadataSite>,
        /// The symbol under the cursor whose type this is.
        pub symbol: SymbolInfo,
    }
}

tool_output! {
    pub struct SymbolDefinitionOutput {
        /// The first declaration; absent for symbols from referenced assemblies.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub definition_location: Option<Location>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub source_text: Option<String>,
        /// Every declaration (partial types and methods have several), sorted by path and position.
        pub locations: Vec<SourceSite>,
        /// For a symbol from a referenced assembly: where it reads as C# (its embedded source, else decompiled).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub metadata_source: Option<super::sources::MetadataSite>,
        pub symbol_info: SymbolInfo,
    }
}

tool_input! {
    pub struct FindReferencesInput(position; page "References") {
        #[serde(default)]
        pub include_declaration: Option<bool>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceItem {
    #[serde(flatten)]
    pub location: Location,
    pub line_text: String,
    /// Declaration, Invocation, ObjectCreation, Write, Read, TypeReference, NameOf, Other.
    pub kind: String,
    /// The project of the file; for a file in several (the frameworks of a multi-targeted project,
    /// `Lib(net10.0)` and `Lib(net9.0)`), the first in ordinal order, every time.
    pub project: String,
    /// For a multi-targeted project, the target frameworks whose compilation sees this place (a place inside
    /// `#if NET9_0` is seen by one), in ordinal order; absent for a project built once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frameworks: Vec<String>,
}

tool_output! {
    pub struct FindReferencesOutput {
        /// Sorted by path, line, column, end line, end column; deduplicated.
        pub references: Vec<ReferenceItem>,
        /// References in the whole result, all pages.
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
        pub symbol: SymbolInfo,
    }
}

tool_output! {
    pub struct TypeDefinitionOutput {
        /// Minimal display: `List<string>`.
        pub type_name: String,
        /// `System.Collections.Generic.List<System.String>`.
        pub full_type_name: String,
        pub kind: String,
        pub assembly: String,
        pub namespace: String,
        /// The type is declared in a referenced assembly: no locations.
        pub is_from_metadata: bool,
        /// The first declaration of the type.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub definition_location: Option<Location>,
        /// Every declaration of the type (partial types have several), sorted by path and position.
        pub locations: Vec<SourceSite>,
        /// For a type from a referenced assembly: where it reads as C# (its embedded source, else decompiled).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub metadata_source: Option<super::sources::MetadataSite>,
        /// The symbol under the cursor whose type this is.
        pub symbol: SymbolInfo,
    }
}
