//! get_document_symbols and search_symbols.

use super::common::{Location, Range};
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct DocumentSymbolsInput(; page "Symbols") {
        pub file_path: String,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

/// A declaration of the file: namespace, type, member, enum member or local function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSymbolItem {
    /// `sha256:` + hex sha256 of `filePath|name|kind|range.line:range.column|range.endLine:range.endColumn|
    /// selectionRange.line:selectionRange.column|selectionRange.endLine:selectionRange.endColumn|containerName`
    /// (empty when absent).
    pub id: String,
    pub name: String,
    pub kind: String,
    /// The whole declaration, attributes included, comments excluded.
    pub range: Range,
    /// The declared name.
    pub selection_range: Range,
    /// Name of the enclosing declaration; absent at the top level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
    /// Fully qualified: `Shop.Core.Services.PriceCalculator.Calculate(decimal)`.
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSymbolsOutput {
    pub file_path: String,
    /// Flattened (no children); sorted by range, then name, kind and container (absent last).
    pub symbols: Vec<DocumentSymbolItem>,
    pub total_count: u32,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    pub resolved_from_solution: String,
}

tool_input! {
    pub struct SearchSymbolsInput(; page "Symbols") {
        pub query: String,
        #[serde(default)]
        pub solution_path: Option<String>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolMatchItem {
    /// `sha256:` + hex sha256 of `filePath|name|kind|line:column|endLine:endColumn|containerName` (empty when
    /// absent).
    pub id: String,
    /// The symbol's own id, as `SymbolInfo.id` in other tools' answers.
    pub symbol_id: String,
    pub name: String,
    pub kind: String,
    pub fully_qualified_name: String,
    /// The containing type, else the namespace; absent in the global namespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
    /// The declared name.
    pub location: Location,
    pub source_text: String,
    pub project_assembly: String,
}

tool_output! {
    pub struct SearchSymbolsOutput {
        /// The query as searched (trimmed).
        pub query: String,
        /// Source declarations only (a partial type once per part); sorted by path, range, name, kind and
        /// container (absent last).
        pub symbols: Vec<SymbolMatchItem>,
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
    }
}
