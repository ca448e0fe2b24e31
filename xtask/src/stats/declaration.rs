//! A declaration of the solution, the unit the checks sample and the probe answers for; the solution's
//! documents are the files the service lists declarations of.

use super::service::{Service, refusal};
use super::{Solution, all_pages};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Every declaration of the solution; `solution.documents` becomes the `files` the service holds as documents.
/// A file on disk that no project compiles (`<Compile Remove>`, a test's `*.verified.cs` snapshot) is none; a
/// document the service fails to list is a failed case.
pub async fn list(service: &Service, solution: &mut Solution, files: Vec<PathBuf>) -> Vec<Declaration> {
    let mut all = Vec::new();
    for file in files {
        let key = solution.relative(&file);
        match all_pages(service, "get_document_symbols", json!({"filePath": file}), "symbols").await {
            Ok(listed) => {
                service.case("a document's declarations are listed", Ok(()));
                let declared = listed.iter().filter(|s| s["kind"] != "Namespace");
                all.extend(declared.filter_map(|s| declaration(&file, &key, s)));
                solution.documents.push(file);
            }
            Err(error) if error["code"] == "SOURCE_NOT_IN_WORKSPACE" => {}
            Err(error) => service.case("a document's declarations are listed", Err(refusal(&key, &error))),
        }
    }
    all
}

fn declaration(file: &Path, key: &str, symbol: &Value) -> Option<Declaration> {
    let at = &symbol["selectionRange"];
    Some(Declaration {
        key: format!("{key}:{}:{}", at["line"], at["column"]),
        file: file.to_path_buf(),
        line: at["line"].as_u64()?,
        column: at["column"].as_u64()?,
        name: symbol["name"].as_str()?.to_owned(),
        kind: symbol["kind"].as_str()?.to_owned(),
        detail: symbol["detail"].as_str().unwrap_or_default().to_owned(),
        lines: (symbol["range"]["line"].as_u64()?, symbol["range"]["endLine"].as_u64()?),
    })
}

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
