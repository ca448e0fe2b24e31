//! Shapes shared by several tools.

use super::groups::tool_input;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A range in a source file: 1-based, end exclusive, absolute path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// The file, or for what has no file a virtual path that read_source answers:
    /// `roslyn-mcp://generated/<project>/<project id>/<generator>/<hint name>` for a source generator's document,
    /// `roslyn-mcp://metadata/<assembly>/<version>/<Namespace.Type>.cs` for a referenced assembly's type.
    pub file_path: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// A source generator wrote the document (`filePath` is virtual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<bool>,
    /// The generator's type, fully qualified, for a generated document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
}

impl Location {
    pub fn range(&self) -> Range {
        Range { line: self.line, column: self.column, end_line: self.end_line, end_column: self.end_column }
    }
}

/// A range inside a file named elsewhere: 1-based, end exclusive.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Range {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// A declaration or use in the solution with the text of its line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SourceSite {
    #[serde(flatten)]
    pub location: Location,
    /// The line's text, trimmed.
    pub source_text: String,
}

/// What a symbol is, wherever it is declared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolInfo {
    /// Stable id: `sha256:` + hex sha256 of `symbol|<assembly>|<key>`, where key is the documentation comment
    /// id (`T:Shop.Core.Models.Customer`), or for locals and parameters `<kind>|<display>|<file>:<line>:<column>`.
    pub id: String,
    pub name: String,
    /// Class, Struct, Interface, Enum, Delegate, Record, Method, Property, Field, Local, Parameter, ...
    pub kind: String,
    /// Fully qualified, with parameter types for methods: `Shop.Core.Services.PriceCalculator.Calculate(decimal)`.
    pub fully_qualified_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub containing_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub containing_namespace: Option<String>,
    pub assembly: String,
    /// Declared in a referenced assembly rather than in the solution's source.
    pub is_from_metadata: bool,
}

tool_input! {
    /// The position arguments every position-based tool takes.
    pub struct PositionInput(position;) {}
}

/// A symbol with its first declaration in the solution (none for symbols from referenced assemblies).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SymbolItem {
    #[serde(flatten)]
    pub symbol: SymbolInfo,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
}
