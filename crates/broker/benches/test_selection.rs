//! find_tests against a real library's own test suite. The library is a checkout nobody here wrote (Markdig,
//! xoofx/markdig, measured at fc705234fa211d179ee1d5e7656b51ab99f70ca9: `src/Markdig`, 5 target frameworks,
//! and `src/Markdig.Tests`, NUnit on VSTest, 3,796 test cases), given as `ROSLYN_MCP_BENCH_TESTS=<checkout>`
//! (a git clone with a clean tree: every mutant is undone before the next).
//!
//! Mutants: methods with a block body in `src/Markdig`, found with get_document_symbols, taken evenly over the
//! sorted list; each gets `throw new System.InvalidOperationException("mutant");` as its first statement, so
//! every test that runs it fails. For each mutant that builds and fails at least one test:
//! - the whole suite: `dotnet build` of the test project (net10.0, incremental) and `dotnet test --no-build`
//!   with a TRX report, whose failed tests are the truth;
//! - find_tests `{changedSince: "HEAD", project: "Markdig.Tests"}` on the service, timed as a client sees it,
//!   first after the edit and then warm;
//! - the selection run: the same build, then `dotnet test --no-build` filtered to the selected tests (in
//!   batches, a filter being one command-line argument), or unfiltered when every test is selected.
//!
//! Recall is the share of failed tests the selection holds; the time ratio is (find_tests + build + selected
//! run) / (build + whole run). `ROSLYN_MCP_BENCH_MUTANTS` sets how many mutants (20 by default).

#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use stats::{ms, percentiles};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::Server;

const TEST_PROJECT: &str = "src/Markdig.Tests/Markdig.Tests.csproj";
const TEST_PROJECT_NAME: &str = "Markdig.Tests";
const LIBRARY: &str = "src/Markdig";
const FRAMEWORK: &str = "net10.0";
const MUTANT: &str = "throw new System.InvalidOperationException(\"mutant\");";
/// A filter is one argument: Linux refuses one longer than 128 KiB.
const FILTER_BYTES: usize = 96 * 1024;

fn main() {
    let Some(repo) = std::env::var_os("ROSLYN_MCP_BENCH_TESTS").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_TESTS to a git clone of xoofx/markdig");
        return;
    };
    let wanted: usize = std::env::var("ROSLYN_MCP_BENCH_MUTANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&repo, wanted));
}

/// One measured mutant.
struct Measured {
    method: String,
    failed: BTreeSet<String>,
    selected: BTreeSet<String>,
    select_ms: f64,
    warm_ms: f64,
    full_ms: f64,
    selection_ms: f64,
}

async fn run(repo: &Path, wanted: usize) {
    let status = Command::new("git").arg("-C").arg(repo).args(["status", "--porcelain"]).output().expect("git runs");
    assert!(status.stdout.is_empty(), "{} has changes: the mutants need a clean tree", repo.display());
    let out = tempfile::Builder::new().prefix("roslyn-mcp-bench-tests-").tempdir().expect("temp dir");
    assert!(dotnet(repo, &["build", TEST_PROJECT, "-f", FRAMEWORK, "-v", "q", "-nologo"]).0, "the checkout builds");
    let (all, _) = test_run(repo, out.path(), "baseline", None);
    let total = all.len();
    let failing_before: BTreeSet<String> = all.iter().filter(|(_, failed)| *failed).map(|(n, _)| n.clone()).collect();
    println!("{}: {total} test cases, {} failing before any mutant", repo.display(), failing_before.len());

    let server = Server::start_alone(repo).await;
    server.ok("initialize_workspace", json!({"workingDirectory": repo.join("src")})).await;
    server.warm_up_finished(Duration::from_secs(900)).await;
    let began = Instant::now();
    let first = server.ok("find_tests", json!({"changedSince": "HEAD", "project": TEST_PROJECT_NAME})).await;
    println!("first find_tests after the load (reach graph built): {:.0} ms", ms(began.elapsed()));
    let test_methods = first["projects"][0]["testCount"].as_u64().unwrap_or(0);

    let candidates = candidates(&server, repo).await;
    println!("{} methods with a block body in {LIBRARY}", candidates.len());
    let mut measured = Vec::new();
    let mut skipped = (0, 0);
    let stride = (candidates.len() / (wanted * 3)).max(1);
    for candidate in candidates.iter().step_by(stride) {
        if measured.len() == wanted {
            break;
        }
        let mutant = Mutant::write(candidate);
        let outcome = measure(&server, repo, out.path(), candidate, &failing_before, test_methods).await;
        drop(mutant);
        match outcome {
            Some(m) if !m.failed.is_empty() => {
                println!(
                    "  {}: {} failed, {} of them selected, {} selected; find_tests {:.0} ms (warm {:.0} ms), selection {:.1} s vs whole {:.1} s",
                    m.method,
                    m.failed.len(),
                    m.failed.intersection(&m.selected).count(),
                    m.selected.len(),
                    m.select_ms,
                    m.warm_ms,
                    m.selection_ms / 1000.0,
                    m.full_ms / 1000.0
                );
                measured.push(m);
            }
            Some(_) => skipped.0 += 1,
            None => skipped.1 += 1,
        }
    }
    server.stop().await;
    report(&measured, skipped, total);
}

fn report(measured: &[Measured], (uncovered, unbuilt): (usize, usize), total: usize) {
    let failed: usize = measured.iter().map(|m| m.failed.len()).sum();
    let caught: usize = measured.iter().map(|m| m.failed.intersection(&m.selected).count()).sum();
    let all_caught = measured.iter().filter(|m| m.failed.is_subset(&m.selected)).count();
    let ratios: Vec<f64> = measured.iter().map(|m| m.selection_ms / m.full_ms).collect();
    let mut warm: Vec<f64> = measured.iter().map(|m| m.warm_ms).collect();
    let mut first: Vec<f64> = measured.iter().map(|m| m.select_ms).collect();
    let selected: usize = measured.iter().map(|m| m.selected.len()).sum();
    println!(
        "{} mutants measured ({uncovered} more failed no test, {unbuilt} did not build); {total} test cases in the suite",
        measured.len()
    );
    println!(
        "  recall: {caught} of {failed} failed test methods selected ({:.1}%); every failure selected for {all_caught} of {} mutants",
        100.0 * caught as f64 / failed.max(1) as f64,
        measured.len()
    );
    println!("  selected test methods per mutant: mean {:.0}", selected as f64 / measured.len().max(1) as f64);
    println!(
        "  time, select + build + run selected / build + run all: mean {:.2}x, min {:.2}x, max {:.2}x",
        ratios.iter().sum::<f64>() / ratios.len().max(1) as f64,
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(0.0, f64::max)
    );
    println!(
        "  find_tests: first after the edit p50 {:.0} ms, warm p50 {:.0} ms (p95 {:.0} ms)",
        percentiles(&mut first).0,
        percentiles(&mut warm).0,
        percentiles(&mut warm).1
    );
}

async fn measure(
    server: &Server,
    repo: &Path,
    out: &Path,
    candidate: &Candidate,
    failing_before: &BTreeSet<String>,
    test_methods: u64,
) -> Option<Measured> {
    let began = Instant::now();
    let (built, _) = dotnet(repo, &["build", TEST_PROJECT, "-f", FRAMEWORK, "--no-restore", "-v", "q", "-nologo"]);
    let build_ms = ms(began.elapsed());
    if !built {
        return None;
    }
    let (results, run_ms) = test_run(repo, out, "full", None);
    let failed: BTreeSet<String> =
        results.iter().filter(|(n, f)| *f && !failing_before.contains(n)).map(|(n, _)| method_of(n)).collect();

    let arguments = json!({"changedSince": "HEAD", "project": TEST_PROJECT_NAME, "pageSize": 200});
    let began = Instant::now();
    let found = all_pages(server, arguments.clone()).await;
    let select_ms = ms(began.elapsed());
    let began = Instant::now();
    all_pages(server, arguments).await;
    let warm_ms = ms(began.elapsed());
    let selected: BTreeSet<String> = found.iter().filter_map(|t| t["id"].as_str().map(str::to_owned)).collect();

    let every = selected.len() as u64 >= test_methods;
    let selected_run_ms = if selected.is_empty() {
        0.0
    } else if every {
        test_run(repo, out, "selected", None).1
    } else {
        filters(&selected).iter().map(|filter| test_run(repo, out, "selected", Some(filter)).1).sum()
    };
    Some(Measured {
        method: candidate.name.clone(),
        failed,
        selected,
        select_ms,
        warm_ms,
        full_ms: build_ms + run_ms,
        selection_ms: select_ms + build_ms + selected_run_ms,
    })
}

/// Every page of a find_tests answer.
async fn all_pages(server: &Server, mut arguments: Value) -> Vec<Value> {
    let mut tests = Vec::new();
    loop {
        let page = server.ok("find_tests", arguments.clone()).await;
        tests.extend(page["tests"].as_array().cloned().unwrap_or_default());
        match page["nextCursor"].as_str() {
            Some(cursor) => arguments["cursor"] = json!(cursor),
            None => return tests,
        }
    }
}

/// VSTest filters naming each test method (a parametrized one's cases end in `(...)`), each under the limit.
fn filters(selected: &BTreeSet<String>) -> Vec<String> {
    let mut filters = vec![String::new()];
    for id in selected {
        let clause = format!("FullyQualifiedName={id}|FullyQualifiedName~{id}(");
        let current = filters.last_mut().expect("a filter");
        if !current.is_empty() && current.len() + clause.len() + 1 > FILTER_BYTES {
            filters.push(String::new());
        }
        let current = filters.last_mut().expect("a filter");
        if !current.is_empty() {
            current.push('|');
        }
        current.push_str(&clause);
    }
    filters
}

/// Runs the built tests (all, or those a filter names): each case's name and whether it failed, and the time.
fn test_run(repo: &Path, out: &Path, label: &str, filter: Option<&str>) -> (Vec<(String, bool)>, f64) {
    let trx = out.join(format!("{label}.trx"));
    let _ = std::fs::remove_file(&trx);
    let logger = format!("trx;LogFileName={}", trx.display());
    let mut args = vec!["test", TEST_PROJECT, "-f", FRAMEWORK, "--no-build", "-nologo", "--logger", &logger];
    if let Some(filter) = filter {
        args.extend(["--filter", filter]);
    }
    let began = Instant::now();
    dotnet(repo, &args);
    let elapsed = ms(began.elapsed());
    (std::fs::read_to_string(&trx).map(|text| results(&text)).unwrap_or_default(), elapsed)
}

/// A TRX report's test cases: `Class.Method` (with a parametrized case's arguments) and whether it failed.
fn results(trx: &str) -> Vec<(String, bool)> {
    let document = roxmltree::Document::parse(trx).expect("a TRX report");
    let methods: std::collections::HashMap<&str, String> = document
        .descendants()
        .filter(|n| n.has_tag_name("UnitTest"))
        .filter_map(|test| {
            let method = test.children().find(|c| c.has_tag_name("TestMethod"))?;
            Some((test.attribute("id")?, format!("{}.{}", method.attribute("className")?, method.attribute("name")?)))
        })
        .collect();
    document
        .descendants()
        .filter(|n| n.has_tag_name("UnitTestResult"))
        .filter_map(|result| {
            let method = methods.get(result.attribute("testId")?)?;
            let failed = !matches!(result.attribute("outcome"), Some("Passed" | "NotExecuted" | "Inconclusive"));
            Some((format!("{method}#{}", result.attribute("testName").unwrap_or_default()), failed))
        })
        .collect()
}

/// The test method of a case name `Class.Method#display name`; NUnit names a parametrized case's method
/// `Method(arguments)`.
fn method_of(case: &str) -> String {
    let method = case.split('#').next().unwrap_or(case);
    method.split('(').next().unwrap_or(method).to_owned()
}

fn dotnet(repo: &Path, args: &[&str]) -> (bool, String) {
    let output = Command::new("dotnet")
        .args(args)
        .current_dir(repo)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("MSBUILDDISABLENODEREUSE", "1")
        .output()
        .expect("dotnet runs");
    (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned())
}

/// A mutant written into its file, undone when dropped (a panic included).
struct Mutant {
    file: PathBuf,
    original: Vec<u8>,
}

impl Mutant {
    fn write(candidate: &Candidate) -> Self {
        let original = std::fs::read(&candidate.file).expect("the mutated file");
        let mut mutated = original.clone();
        mutated.splice(candidate.body..candidate.body, format!(" {MUTANT} ").into_bytes());
        std::fs::write(&candidate.file, &mutated).expect("write the mutant");
        Self { file: candidate.file.clone(), original }
    }
}

impl Drop for Mutant {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.file, &self.original);
    }
}

/// A method whose body can take the mutant: the file and the byte offset just inside its `{`.
struct Candidate {
    file: PathBuf,
    name: String,
    body: usize,
}

/// Every method of the library with a block body, sorted by file and place.
async fn candidates(server: &Server, repo: &Path) -> Vec<Candidate> {
    let mut files: Vec<PathBuf> = walk(&repo.join(LIBRARY));
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a library file");
        let mut arguments = json!({"filePath": file, "pageSize": 200});
        loop {
            let page = server.ok("get_document_symbols", arguments.clone()).await;
            for symbol in page["symbols"].as_array().into_iter().flatten().filter(|s| s["kind"] == "Method") {
                let name = symbol["detail"].as_str().unwrap_or_default().to_owned();
                let after_name = offset(&text, &symbol["selectionRange"]);
                if let Some(body) = after_name.and_then(|at| block_body(&text, at)) {
                    found.push(Candidate { file: file.clone(), name, body });
                }
            }
            match page["nextCursor"].as_str() {
                Some(cursor) => arguments["cursor"] = json!(cursor),
                None => break,
            }
        }
    }
    found
}

/// The byte offset of a range's end (1-based line and UTF-16 column).
fn offset(text: &str, range: &Value) -> Option<usize> {
    let (line, column) = (range["endLine"].as_u64()? as usize, range["endColumn"].as_u64()? as usize);
    let start: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
    let line_text = text[start..].split('\n').next()?;
    let mut units = 0;
    for (at, c) in line_text.char_indices() {
        if units + 1 >= column {
            return Some(start + at);
        }
        units += c.len_utf16();
    }
    Some(start + line_text.len())
}

/// Just inside the body's `{` after a method's name: past its parameters (parentheses balanced) and any
/// constraints; none for an expression body or no body.
fn block_body(text: &str, from: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for (at, c) in text[from..].char_indices() {
        match c {
            '(' => (depth, opened) = (depth + 1, true),
            ')' => depth -= 1,
            '{' if opened && depth == 0 => return Some(from + at + 1),
            ';' | '=' if opened && depth == 0 => return None,
            _ => {}
        }
    }
    None
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() && name != "bin" && name != "obj" {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "cs") {
            files.push(path);
        }
    }
    files
}
