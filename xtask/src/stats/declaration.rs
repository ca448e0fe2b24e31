//! A declaration of the solution, the unit the checks sample and the probe answers for.

use serde_json::{Value, json};
use std::path::PathBuf;

/// A declaration of the solution, as get_document_symbols lists it.
#[derive(Clone, Debug)]
pub struct Declaration {
    /// Where it is, from the solution's folder: what a sample is drawn by, wherever the solution lies.
    pub key: String,
    pub file: PathBuf,
    pub line: u64,
    pub column: u64,
    pub name: String,
    pub kind: String,
    /// Fully qualified, with parameter types.
    pub detail: String,
    /// The whole declaration's lines.
    pub lines: (u64, u64),
}

impl Declaration {
    pub fn place(&self) -> String {
        format!("{}:{}:{}", self.file.display(), self.line, self.column)
    }

    pub fn position(&self) -> Value {
        json!({"filePath": self.file, "line": self.line, "column": self.column})
    }
}
