//! read_source, get_symbol_source, list_generated_documents, and the place a referenced assembly's symbol
//! reads at.

use super::Location;
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The virtual paths of a referenced assembly's types: `<assembly>/<version>/<Namespace.Type>.cs` follows.
pub const METADATA_SCHEME: &str = "roslyn-mcp://metadata/";
/// The virtual paths of source generators' documents: `<project>/<project id>/<generator>/<hint name>` follows,
/// the project id the first 16 hex digits of the sha256 of the project file's path.
pub const GENERATED_SCHEME: &str = "roslyn-mcp://generated/";

/// Where a symbol of a referenced assembly reads as C#: read_source answers its virtual path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MetadataSite {
    #[serde(flatten)]
    pub location: Location,
    /// The line's text, trimmed.
    pub source_text: String,
    /// `embeddedSource` (the file the assembly's PDB carries) or `decompiled` (ICSharpCode.Decompiler).
    pub origin: String,
}

tool_input! {
    pub struct ReadSourceInput(;) {
        pub path: String,
        #[serde(default)]
        #[schemars(range(min = 1))]
        pub start_line: Option<u32>,
        #[serde(default)]
        #[schemars(range(min = 1, max = 2000))]
        pub line_count: Option<u32>,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

tool_output! {
    pub struct ReadSourceOutput {
        pub path: String,
        /// `file`, `generated`, `embeddedSource` or `decompiled`.
        pub origin: String,
        /// The generator that wrote a generated document.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub generator: Option<String>,
        /// The assembly a metadata document reads (`Name, Version=..., ...`).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub assembly: Option<String>,
        /// The lines returned, `startLine` to `endLine` inclusive, joined with `\n`.
        pub text: String,
        pub start_line: u32,
        pub end_line: u32,
        pub total_lines: u32,
        /// Pass it as `startLine` for the lines that follow; absent at the end.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub next_start_line: Option<u32>,
    }
}

tool_input! {
    pub struct SymbolSourceInput(;) {
        pub symbols: Vec<String>,
        #[serde(default)]
        pub signatures_only: Option<bool>,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

tool_output! {
    pub struct SymbolSourceOutput {
        /// One per name asked, in that order.
        pub symbols: Vec<SymbolSourceEntry>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolSourceEntry {
    pub name: String,
    /// Each symbol the name matches (every overload), each of its declarations (partial types have several).
    pub declarations: Vec<SymbolSource>,
    /// Why the name matched nothing (SYMBOL_NOT_FOUND), or why its declarations are left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<EntryError>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryError {
    pub code: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolSource {
    pub symbol: super::SymbolInfo,
    /// The whole declaration.
    pub location: Location,
    /// `file`, `generated`, `embeddedSource` or `decompiled`.
    pub origin: String,
    /// The declaration as written, with its documentation comment, indentation removed.
    pub text: String,
}

tool_input! {
    pub struct GeneratedDocumentsInput(;) {
        pub project: String,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

tool_output! {
    pub struct GeneratedDocumentsOutput {
        /// Sorted by project, framework, generator and hint name.
        pub documents: Vec<GeneratedDocumentItem>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneratedDocumentItem {
    /// The project file.
    pub project: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework: Option<String>,
    /// The generator's type, fully qualified.
    pub generator: String,
    pub generator_assembly: String,
    pub hint_name: String,
    /// The virtual path read_source answers.
    pub path: String,
    /// Characters of text.
    pub length: u32,
    pub lines: u32,
}
