//! What can be checked of the broker's shape: every module says what it is (a `//!` line first), every module
//! is named in ARCHITECTURE.md, the imports between its top-level modules form no cycle, and none imports a
//! layer above its own (the layers as ARCHITECTURE.md lists them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, with its module path (`tools::moves::input`; the crate root is `main`).
fn modules(dir: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("read src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(dir).expect("under src").with_extension("");
                let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if parts.last().is_some_and(|l| l == "mod") && parts.len() > 1 {
                    parts.pop();
                }
                found.insert(parts.join("::"), path);
            }
        }
    }
    found
}

/// The top-level modules a file's code names through `crate::` paths (`crate::a::b`, `crate::{a, b}`);
/// comments, doc links included, are not imports.
fn imports(text: &str, top_level: &BTreeSet<String>) -> BTreeSet<String> {
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let text = code.as_str();
    let mut named = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
            None => vec![rest],
        };
        for name in names {
            let name = name.trim();
            let end = name.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(name.len());
            if top_level.contains(&name[..end]) {
                named.insert(name[..end].to_owned());
            }
        }
    }
    named
}

fn architecture() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ARCHITECTURE.md")).expect("read")
}

/// The top-level modules a module imports, by module (`tools::moves` counts as `tools`).
fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let all = modules(&src());
    let top_level: BTreeSet<String> =
        all.keys().map(|m| m.split("::").next().unwrap_or(m).to_owned()).filter(|m| m != "main").collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, path) in &all {
        let from = name.split("::").next().unwrap_or(name).to_owned();
        let text = std::fs::read_to_string(path).expect("module");
        let to: Vec<String> = imports(&text, &top_level).into_iter().filter(|t| *t != from).collect();
        edges.entry(from).or_default().extend(to);
    }
    edges
}

/// The layers of "Layers of the broker", top down: each bullet's name and the modules in its parentheses.
fn layers(architecture: &str) -> Vec<(String, BTreeSet<String>)> {
    let section = architecture.split("### Layers of the broker").nth(1).expect("the layers section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut bullets: Vec<String> = Vec::new();
    for line in section.lines() {
        if line.starts_with("- **") {
            bullets.push(line.to_owned());
        } else if let (Some(last), true) = (bullets.last_mut(), line.starts_with("  ")) {
            last.push_str(line);
        }
    }
    bullets
        .iter()
        .map(|bullet| {
            let name = bullet.split("**").nth(1).unwrap_or_default().to_owned();
            let listed =
                bullet.split_once('(').and_then(|(_, rest)| rest.split_once(')')).map(|(l, _)| l).unwrap_or("");
            let modules = listed
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|m| m.trim_end_matches('/').trim_end_matches(".rs").to_owned())
                .collect();
            (name, modules)
        })
        .collect()
}

#[test]
fn every_module_starts_by_saying_what_it_is() {
    let missing: Vec<String> = modules(&src())
        .into_iter()
        .filter(|(_, path)| !std::fs::read_to_string(path).expect("module").starts_with("//!"))
        .map(|(name, _)| name)
        .collect();
    assert!(missing.is_empty(), "modules without a `//!` line first: {missing:?}");
}

#[test]
fn every_module_is_named_in_the_architecture() {
    let architecture = architecture();
    let missing: Vec<String> = modules(&src())
        .into_keys()
        .filter(|name| {
            let leaf = name.rsplit("::").next().unwrap_or(name);
            name != "main"
                && !architecture.contains(&format!("{leaf}.rs"))
                && !architecture.contains(&format!("{leaf}/"))
        })
        .collect();
    assert!(missing.is_empty(), "modules ARCHITECTURE.md does not name (as `<name>.rs` or `<name>/`): {missing:?}");
}

#[test]
fn every_module_imports_only_its_own_layer_and_those_below() {
    let layers = layers(&architecture());
    let names: Vec<&str> = layers.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["Entry", "Roles", "Server", "Tools", "Services", "Telemetry", "Leaves"]);
    let layer_of = |module: &str| layers.iter().position(|(_, modules)| modules.contains(module));
    let mut wrong = Vec::new();
    for (from, imported) in edges() {
        let Some(own) = layer_of(&from) else {
            wrong.push(format!("{from} is in no layer"));
            continue;
        };
        for to in imported {
            let theirs = layer_of(&to);
            // A role never uses another: the bridge and the daemon meet only in a leaf.
            if theirs.is_none_or(|theirs| theirs < own || (theirs == own && names[own] == "Roles")) {
                wrong.push(format!(
                    "{from} ({}) imports {to} ({})",
                    names[own],
                    theirs.map_or("no layer", |t| names[t])
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers of ARCHITECTURE.md: {wrong:#?}");
}

#[test]
fn the_top_level_modules_import_each_other_without_a_cycle() {
    let edges = edges();
    // Depth-first search; a node met again on the current path closes a cycle.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if !done.insert(node.to_owned()) {
            return None;
        }
        path.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if let Some(cycle) = visit(node, &edges, &mut Vec::new(), &mut done) {
            panic!("the broker's modules import each other in a cycle: {}", cycle.join(" -> "));
        }
    }
}
