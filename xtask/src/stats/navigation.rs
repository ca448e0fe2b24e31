//! Declarations and their references: a declaration's definition is itself; its references are those
//! Roslyn's own SymbolFinder finds in a process of its own (the probe); each reference's definition is the
//! symbol SymbolFinder found it under (the declaration's own, or one its references take in: an overridden or
//! implemented member, a constructor).

pub use super::declaration::Declaration;
use super::service::{Service, refusal};
use super::{Options, Solution, all_pages, probe};
use anyhow::{Context, Result};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The service's builds of generators the repository has not built, as diagnose names them: (assembly, build).
async fn generator_builds(service: &Service, solution: &Solution) -> Vec<(String, String)> {
    let diagnose = service.call("diagnose", json!({"solutionPath": solution.path})).await.unwrap_or_default();
    let generators = diagnose["workspaces"][0]["generators"].as_array().cloned().unwrap_or_default();
    generators
        .iter()
        .filter_map(|g| {
            Some((g["assembly"].as_str()?.to_owned(), g["built"].as_str().filter(|b| !b.is_empty())?.to_owned()))
        })
        .collect()
}

/// References of a declaration whose definitions are asked back.
const REFERENCES_ASKED: usize = 4;

/// Checks a sample of the declarations.
pub async fn check(service: &Service, solution: &Solution, options: &Options, all: &[Declaration]) -> Result<()> {
    let sample = options.sample.take(all.to_vec(), options.declarations, |d| d.key.clone());
    eprintln!("stats: {} declarations, {} checked", all.len(), sample.len());
    let found = match options.probe {
        true => Some(probe::references(&solution.path, &sample, &generator_builds(service, solution).await)?),
        false => None,
    };
    for (index, declaration) in sample.iter().enumerate() {
        let place = declaration.place();
        let answer = service.call("find_symbol_definition", declaration.position()).await;
        service.judged("a declaration's definition is itself", &place, answer, |definition| {
            let site = (declaration.file.display().to_string(), declaration.line);
            sites(&definition["locations"])
                .contains(&site)
                .then_some(())
                .ok_or_else(|| format!("{place}: {}", definition["locations"]))
        });
        let mut arguments = declaration.position();
        arguments["pageSize"] = json!(200);
        let references = all_pages(service, "find_references", arguments, "references").await;
        let Some(found) = found.as_ref().map(|found| &found[index]) else { continue };
        let references = match references {
            Ok(references) => references,
            Err(error) => {
                service.case("references equal SymbolFinder's", Err(refusal(&place, &error)));
                continue;
            }
        };
        let ours: BTreeSet<String> = references.iter().map(self::place).collect();
        let roslyn: BTreeSet<String> = found.keys().cloned().collect();
        let outcome = (ours == roslyn).then_some(()).ok_or_else(|| {
            let missing: Vec<_> = roslyn.difference(&ours).take(3).collect();
            let extra: Vec<_> = ours.difference(&roslyn).take(3).collect();
            format!("{place} ({}): missing {missing:?}, extra {extra:?}", declaration.detail)
        });
        service.case("references equal SymbolFinder's", outcome);
        let asked = options.sample.take(references, REFERENCES_ASKED, |r| solution.relative_place(r));
        // Positions are asked in the solution's files and in generated documents (by their virtual paths); a
        // referenced assembly's document holds no reference of the solution's symbols.
        let asked = asked
            .into_iter()
            .filter(|r| r["filePath"].as_str().is_some_and(|f| !f.starts_with("roslyn-mcp://metadata/")));
        for reference in asked {
            let at = self::place(&reference);
            let Some(wanted) = found.get(&at) else { continue };
            let position =
                json!({"filePath": reference["filePath"], "line": reference["line"], "column": reference["column"]});
            let answer = service.call("find_symbol_definition", position).await;
            service.judged("a reference's definition is the symbol SymbolFinder found it under", &at, answer, |back| {
                let symbol = &back["symbolInfo"];
                lands(symbol, wanted)
                    .then_some(())
                    .ok_or_else(|| format!("{at} -> {}, not {wanted}", symbol["fullyQualifiedName"]))
            });
        }
    }
    Ok(())
}

/// Whether the symbol a definition answers is `wanted` (a fully qualified name), or a type and a constructor of
/// it the one way or the other (`new T()` is found under the constructor, `T` is where a default one leads), or
/// a conversion operator to `wanted` (`implicit operator Wrapper(Block block)`: the name is the operator's own
/// place, as document symbols and an IDE have it, and SymbolFinder counts it a use of the type too).
fn lands(symbol: &Value, wanted: &str) -> bool {
    let answered = symbol["fullyQualifiedName"].as_str().unwrap_or_default();
    answered == wanted
        || constructs(answered, wanted)
        || constructs(wanted, answered)
        || answered.contains(&format!("operator {wanted}("))
}

/// Whether `constructor` (`A.B.B(int)`) is a constructor of the type `type` (`A.B`).
fn constructs(constructor: &str, type_name: &str) -> bool {
    let name = type_name.rsplit('.').next().unwrap_or(type_name);
    let name = name.split('<').next().unwrap_or(name);
    constructor
        .strip_prefix(type_name)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest.strip_prefix(name).is_some_and(|parameters| parameters.starts_with('(')))
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

/// The lines of `file` (1-based `first..=last`).
pub fn lines(file: &std::path::Path, (first, last): (u64, u64)) -> Result<String> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Ok(text.lines().skip(first as usize - 1).take((last - first + 1) as usize).collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_and_its_constructors_land_on_each_other_and_nothing_else_does() {
        let symbol = |name: &str| json!({"fullyQualifiedName": name});
        assert!(lands(&symbol("A.Point"), "A.Point.Point()"));
        assert!(lands(&symbol("A.Point.Point(int, int)"), "A.Point"));
        assert!(lands(&symbol("A.Point.Move(int)"), "A.Point.Move(int)"));
        assert!(!lands(&symbol("A.Point.Move(int)"), "A.Point"), "a method is no constructor");
        assert!(!lands(&symbol("A.PointX.PointX()"), "A.Point"));
        assert!(lands(&symbol("A.Key<T>"), "A.Key<T>.Key()"), "a generic type's default constructor");
        assert!(lands(&symbol("A.Wrapper.implicit operator A.Wrapper(A.Block)"), "A.Wrapper"));
        assert!(!lands(&symbol("A.Wrapper.implicit operator A.Block(A.Wrapper)"), "A.Wrapper"));
    }
}
