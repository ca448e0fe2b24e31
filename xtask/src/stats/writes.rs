//! Writes on a deterministic sample: each previews, applies, leaves the solution with no more compiler errors
//! in any target framework than before (and, for a sample, a real `dotnet build` passes), and its undo gives
//! every byte back. A refusal must hold: STILL_REFERENCED lists references that exist.

use super::csharp::{parenthesized, split_top};
use super::navigation::{Declaration, lines};
use super::service::{Service, refusal};
use super::{Options, Solution};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Declaration kinds a rename or a safe delete is tried on.
const MEMBERS: &[&str] = &["Method", "Property", "Field", "Class", "Struct", "Interface", "Enum", "Event"];

pub async fn check(service: &Service, solution: &Solution, options: &Options, all: &[Declaration]) {
    let baseline = match errors(service, solution).await {
        Ok(baseline) => baseline,
        Err(why) => return service.case("the solution's compiler errors are counted", Err(why)),
    };
    let mut writes = Writes { service, solution, baseline, builds: options.builds };
    let library = |d: &&Declaration| {
        solution.project_of(&d.file).is_some_and(|p| p["isTestProject"] != true) && MEMBERS.contains(&d.kind.as_str())
    };
    let members: Vec<Declaration> = all.iter().filter(library).cloned().collect();
    let n = options.writes;
    for target in options.sample.take(members.clone(), n, |d| d.key.clone()) {
        let mut arguments = target.position();
        arguments["newName"] = json!(format!("{}Checked", target.name));
        writes.attempt("rename_symbol", arguments, &target.place(), &target.name).await;
    }
    let methods: Vec<(Declaration, Vec<String>)> =
        members.iter().filter(|d| d.kind == "Method").filter_map(|d| Some((d.clone(), reorderable(d)?))).collect();
    for (target, names) in options.sample.take(methods, n, |(d, _)| d.key.clone()) {
        let mut arguments = target.position();
        arguments["parameters"] = names.iter().rev().map(|name| json!({"name": name})).collect();
        writes.attempt("change_signature", arguments, &target.place(), &target.name).await;
    }
    for target in options.sample.take(members, n, |d| format!("delete {}", d.key)) {
        let mut arguments = target.position();
        arguments["includePublic"] = json!(true);
        writes.attempt("safe_delete", arguments, &target.place(), &target.name).await;
    }
    let files: Vec<PathBuf> = solution
        .documents
        .iter()
        .filter(|f| solution.project_of(f).is_some_and(|p| p["isTestProject"] != true))
        .cloned()
        .collect();
    for file in options.sample.take(files, n, |f| solution.relative(f)) {
        let place = file.display().to_string();
        let destination = sibling_folder(&file);
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("File");
        writes.attempt("move_files", json!({"files": [file], "destination": destination}), &place, stem).await;
        let renamed = json!({"filePath": file, "newName": format!("{stem}Checked.cs")});
        writes.attempt("rename_file", renamed, &place, stem).await;
        for tool in ["organize_usings", "format_document", "remove_unused"] {
            writes.attempt(tool, json!({"filePath": file}), &place, stem).await;
        }
    }
    let projects: Vec<&Value> = solution.projects.iter().filter(|p| p["isTestProject"] != true).collect();
    for project in
        options.sample.take(projects, n, |p| solution.relative(Path::new(p["path"].as_str().unwrap_or_default())))
    {
        let place = project["path"].as_str().unwrap_or_default().to_owned();
        let name = project["name"].as_str().unwrap_or_default();
        writes.attempt("sync_namespaces", json!({"project": project["path"]}), &place, name).await;
    }
}

struct Writes<'a> {
    service: &'a Service,
    solution: &'a Solution,
    /// Compiler errors before any write.
    baseline: u64,
    /// Real builds still to run.
    builds: usize,
}

impl Writes<'_> {
    /// Previews, applies, checks and undoes one write about `name`; a refusal is checked to hold.
    async fn attempt(&mut self, tool: &str, mut arguments: Value, place: &str, name: &str) {
        let invariant = format!("{tool} applies, compiles and undoes to the byte");
        let before = tree(&self.solution.folder);
        arguments["preview"] = json!(true);
        let plan = match self.service.call(tool, arguments).await {
            Ok(plan) => plan,
            Err(refusal) => {
                let outcome =
                    refusal_holds(self.service, &refusal, name).await.map_err(|why| format!("{place}: {why}"));
                self.service.case(&format!("{tool} refusals hold"), outcome);
                return;
            }
        };
        let Some(plan_id) = plan["planId"].as_str() else {
            // Nothing to change: the solution is as the tool would leave it.
            self.service.case(&invariant, Ok(()));
            return;
        };
        let applied = match self.service.call("apply_plan", json!({"planId": plan_id})).await {
            Ok(applied) => applied,
            Err(refusal) => {
                self.service.case(&invariant, Err(format!("{place}: apply_plan {}", refusal["code"])));
                return;
            }
        };
        if applied["changed"] == json!(false) {
            // The plan changed no file: nothing was written, and there is no operation to undo.
            let outcome = if tree(&self.solution.folder) == before {
                Ok(())
            } else {
                Err(format!("{place}: changed: false, yet files changed"))
            };
            self.service.case(&invariant, outcome);
            return;
        }
        let mut outcome = Ok(());
        match errors(self.service, self.solution).await {
            Err(why) => outcome = Err(format!("{place}: {why}")),
            Ok(after) if after > self.baseline => {
                outcome = Err(format!("{place}: {after} compiler errors after it, {} before", self.baseline));
            }
            Ok(_) if self.builds > 0 => {
                self.builds -= 1;
                outcome = build(&self.solution.path).await.map_err(|why| format!("{place}: dotnet build: {why}"));
                self.service.case("a write's result builds with dotnet build", outcome.clone());
            }
            Ok(_) => {}
        }
        let operation = applied["operationId"].clone();
        let undone = self.service.call("undo", json!({"operationId": operation})).await;
        if let Err(refusal) = undone {
            outcome = outcome.and(Err(format!("{place}: undo {}", refusal["code"])));
        } else if tree(&self.solution.folder) != before {
            outcome = outcome.and(Err(format!("{place}: undo did not give every byte back")));
        }
        self.service.case(&invariant, outcome);
    }
}

/// Whether a refusal's reason holds where it can be checked (STILL_REFERENCED: each place listed exists and
/// names `name`, or uses a member of it, as its definition says: deleting a type deletes what it declares); a
/// COMPILATION_ERROR never holds (the writes tried are plain ones a tool must carry through); other refusals
/// pass when they carry a catalog code and a message, and are no timeout, crash or internal error.
async fn refusal_holds(service: &Service, refusal: &Value, name: &str) -> Result<(), String> {
    let code = refusal["code"].as_str().unwrap_or_default();
    if code == "STILL_REFERENCED" {
        let listed = refusal["details"]["references"].as_array().cloned().unwrap_or_default();
        if listed.is_empty() {
            return Err("STILL_REFERENCED lists no reference".into());
        }
        for place in listed {
            let (file, line) = (place["file"].as_str().unwrap_or_default(), place["line"].as_u64().unwrap_or(0));
            let text = if line == 0 { None } else { lines(Path::new(file), (line, line)).ok() };
            if !text.is_some_and(|text| text.contains(name)) && !uses_member_of(service, &place, name).await {
                return Err(format!("STILL_REFERENCED lists {file}:{line}, which does not use {name}"));
            }
        }
        return Ok(());
    }
    // A plain write the tool could not make compile is the tool failing at its job, however safe the refusal.
    if code == "COMPILATION_ERROR" {
        return Err(format!("COMPILATION_ERROR: {}", refusal["details"]));
    }
    match (code.is_empty(), refusal["message"].as_str().is_some_and(|m| !m.is_empty())) {
        (false, true) if !matches!(code, "INTERNAL_ERROR" | "TIMEOUT" | "HOST_CRASHED") => Ok(()),
        _ => Err(format!("refused without a reason that holds: {refusal}")),
    }
}

/// Whether the name at a listed place is defined as a member of `name` (`Label = label` in an initializer of the
/// deleted type).
async fn uses_member_of(service: &Service, place: &Value, name: &str) -> bool {
    let at = json!({"filePath": place["file"], "line": place["line"], "column": place["column"]});
    let Ok(definition) = service.call("find_symbol_definition", at).await else {
        return false;
    };
    let qualified = definition["symbolInfo"]["fullyQualifiedName"].as_str().unwrap_or_default();
    qualified.split('(').next().unwrap_or_default().split('.').rev().skip(1).any(|part| part == name)
}

/// The parameter names of a method with two or more plain parameters (no `this`, `params`, `ref`, `out`).
fn reorderable(method: &Declaration) -> Option<Vec<String>> {
    let text = lines(&method.file, (method.line, method.lines.1.min(method.line + 5))).ok()?;
    let first = text.lines().next()?;
    let from = first.char_indices().nth(method.column as usize - 1)?.0;
    let list = parenthesized(&text, from)?;
    let parameters = split_top(list);
    let plain =
        |p: &&str| !["this ", "params ", "ref ", "out ", "in ", "["].iter().any(|m| p.trim_start().starts_with(m));
    if parameters.len() < 2 || !parameters.iter().all(plain) || parameters.iter().any(|p| p.contains('=')) {
        return None;
    }
    parameters.iter().map(|p| p.split_whitespace().last().map(str::to_owned)).collect()
}

/// A folder of the file's project beside the file's: an existing sibling that is no project of its own, else a
/// new `Checked` folder next to the file's (inside the project when the file is at its root). A file moved to
/// another project is another write, one a project's internals may refuse.
fn sibling_folder(file: &Path) -> PathBuf {
    let folder = file.parent().unwrap_or(Path::new("/"));
    let is_project = |dir: &Path| {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "csproj"))
    };
    if is_project(folder) {
        return folder.join("Checked");
    }
    let parent = folder.parent().unwrap_or(folder);
    let mut siblings: Vec<PathBuf> = std::fs::read_dir(parent)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p != folder && !is_project(p))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| !matches!(n, "bin" | "obj") && !n.starts_with('.'))
        })
        .collect();
    siblings.sort();
    siblings.into_iter().next().unwrap_or_else(|| parent.join("Checked"))
}

/// The solution's compiler errors, every project and target framework.
async fn errors(service: &Service, solution: &Solution) -> Result<u64, String> {
    let arguments = json!({"solutionPath": solution.path, "minSeverity": "error", "pageSize": 1});
    let answer = service.call("get_compilation_diagnostics", arguments).await;
    let answer = answer.map_err(|error| refusal("get_compilation_diagnostics", &error))?;
    answer["errorCount"].as_u64().ok_or_else(|| format!("get_compilation_diagnostics answered no errorCount: {answer}"))
}

async fn build(solution: &Path) -> Result<(), String> {
    let mut command = tokio::process::Command::new("dotnet");
    command.args(["build", "-nologo", "-v:q", "-clp:ErrorsOnly"]).arg(solution);
    super::roll_forward(&mut command);
    let output = command.output().await.map_err(|e| e.to_string())?;
    if output.status.success() {
        return Ok(());
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    Err(stdout.lines().find(|l| l.contains("error")).unwrap_or("failed").to_owned())
}

/// Every file under `root` but build output and hidden folders, with its bytes.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for path in std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()) {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if path.is_dir() {
                if !matches!(name, "bin" | "obj") && !name.starts_with('.') {
                    walk(&path, into);
                }
            } else if let Ok(bytes) = std::fs::read(&path) {
                into.insert(path, bytes);
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(root, &mut files);
    files
}
