//! What can be checked of the crates' shape, against ARCHITECTURE.md: every module says what it is (a `//!`
//! line first), and in each crate with a "Layers of" section the top-level modules import each other without a
//! cycle and none imports a layer above its own (a layer whose rule says "Never on each other" not even its
//! own). Imports are read from `crate::` and `super::` paths, nested groups included; test modules are not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate and the folders whose layers ARCHITECTURE.md gives, each under `### Layers of <heading>`: the crate
/// itself (no folder) and any folder of it whose modules are layered too.
struct Checked {
    dir: &'static str,
    layered: &'static [(&'static [&'static str], &'static str)],
}

const CRATES: [Checked; 6] = [
    Checked { dir: "crates/broker", layered: &[(&[], "the broker"), (&["tools"], "the broker's tools")] },
    Checked { dir: "crates/workspace-actor", layered: &[(&[], "workspace-actor")] },
    Checked { dir: "crates/roslyn-host", layered: &[(&[], "roslyn-host")] },
    Checked { dir: "crates/protocol", layered: &[(&[], "protocol")] },
    Checked { dir: "crates/paths", layered: &[(&[], "paths")] },
    Checked { dir: "xtask", layered: &[(&[], "xtask")] },
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

/// Every path of a `use` tree that starts at `rest` (after `crate::` or `super::`), as far as it names modules:
/// `a::b` gives `[a, b]`, `{a::{b, c}, d}` gives `[a, b]`, `[a, c]` and `[d]`.
fn paths(rest: &str) -> Vec<Vec<String>> {
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    if name.is_empty() {
        let Some(group) = rest.strip_prefix('{') else { return vec![vec![]] };
        let (mut depth, mut start, mut found) = (0, 0, Vec::new());
        for (at, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    found.extend(paths(group[start..at].trim()));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    found.extend(paths(group[start..at].trim()));
                    start = at + 1;
                }
                _ => {}
            }
        }
        return found;
    }
    let tails = after.strip_prefix("::").map_or_else(|| vec![vec![]], paths);
    tails.into_iter().map(|tail| std::iter::once(name.to_owned()).chain(tail).collect()).collect()
}

/// The units below `within` that `module` (of text `text`) names, each with the line that names it: a unit is
/// the module one level below `within` that a path into it passes through. Paths are read after `crate::` and
/// after `super::` (repeated or not).
fn imports(module: &[String], text: &str, within: &[String], units: &BTreeSet<String>) -> Vec<(String, usize)> {
    let code = code(text);
    let mut found = Vec::new();
    for prefix in ["crate::", "super::"] {
        for (at, _) in code.match_indices(prefix) {
            // A `crate::` inside another path (`other::crate::`) and the later `super::`s of a run; a macro's
            // `$crate::` names what the code it expands into uses, wherever that is.
            if code[..at].ends_with("::")
                || code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            {
                continue;
            }
            let mut rest = &code[at + prefix.len()..];
            let mut base: Vec<String> = Vec::new();
            if prefix == "super::" {
                let mut ups = 1;
                while let Some(more) = rest.strip_prefix("super::") {
                    (ups, rest) = (ups + 1, more);
                }
                let Some(parent) = module.len().checked_sub(ups) else { continue };
                base = module[..parent].to_vec();
            }
            let line = code[..at].matches('\n').count() + 1;
            for path in paths(rest) {
                let full: Vec<String> = base.iter().cloned().chain(path).collect();
                if full.len() > within.len() && full.starts_with(within) && units.contains(&full[within.len()]) {
                    let named = (full[within.len()].clone(), line);
                    if !found.contains(&named) {
                        found.push(named);
                    }
                }
            }
        }
    }
    found
}

/// Who imports whom among the modules one level below `within` in a crate (`within` itself, the root or a
/// folder's `mod.rs`, declares them and is left out): for each edge, the first file and line that makes it.
fn edges(krate: &str, within: &[String]) -> BTreeMap<String, BTreeMap<String, String>> {
    let all = modules(krate);
    let below = |m: &Vec<String>| m.len() > within.len() && m.starts_with(within) && !is_root(m);
    let units: BTreeSet<String> = all.keys().filter(|m| below(m)).map(|m| m[within.len()].clone()).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (module, path) in all.iter().filter(|(m, _)| below(m)) {
        let from = module[within.len()].clone();
        let text = std::fs::read_to_string(path).expect("module");
        let entry = edges.entry(from.clone()).or_default();
        for (to, line) in imports(module, &text, within, &units) {
            let at = format!("{}:{line}", path.strip_prefix(repository()).unwrap_or(path).display());
            if to != from {
                entry.entry(to).or_insert(at);
            }
        }
    }
    edges
}

/// The folders of a crate that hold modules of their own (`tools`, `tools::writes`, ...), the crate itself first.
fn folders(krate: &str) -> Vec<Vec<String>> {
    let mut folders: BTreeSet<Vec<String>> = modules(krate)
        .keys()
        .filter(|m| !is_root(m))
        .flat_map(|m| (0..m.len()).map(move |depth| m[..depth].to_vec()))
        .collect();
    folders.insert(vec![]);
    folders.into_iter().collect()
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
fn every_module_imports_only_its_own_layer_and_those_below() {
    let architecture = architecture();
    let mut wrong = Vec::new();
    for (dir, within, heading) in CRATES.iter().flat_map(|c| c.layered.iter().map(|(w, h)| (c.dir, *w, *h))) {
        let layers = layers(&architecture, heading);
        let layer_of = |module: &str| layers.iter().position(|l| l.modules.contains(module));
        let within: Vec<String> = within.iter().map(|w| (*w).to_owned()).collect();
        for (from, imported) in edges(dir, &within) {
            let Some(own) = layer_of(&from) else {
                wrong.push(format!("{dir}: `{from}` is in no layer of {heading}: add it to one in ARCHITECTURE.md"));
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
fn no_folder_has_a_cycle_among_its_modules() {
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
    let mut cycles = Vec::new();
    for (dir, folder) in CRATES.iter().flat_map(|c| folders(c.dir).into_iter().map(|f| (c.dir, f))) {
        let edges = edges(dir, &folder);
        let mut done = BTreeSet::new();
        for node in edges.keys() {
            if let Some(cycle) = visit(node, &edges, &mut Vec::new(), &mut done) {
                let links: Vec<String> =
                    cycle.windows(2).map(|w| format!("{} ({})", w[0], edges[&w[0]][&w[1]])).collect();
                cycles.push(format!("{dir}/src/{}: {}", folder.join("/"), links.join(" -> ")));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules that import each other in a cycle (move what one uses into a module below both): {cycles:#?}"
    );
}

/// The unit of the host that a folder path or a namespace below `RoslynMcp.Host` (`["Features", "Rename", ...]`)
/// belongs to, with its layer: the top-level folder, or for a layer listing `Features/*/` each folder below it.
fn host_unit(layers: &[Layer], path: &[&str]) -> Option<(usize, String)> {
    let top = *path.first()?;
    let per_folder = format!("{top}/*");
    let own = layers.iter().position(|l| l.modules.contains(top) || l.modules.contains(&per_folder))?;
    Some(match path.get(1) {
        Some(folder) if layers[own].modules.contains(&per_folder) => (own, format!("{top}/{folder}")),
        _ => (own, top.to_owned()),
    })
}

/// The names below `RoslynMcp.Host` that a line of C# writes, each split at its dots.
fn host_names(line: &str) -> Vec<Vec<&str>> {
    line.match_indices("RoslynMcp.Host.")
        .map(|(at, prefix)| {
            let rest = &line[at + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
            rest[..end].split('.').filter(|part| !part.is_empty()).collect()
        })
        .collect()
}

/// The C# host: each top-level folder of `crates/roslyn-host/host` is in a layer of `### Layers of the host`, a
/// layer listing `Features/*/` has each folder below it as a unit, and every file declares the namespace of its
/// folder path (a namespace sees the types of those around it without naming them). A file's dependencies are
/// the `RoslynMcp.Host.<Folder>` namespaces its code names.
#[test]
fn the_hosts_namespaces_import_only_their_own_layer_and_those_below() {
    let layers = layers(&architecture(), "the host");
    let host = repository().join("crates/roslyn-host/host");
    let mut wrong = Vec::new();
    for top in std::fs::read_dir(&host).expect("read the host").flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let name = top.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let sources = files(&top, "cs");
        if name == "bin" || name == "obj" || sources.is_empty() {
            continue;
        }
        if host_unit(&layers, &[&name]).is_none() {
            wrong.push(format!("crates/roslyn-host/host/{name}/ is in no layer: add it to one in ARCHITECTURE.md"));
            continue;
        }
        for path in sources {
            let relative = path.strip_prefix(&host).expect("under the host");
            let folders: Vec<&str> = relative.parent().into_iter().flatten().filter_map(|f| f.to_str()).collect();
            let (own, unit) = host_unit(&layers, &folders).expect("a folder in a layer");
            let layer = &layers[own];
            let file = path.strip_prefix(repository()).unwrap_or(&path).display().to_string();
            if unit == name && layer.modules.contains(&format!("{name}/*")) {
                wrong.push(format!(
                    "{file}: {name}/ holds folders only: move it into the folder of what uses it, or down a layer"
                ));
            }
            let text = std::fs::read_to_string(&path).expect("C# file");
            let expected = format!("RoslynMcp.Host.{}", folders.join("."));
            let mut declared = false;
            for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with("//")) {
                if let Some(namespace) = line.strip_prefix("namespace ") {
                    declared = true;
                    let namespace = namespace.trim_end_matches(|c: char| c == ';' || c == '{' || c.is_whitespace());
                    if namespace != expected && !file.ends_with(".g.cs") {
                        wrong.push(format!(
                            "{file}:{}: declares {namespace}: make it {expected}, the namespace of its folder",
                            number + 1
                        ));
                    }
                }
                for named in host_names(line) {
                    let Some((theirs, their_unit)) = host_unit(&layers, &named) else { continue };
                    let at = format!("{file}:{}: {unit}/ ({}) uses {their_unit}/", number + 1, layer.name);
                    if theirs < own {
                        wrong.push(format!(
                            "{at} ({}): move what it uses down to {unit}/'s layer or below",
                            layers[theirs].name
                        ));
                    } else if theirs == own && their_unit != unit && layer.apart {
                        wrong.push(format!(
                            "{at}, and {} never use each other: move what both use down a layer, or hand it in \
                             from above",
                            layer.name
                        ));
                    }
                }
            }
            if !declared && !file.ends_with(".g.cs") {
                wrong.push(format!("{file}: declares no namespace: declare {expected}, the namespace of its folder"));
            }
        }
    }
    assert!(wrong.is_empty(), "namespaces against the host's layers in ARCHITECTURE.md: {wrong:#?}");
}

#[test]
fn the_host_reader_sees_names_and_feature_folders() {
    let layers = layers("### Layers of x\n- **A** (`A/`): top.\n- **F** (`F/*/`): Never on each other.\n", "x");
    assert_eq!(host_unit(&layers, &["F", "One", "Type"]), Some((1, "F/One".to_owned())));
    assert_eq!(host_unit(&layers, &["F"]), Some((1, "F".to_owned())), "a name directly in F is no folder's");
    assert_eq!(host_unit(&layers, &["A", "Sub"]), Some((0, "A".to_owned())));
    assert_eq!(host_unit(&layers, &["Log"]), None);
    assert_eq!(
        host_names("using RoslynMcp.Host.F.One; var x = RoslynMcp.Host.Log.Info(\"RoslynMcp.Host.\");"),
        [vec!["F", "One"], vec!["Log", "Info"], vec![]]
    );
}

#[test]
fn the_reader_sees_nested_groups_and_super() {
    let names = |module: &[&str], text: &str, within: &[&str], units: &[&str]| -> Vec<String> {
        let module: Vec<String> = module.iter().map(|m| (*m).to_owned()).collect();
        let within: Vec<String> = within.iter().map(|m| (*m).to_owned()).collect();
        let units: BTreeSet<String> = units.iter().map(|u| (*u).to_owned()).collect();
        imports(&module, text, &within, &units).into_iter().map(|(m, _)| m).collect()
    };
    let text = "use crate::{a::{x, y}, b};\nuse super::c::Z;\nfn f() { other_crate::d::g(); }\n";
    assert_eq!(names(&["e"], text, &[], &["a", "b", "c", "d"]), ["a", "b", "c"]);
    assert_eq!(names(&["d", "inner"], "use super::sibling;", &[], &["d"]), ["d"], "a nested module's `super::`");
    let tools = "use crate::tools::{writes::diff, convert};\nuse super::super::git;\nuse super::own;\n";
    assert_eq!(
        names(&["tools", "testing", "run"], tools, &["tools"], &["writes", "convert", "git", "testing"]),
        ["writes", "convert", "git", "testing"],
        "the units below a folder, by `crate::` and by `super::super::`"
    );
}
