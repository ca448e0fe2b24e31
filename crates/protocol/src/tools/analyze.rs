//! analyze_code_block.

use super::common::{Range, SymbolInfo, SymbolItem};
use super::diagnostics::SeverityName;
use super::groups::tool_output;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnalyzeCodeBlockInput {
    pub file_path: String,
    #[schemars(range(min = 1))]
    pub line: u32,
    #[schemars(range(min = 1))]
    pub column: u32,
    pub code: String,
    #[serde(default)]
    pub solution_path: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnippetDiagnostic {
    /// `sha256:` + hex sha256 of `snippet|line:column|endLine:endColumn|severity|code|message`.
    pub id: String,
    /// Compiler id, e.g. `CS0103`.
    pub code: String,
    pub severity: SeverityName,
    pub message: String,
    /// Relative to the snippet: its first line is line 1; on that line, column 1 is its first character.
    pub range: Range,
}

tool_output! {
    pub struct AnalyzeCodeBlockOutput {
        /// No error-severity diagnostics in the snippet.
        pub compiles: bool,
        /// Sorted by position, severity (errors first), code and message.
        pub diagnostics: Vec<SnippetDiagnostic>,
        pub error_count: u32,
        pub warning_count: u32,
        /// Symbols the snippet declares, sorted by fully qualified name and kind.
        pub declared_symbols: Vec<SymbolInfo>,
        /// Symbols of the solution or its references the snippet uses, sorted by fully qualified name and kind.
        pub used_symbols: Vec<SymbolItem>,
    }
}
