//! Declarations and their references: a declaration's definition is itself; its references are those
//! Roslyn's own SymbolFinder finds in a process of its own (the probe); each reference's definition lands on
//! the declaration it refers to.

use super::service::Service;
use super::{Options, Solution, all_pages, probe};
use anyhow::{Context, Result};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// References of a declaration whose definitions are asked back.
const REFERENCES_ASKED: usize = 4;

/// A declaration of the solution, as get_document_symbols lists it.
#[derive(Clone, Debug)]
pub struct Declaration {
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

/// Checks a sample of the declarations; answers every declaration of the solution, for the writes.
pub async fn check(service: &Service, solution: &Solution, options: &Options) -> Result<Vec<Declaration>> {
    let mut all = Vec::new();
    for file in &solution.documents {
        let listed = all_pages(service, "get_document_symbols", json!({"filePath": file}), "symbols").await?;
        all.extend(listed.iter().filter(|s| s["kind"] != "Namespace").filter_map(|s| declaration(file, s)));
    }
    let sample = options.sample.take(all.clone(), options.declarations, Declaration::place);
    eprintln!("stats: {} declarations, {} checked", all.len(), sample.len());
    let found = if options.probe { Some(probe::references(&solution.path, &sample)?) } else { None };
    for (index, declaration) in sample.iter().enumerate() {
        let definition = service.ok("find_symbol_definition", declaration.position()).await?;
        let id = definition["symbolInfo"]["id"].as_str().unwrap_or_default().to_owned();
        let itself =
            sites(&definition["locations"]).contains(&(declaration.file.display().to_string(), declaration.line));
        service.case(
            "a declaration's definition is itself",
            itself.then_some(()).ok_or_else(|| format!("{}: {}", declaration.place(), definition["locations"])),
        );
        let mut arguments = declaration.position();
        arguments["pageSize"] = json!(200);
        let references = all_pages(service, "find_references", arguments, "references").await?;
        if let Some(found) = &found {
            let ours: BTreeSet<String> = references.iter().map(place).collect();
            let roslyn: BTreeSet<String> = found[index].iter().cloned().collect();
            let outcome = (ours == roslyn).then_some(()).ok_or_else(|| {
                let missing: Vec<_> = roslyn.difference(&ours).take(3).collect();
                let extra: Vec<_> = ours.difference(&roslyn).take(3).collect();
                format!("{} ({}): missing {missing:?}, extra {extra:?}", declaration.place(), declaration.detail)
            });
            service.case("references equal SymbolFinder's", outcome);
        }
        let asked = options.sample.take(references, REFERENCES_ASKED, place);
        let mut related = None;
        for reference in asked {
            let at =
                json!({"filePath": reference["filePath"], "line": reference["line"], "column": reference["column"]});
            let outcome = match service.call("find_symbol_definition", at).await? {
                Ok(back) if back["symbolInfo"]["id"] == id.as_str() => Ok(()),
                Ok(back) => {
                    // SymbolFinder's references of a member take in its implementations' and overrides', and
                    // those of a type its constructors': a use of one of them is the declaration's too.
                    if related.is_none() {
                        related = Some(relatives(service, declaration).await?);
                    }
                    let symbol = &back["symbolInfo"];
                    let theirs = related
                        .as_ref()
                        .is_some_and(|r| r.contains(&symbol["id"].as_str().unwrap_or_default().to_owned()))
                        || symbol["containingType"].as_str() == Some(declaration.detail.as_str())
                            && (symbol["name"] == ".ctor" || symbol["name"] == declaration.name.as_str());
                    theirs.then_some(()).ok_or_else(|| {
                        format!("{} -> {} ({})", place(&reference), symbol["fullyQualifiedName"], declaration.detail)
                    })
                }
                Err(error) => Err(format!("{}: {}", place(&reference), error["code"])),
            };
            service.case("a reference's definition is its declaration", outcome);
        }
    }
    Ok(all)
}

fn declaration(file: &Path, symbol: &Value) -> Option<Declaration> {
    let at = &symbol["selectionRange"];
    Some(Declaration {
        file: file.to_path_buf(),
        line: at["line"].as_u64()?,
        column: at["column"].as_u64()?,
        name: symbol["name"].as_str()?.to_owned(),
        kind: symbol["kind"].as_str()?.to_owned(),
        detail: symbol["detail"].as_str().unwrap_or_default().to_owned(),
        lines: (symbol["range"]["line"].as_u64()?, symbol["range"]["endLine"].as_u64()?),
    })
}

/// `file:line:column` of a location.
pub fn place(location: &Value) -> String {
    format!("{}:{}:{}", location["filePath"].as_str().unwrap_or_default(), location["line"], location["column"])
}

/// (file, line) of each location listed.
fn sites(locations: &Value) -> Vec<(String, u64)> {
    locations
        .as_array()
        .map(|all| all.iter().filter_map(|l| Some((l["filePath"].as_str()?.to_owned(), l["line"].as_u64()?))).collect())
        .unwrap_or_default()
}

/// The ids of the symbols that implement or override the declaration's.
async fn relatives(service: &Service, declaration: &Declaration) -> Result<Vec<String>> {
    let mut arguments = declaration.position();
    arguments["pageSize"] = json!(200);
    let found = all_pages(service, "find_implementations", arguments, "implementations").await?;
    Ok(found.iter().filter_map(|i| i["id"].as_str().map(str::to_owned)).collect())
}

impl Service {
    /// One case of `invariant`.
    pub fn case(&self, invariant: &str, outcome: std::result::Result<(), String>) {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).case(invariant, outcome);
    }
}

/// The lines of `file` (1-based `first..=last`).
pub fn lines(file: &std::path::Path, (first, last): (u64, u64)) -> Result<String> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Ok(text.lines().skip(first as usize - 1).take((last - first + 1) as usize).collect::<Vec<_>>().join("\n"))
}
