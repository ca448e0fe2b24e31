//! What can be checked of the crates' shape, against ARCHITECTURE.md: every module says what it is (a `//!`
//! line first), and in each crate with a "Layers of" section the top-level modules import each other without a
//! cycle and none imports a layer above its own (a layer whose rule says "Never on each other" not even its
//! own). Imports are read from `crate::` and `super::` paths, nested groups included; test modules are not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate whose layers ARCHITECTURE.md gives under `### Layers of <heading>`.
struct Checked {
    dir: &'static str,
    heading: &'static str,
    /// Every module must be named in ARCHITECTURE.md (as `<name>.rs` or `<name>/`).
    named: bool,
}

const CRATES: [Checked; 6] = [
    Checked { dir: "crates/broker", heading: "the broker", named: true },
    Checked { dir: "crates/workspace-actor", heading: "workspace-actor", named: true },
    Checked { dir: "crates/roslyn-host", heading: "roslyn-host", named: true },
    Checked { dir: "crates/protocol", heading: "protocol", named: false },
    Checked { dir: "crates/paths", heading: "paths", named: true },
    Checked { dir: "xtask", heading: "xtask", named: false },
];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn architecture() -> String {
    std::fs::read_to_string(repository().join("ARCHITECTURE.md")).expect("read ARCHITECTURE.md")
}

/// Every file under `dir` whose name ends in `.<extension>`.
fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for path in std::fs::read_dir(&folder).expect("read folder").flatten().map(|e| e.path()) {
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found
}

/// Every `.rs` file under a crate's `src`, by module path (`tools::moves::input`; the root is `main` or `lib`).
fn modules(krate: &str) -> BTreeMap<Vec<String>, PathBuf> {
    let src = repository().join(krate).join("src");
    let mut found = BTreeMap::new();
    for path in files(&src, "rs") {
        let relative = path.strip_prefix(&src).expect("under src").with_extension("");
        let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if parts.last().is_some_and(|l| l == "mod") && parts.len() > 1 {
            parts.pop();
        }
        found.insert(parts, path);
    }
    found
}

fn is_root(module: &[String]) -> bool {
    module.len() == 1 && (module[0] == "main" || module[0] == "lib")
}

/// The module's own code: comments and its `#[cfg(test)]` module left out.
fn code(text: &str) -> String {
    let text = text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or(text);
    // Comment lines are blanked rather than dropped, so that line numbers stay the file's.
    text.lines().map(|l| if l.trim_start().starts_with("//") { "" } else { l }).collect::<Vec<_>>().join("\n")
}

/// The first names of each path in a `use` tree that starts at `rest` (after `crate::` or `super::`):
/// `a::b` gives `a`, `{a::{b, c}, d}` gives `a` and `d`.
fn heads(rest: &str) -> Vec<String> {
    let Some(group) = rest.strip_prefix('{') else {
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        return vec![rest[..end].to_owned()];
    };
    let (mut depth, mut start, mut items) = (0, 0, Vec::new());
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.into_iter().flat_map(|item| heads(item.trim())).collect()
}

/// The top-level modules `module` (at `path`) names, each with the line that names it.
fn imports(module: &[String], text: &str, top_level: &BTreeSet<String>) -> Vec<(String, usize)> {
    let code = code(text);
    let mut found = Vec::new();
    for (prefix, parent) in [("crate::", Some(&[][..])), ("super::", module.split_last().map(|(_, p)| p))] {
        let Some(parent) = parent else { continue };
        for (at, _) in code.match_indices(prefix) {
            // `super::super::` and `crate::` inside another path are left to the compiler.
            if code[..at].ends_with("::") || code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            for head in heads(&code[at + prefix.len()..]) {
                let top = parent.first().cloned().unwrap_or(head);
                if top_level.contains(&top) {
                    found.push((top, line));
                }
            }
        }
    }
    found
}

/// Who imports whom among a crate's top-level modules (the root re-exports all and is left out): for each
/// edge, the first file and line that makes it.
fn edges(krate: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let all = modules(krate);
    let top_level: BTreeSet<String> = all.keys().filter(|m| !is_root(m)).map(|m| m[0].clone()).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (module, path) in all.iter().filter(|(m, _)| !is_root(m)) {
        let from = module[0].clone();
        let text = std::fs::read_to_string(path).expect("module");
        let entry = edges.entry(from.clone()).or_default();
        for (to, line) in imports(module, &text, &top_level) {
            let at = format!("{}:{line}", path.strip_prefix(repository()).unwrap_or(path).display());
            if to != from {
                entry.entry(to).or_insert(at);
            }
        }
    }
    edges
}

/// A layer of a crate: its name, its modules, and whether they may import each other.
struct Layer {
    name: String,
    modules: BTreeSet<String>,
    apart: bool,
}

/// The layers of `### Layers of <heading>`, top down: each bullet's name and the modules in its parentheses.
fn layers(architecture: &str, heading: &str) -> Vec<Layer> {
    let title = format!("### Layers of {heading}\n");
    let section = architecture.split(&title).nth(1).unwrap_or_else(|| panic!("ARCHITECTURE.md has no `{title}`"));
    let section = section.split("\n#").next().unwrap_or(section);
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
            Layer { name, modules, apart: bullet.contains("Never on each other") }
        })
        .collect()
}

#[test]
fn every_module_starts_by_saying_what_it_is() {
    let missing: Vec<String> = CRATES
        .iter()
        .flat_map(|c| modules(c.dir).into_values())
        .filter(|path| !std::fs::read_to_string(path).expect("module").starts_with("//!"))
        .map(|path| path.display().to_string())
        .collect();
    assert!(missing.is_empty(), "modules without a `//!` line first: {missing:#?}");
}

#[test]
fn every_module_is_named_in_the_architecture() {
    let architecture = architecture();
    let missing: Vec<String> = CRATES
        .iter()
        .filter(|c| c.named)
        .flat_map(|c| modules(c.dir).into_keys().filter(|m| !is_root(m)).map(move |m| (c.dir, m)))
        .filter(|(_, module)| {
            let leaf = module.last().expect("a name");
            !architecture.contains(&format!("{leaf}.rs")) && !architecture.contains(&format!("{leaf}/"))
        })
        .map(|(dir, module)| format!("{dir}: {}", module.join("::")))
        .collect();
    assert!(missing.is_empty(), "modules ARCHITECTURE.md does not name (as `<name>.rs` or `<name>/`): {missing:#?}");
}

#[test]
fn every_module_imports_only_its_own_layer_and_those_below() {
    let architecture = architecture();
    let mut wrong = Vec::new();
    for checked in &CRATES {
        let layers = layers(&architecture, checked.heading);
        let layer_of = |module: &str| layers.iter().position(|l| l.modules.contains(module));
        for (from, imported) in edges(checked.dir) {
            let Some(own) = layer_of(&from) else {
                wrong.push(format!("{}: `{from}` is in no layer: add it to one in ARCHITECTURE.md", checked.dir));
                continue;
            };
            for (to, at) in imported {
                let theirs = layer_of(&to);
                if theirs.is_none_or(|theirs| theirs < own || (theirs == own && layers[own].apart)) {
                    let their_name = theirs.map_or("no layer", |t| layers[t].name.as_str());
                    wrong.push(format!(
                        "{at}: `{from}` ({}) imports `{to}` ({their_name}): move what it uses down to `{from}`'s \
                         layer or below, or hand it in from above",
                        layers[own].name
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers of ARCHITECTURE.md: {wrong:#?}");
}

#[test]
fn no_crate_has_a_cycle_among_its_top_level_modules() {
    // Depth-first search; a node met again on the current path closes a cycle.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
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
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    for checked in &CRATES {
        let edges = edges(checked.dir);
        let mut done = BTreeSet::new();
        for node in edges.keys() {
            if let Some(cycle) = visit(node, &edges, &mut Vec::new(), &mut done) {
                let links: Vec<String> =
                    cycle.windows(2).map(|w| format!("{} ({})", w[0], edges[&w[0]][&w[1]])).collect();
                panic!(
                    "{}: modules import each other in a cycle: {}: move what one uses into a module below both",
                    checked.dir,
                    links.join(" -> ")
                );
            }
        }
    }
}

/// The C# host: each top-level folder of `crates/roslyn-host/host` is a namespace (`Handlers/` is
/// `RoslynMcp.Host.Handlers` and its sub-namespaces), layered by `### Layers of the host`; a file's dependencies
/// are the `RoslynMcp.Host.<Folder>` namespaces its code names.
#[test]
fn the_hosts_namespaces_import_only_their_own_layer_and_those_below() {
    let layers = layers(&architecture(), "the host");
    let layer_of = |folder: &str| layers.iter().position(|l| l.modules.contains(folder));
    let host = repository().join("crates/roslyn-host/host");
    let mut wrong = Vec::new();
    for (own, layer) in layers.iter().enumerate() {
        for folder in &layer.modules {
            for path in files(&host.join(folder), "cs") {
                let text = std::fs::read_to_string(&path).expect("C# file");
                for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with("//")) {
                    for (at, _) in line.match_indices("RoslynMcp.Host.") {
                        let rest = &line[at + "RoslynMcp.Host.".len()..];
                        let named = &rest[..rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len())];
                        let Some(theirs) = layer_of(named) else { continue };
                        if theirs < own || (theirs == own && named != folder && layer.apart) {
                            let file = path.strip_prefix(repository()).unwrap_or(&path).display().to_string();
                            wrong.push(format!(
                                "{file}:{}: {folder}/ ({}) uses {named}/ ({}): move what it uses down to {folder}/'s \
                                 layer or below",
                                number + 1,
                                layer.name,
                                layers[theirs].name
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "namespaces against the host's layers in ARCHITECTURE.md: {wrong:#?}");
}

#[test]
fn the_reader_sees_nested_groups_and_super() {
    let top: BTreeSet<String> = ["a", "b", "c", "d"].map(str::to_owned).into();
    let text = "use crate::{a::{x, y}, b};\nuse super::c::Z;\nfn f() { other_crate::d::g(); }\n";
    let named: Vec<String> = imports(&["e".to_owned()], text, &top).into_iter().map(|(m, _)| m).collect();
    assert_eq!(named, ["a", "b", "c"]);
    let nested: Vec<String> = imports(&["d".to_owned(), "inner".to_owned()], "use super::sibling;", &top)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert_eq!(nested, ["d"], "`super::` of a nested module is its own top-level module");
}
