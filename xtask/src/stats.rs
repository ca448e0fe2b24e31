//! `cargo xtask stats <solution>`: the whole-solution check, as rust-analyzer's `analysis-stats` is for Rust.
//! It drives the real service over MCP through a solution and checks invariants on its symbols (every one,
//! or a deterministic sample where a tool is too costly for all), prints a table of what it checked and
//! what failed with each tool's times, and exits non-zero on any failure. The solution's files are left as
//! they were: every write it makes is undone and checked byte for byte.

mod csharp;
mod declaration;
mod metadata;
mod mutations;
mod navigation;
mod partials;
mod probe;
mod sample;
mod service;
mod table;
mod writes;

use anyhow::{Context, Result, anyhow, bail};
use sample::Sample;
use serde_json::{Value, json};
use service::{Answer, Service};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const USAGE: &str = "cargo xtask stats <solution> [--all] [--declarations N] [--uses N] [--writes N] \
                         [--builds N] [--mutations N] [--test-project NAME] [--seed S] [--no-probe] [--binary PATH]";

const HELP: &str = "Checks the service's answers over a whole solution: drives `roslyn-mcp stdio` over MCP, checks
invariants on every declaration (or a deterministic sample), prints a table of invariants and tool times,
and exits non-zero on any failure. The solution's files are left as they were.

  --all               every declaration and use; 3 writes of each kind, 3 builds, 5 mutations
  --declarations N    declarations whose definition and references are checked (default 40)
  --uses N            uses of referenced assemblies' members checked (default 40)
  --writes N          writes of each kind applied, checked and undone (default 1)
  --builds N          applied writes followed by a real `dotnet build` (default 1)
  --mutations N       members made to throw, checked against find_tests (default 1; 0 for none)
  --test-project NAME the test project the mutations run (default: the first)
  --seed S            the sample's seed (default 1)
  --no-probe          skip the comparison with Roslyn's SymbolFinder
  --binary PATH       the service to check (default: this checkout's, built first)

docs/whole-solution-check.md says what each invariant means.";

/// Tools and test hosts built for an older .NET run on the newest runtime installed when the machine has no
/// other (a net8.0 test project, a net8.0 tool a build runs), unless the caller chose otherwise.
pub fn roll_forward(command: &mut tokio::process::Command) {
    if std::env::var_os("DOTNET_ROLL_FORWARD").is_none() {
        command.env("DOTNET_ROLL_FORWARD", "Major");
    }
}

/// What to check, and how much of it.
pub struct Options {
    pub solution: PathBuf,
    pub sample: Sample,
    /// Declarations whose references and definitions are checked.
    pub declarations: usize,
    /// Uses of referenced assemblies' members whose virtual documents are checked.
    pub uses: usize,
    /// Writes of each kind previewed, applied, checked and undone.
    pub writes: usize,
    /// Applied writes followed by a real `dotnet build` of the solution.
    pub builds: usize,
    /// Members mutated (a `throw` at the start) and the test project run against find_tests' selection.
    pub mutations: usize,
    pub test_project: Option<String>,
    /// Compare find_references with Roslyn's SymbolFinder in a process of its own.
    pub probe: bool,
    /// The service to check: another build's binary; by default this checkout's, built first.
    pub binary: Option<PathBuf>,
}

pub fn run(args: &[&str]) -> Result<()> {
    let options = parse(args)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let table = runtime.block_on(check(&options))?;
    println!("{}", table.render());
    match table.failed() {
        0 => Ok(()),
        failed => bail!("{failed} checks failed"),
    }
}

fn parse(args: &[&str]) -> Result<Options> {
    let mut options = Options {
        solution: PathBuf::new(),
        sample: Sample::new(1),
        declarations: 40,
        uses: 40,
        writes: 1,
        builds: 1,
        mutations: 1,
        test_project: None,
        probe: true,
        binary: None,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut number = || -> Result<usize> {
            rest.next().with_context(|| format!("{arg} takes a number"))?.parse().context(USAGE)
        };
        match *arg {
            "--help" | "-h" => {
                println!("usage: {USAGE}\n\n{HELP}");
                std::process::exit(0);
            }
            "--all" => {
                options.sample = Sample::all();
                (options.declarations, options.uses, options.writes) = (usize::MAX, usize::MAX, 3);
                (options.builds, options.mutations) = (3, 5);
            }
            "--declarations" => options.declarations = number()?,
            "--uses" => options.uses = number()?,
            "--writes" => options.writes = number()?,
            "--builds" => options.builds = number()?,
            "--mutations" => options.mutations = number()?,
            "--seed" => options.sample = Sample::new(number()? as u64),
            "--no-probe" => options.probe = false,
            "--test-project" => options.test_project = Some(rest.next().context(USAGE)?.to_string()),
            "--binary" => options.binary = Some(PathBuf::from(rest.next().context(USAGE)?)),
            solution if !solution.starts_with('-') && options.solution.as_os_str().is_empty() => {
                options.solution =
                    std::fs::canonicalize(solution).with_context(|| format!("no solution {solution}"))?;
            }
            other => bail!("unknown argument {other}\n{USAGE}"),
        }
    }
    if options.solution.as_os_str().is_empty() {
        bail!("{USAGE}");
    }
    Ok(options)
}

async fn check(options: &Options) -> Result<table::Table> {
    let binary = match &options.binary {
        Some(binary) => binary.clone(),
        None => crate::build_service(&crate::root(), false)?.binary,
    };
    let folder = options.solution.parent().context("the solution has a folder")?.to_path_buf();
    let log = std::env::temp_dir().join(format!("roslyn-mcp-stats-{}.log", std::process::id()));
    eprintln!("stats: the service's log is {}", log.display());
    let service = Service::start(&binary, &folder, &log).await?;
    let began = Instant::now();
    let solution = options.solution.display().to_string();
    service.ok("initialize_workspace", json!({"workingDirectory": folder, "preferredSolution": solution})).await?;
    let arguments = json!({"solutionPath": solution, "pageSize": 200});
    let projects = all_pages(&service, "get_project_graph", arguments, "projects")
        .await
        .map_err(|error| anyhow!("get_project_graph failed: {error}"))?;
    let mut solution = Solution { path: options.solution.clone(), folder, projects, documents: Vec::new() };
    let files = files_on_disk(&solution.projects);
    let declarations = declaration::list(&service, &mut solution, files).await;
    eprintln!("stats: {} documents loaded in {:.0?}", solution.documents.len(), began.elapsed());

    navigation::check(&service, &solution, options, &declarations).await?;
    metadata::check(&service, &solution, options).await;
    partials::check(&service, &solution).await;
    writes::check(&service, &solution, options, &declarations).await;
    mutations::check(&service, &solution, options, &declarations).await?;
    service.close().await
}

/// The solution as the check sees it: its projects as get_project_graph answers them, its documents those of
/// the projects' files the service lists symbols of.
pub struct Solution {
    pub path: PathBuf,
    pub folder: PathBuf,
    pub projects: Vec<Value>,
    pub documents: Vec<PathBuf>,
}

impl Solution {
    /// `file` from the solution's folder: samples are drawn by it, so that a copy anywhere draws the same.
    pub fn relative(&self, file: &Path) -> String {
        file.strip_prefix(&self.folder).unwrap_or(file).display().to_string()
    }

    /// A location's place, its file from the solution's folder.
    pub fn relative_place(&self, location: &Value) -> String {
        let file = Path::new(location["filePath"].as_str().unwrap_or_default());
        format!("{}:{}:{}", self.relative(file), location["line"], location["column"])
    }

    /// The project whose folder holds `file` (the deepest).
    pub fn project_of(&self, file: &Path) -> Option<&Value> {
        self.projects
            .iter()
            .filter(|p| p["path"].as_str().and_then(|p| Path::new(p).parent()).is_some_and(|dir| file.starts_with(dir)))
            .max_by_key(|p| p["path"].as_str().map_or(0, str::len))
    }
}

/// The `.cs` files of the projects' folders, build output aside: the documents, and files no project compiles.
fn files_on_disk(projects: &[Value]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for project in projects.iter().filter_map(|p| p["path"].as_str()) {
        walk(Path::new(project).parent().unwrap_or(Path::new("/")), &mut files);
    }
    files.sort();
    files.dedup();
    files
}

fn walk(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if path.is_dir() && !matches!(name, "bin" | "obj") && !name.starts_with('.') {
            walk(&path, into);
        } else if name.ends_with(".cs") && path.is_file() {
            into.push(path);
        }
    }
}

/// Every page of a paged tool's answer, its `key` lists joined, or the refusal of one. A listing whose solution
/// changed between two pages (the file a mutation wrote back, seen by the service's watcher) is asked again
/// from the start.
pub async fn all_pages(service: &Service, tool: &str, arguments: Value, key: &str) -> Answer<Vec<Value>> {
    const STARTS: usize = 5;
    for _ in 0..STARTS {
        let mut arguments = arguments.clone();
        let mut items = Vec::new();
        loop {
            let page = match service.call(tool, arguments.clone()).await {
                Ok(page) => page,
                Err(error) if error["code"] == "CURSOR_STALE" => break,
                Err(error) => return Err(error),
            };
            items.extend(page[key].as_array().cloned().unwrap_or_default());
            match page["nextCursor"].as_str() {
                Some(cursor) => arguments["cursor"] = json!(cursor),
                None => return Ok(items),
            }
        }
    }
    Err(
        json!({"code": "CURSOR_STALE", "message": format!("the solution changed under every one of {STARTS} listings")}),
    )
}
