//! find_tests and run_tests against a real library's own test suite, as a client calls them. The library is a
//! checkout nobody here wrote, given as `ROSLYN_MCP_BENCH_TESTS=<checkout>` (a git clone with a clean tree:
//! every mutant is undone before the next); by default Markdig (xoofx/markdig, measured at
//! fc705234fa211d179ee1d5e7656b51ab99f70ca9: `src/Markdig`, 5 target frameworks, and `src/Markdig.Tests`,
//! NUnit on VSTest, net8.0 and net10.0). Another repository: `ROSLYN_MCP_BENCH_TEST_PROJECT` (the test
//! project's name), `ROSLYN_MCP_BENCH_LIBRARY_DIR` (the mutated library's folder) and
//! `ROSLYN_MCP_BENCH_SOLUTION_DIR` (where initialize_workspace starts), each relative to the checkout.
//!
//! Mutants: methods with a block body in the library, found with get_document_symbols, taken evenly over the
//! sorted list; each gets `throw new System.InvalidOperationException("mutant");` as its first statement, so
//! every test that runs it fails. For each mutant that builds and fails at least one test:
//! - find_tests `{changedSince: "HEAD", project}`, every page, timed first after the edit and then warm;
//! - the selection: run_tests `{changedSince: "HEAD", project}` (the service selects, copies, builds, runs);
//! - the whole suite: run_tests `{project}`, after the mutated file's time is moved on so that it builds the
//!   same again; its failures (less those failing before any mutant) are the truth.
//!
//! Recall is the share of failed test methods the selection holds; the time ratio is the selection call's
//! time over the whole suite's call. `ROSLYN_MCP_BENCH_MUTANTS` sets how many mutants (20 by default);
//! `ROSLYN_MCP_BENCH_ONLY=<text>,<text>` measures, of those, only the methods whose name holds one of the texts
//! (to look again at what a run missed).

#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use stats::{ms, percentiles};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};
use support::Server;

const MUTANT: &str = "throw new System.InvalidOperationException(\"mutant\");";
/// run_tests' limit for one call: the whole suite of a real library, built.
const RUN_LIMIT_SECONDS: u32 = 1800;

/// What is measured: the test project and the library it tests, in one checkout.
struct Subject {
    repo: PathBuf,
    test_project: String,
    library: PathBuf,
    solution_dir: PathBuf,
}

fn main() {
    let Some(repo) = std::env::var_os("ROSLYN_MCP_BENCH_TESTS").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_TESTS to a git clone of xoofx/markdig (or see the header for another)");
        return;
    };
    let setting = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_owned());
    let subject = Subject {
        test_project: setting("ROSLYN_MCP_BENCH_TEST_PROJECT", "Markdig.Tests"),
        library: repo.join(setting("ROSLYN_MCP_BENCH_LIBRARY_DIR", "src/Markdig")),
        solution_dir: repo.join(setting("ROSLYN_MCP_BENCH_SOLUTION_DIR", "src")),
        repo,
    };
    let wanted: usize = std::env::var("ROSLYN_MCP_BENCH_MUTANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let only: Vec<String> =
        setting("ROSLYN_MCP_BENCH_ONLY", "").split(',').filter(|t| !t.is_empty()).map(str::to_owned).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&subject, wanted, &only));
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
    /// The selection's build and run, as run_tests reports them.
    selection_build_run_ms: (u64, u64),
}

async fn run(subject: &Subject, wanted: usize, only: &[String]) {
    let repo = &subject.repo;
    let status = Command::new("git").arg("-C").arg(repo).args(["status", "--porcelain"]).output().expect("git runs");
    assert!(status.stdout.is_empty(), "{} has changes: the mutants need a clean tree", repo.display());
    let server = Server::start_alone(repo).await;
    server.ok("initialize_workspace", json!({"workingDirectory": subject.solution_dir})).await;
    server.warm_up_finished(Duration::from_secs(900)).await;

    let (baseline, whole_ms) = run_tests(&server, json!({"project": subject.test_project})).await;
    let baseline = baseline.expect("the checkout builds and its tests run");
    let failing_before = failed(&baseline);
    let total = baseline["summary"]["total"].as_u64().unwrap_or(0);
    println!(
        "{}: {total} test cases, {} test methods failing before any mutant; whole suite built and run in {:.1} s",
        repo.display(),
        failing_before.len(),
        whole_ms / 1000.0
    );
    let began = Instant::now();
    let first = server.ok("find_tests", json!({"changedSince": "HEAD", "project": subject.test_project})).await;
    println!("first find_tests after the load (reach graph built): {:.0} ms", ms(began.elapsed()));
    let test_methods = first["projects"][0]["testCount"].as_u64().unwrap_or(0);

    let candidates = candidates(&server, &subject.library).await;
    println!("{} methods with a block body in {}", candidates.len(), subject.library.display());
    let mut measured = Vec::new();
    let mut skipped = (0, 0);
    let stride = (candidates.len() / (wanted * 3)).max(1);
    for candidate in candidates.iter().step_by(stride) {
        if measured.len() == wanted {
            break;
        }
        if !only.is_empty() && !only.iter().any(|text| candidate.name.contains(text.as_str())) {
            continue;
        }
        let mutant = Mutant::write(candidate);
        let outcome = measure(&server, subject, candidate, &failing_before).await;
        drop(mutant);
        match outcome {
            Some(m) if !m.failed.is_empty() => {
                println!(
                    "  {}: {} failed, {} of them selected, {} selected; find_tests {:.0} ms (warm {:.0} ms), selection {:.1} s (build {:.1} s, run {:.1} s) vs whole {:.1} s",
                    m.method,
                    m.failed.len(),
                    m.failed.intersection(&m.selected).count(),
                    m.selected.len(),
                    m.select_ms,
                    m.warm_ms,
                    m.selection_ms / 1000.0,
                    m.selection_build_run_ms.0 as f64 / 1000.0,
                    m.selection_build_run_ms.1 as f64 / 1000.0,
                    m.full_ms / 1000.0
                );
                let missed: Vec<&String> = m.failed.difference(&m.selected).collect();
                if !missed.is_empty() {
                    println!("    failed but not selected: {missed:?}");
                }
                measured.push(m);
            }
            Some(_) => skipped.0 += 1,
            None => skipped.1 += 1,
        }
    }
    server.stop().await;
    report(&measured, skipped, total, test_methods);
}

fn report(measured: &[Measured], (uncovered, unbuilt): (usize, usize), total: u64, test_methods: u64) {
    let failed: usize = measured.iter().map(|m| m.failed.len()).sum();
    let caught: usize = measured.iter().map(|m| m.failed.intersection(&m.selected).count()).sum();
    let all_caught = measured.iter().filter(|m| m.failed.is_subset(&m.selected)).count();
    let ratios: Vec<f64> = measured.iter().map(|m| m.selection_ms / m.full_ms).collect();
    let mut warm: Vec<f64> = measured.iter().map(|m| m.warm_ms).collect();
    let mut first: Vec<f64> = measured.iter().map(|m| m.select_ms).collect();
    let selected: usize = measured.iter().map(|m| m.selected.len()).sum();
    println!(
        "{} mutants measured ({uncovered} more failed no test, {unbuilt} did not build); {total} test cases in {test_methods} test methods",
        measured.len()
    );
    println!(
        "  recall: {caught} of {failed} failed test methods selected ({:.1}%); every failure selected for {all_caught} of {} mutants",
        100.0 * caught as f64 / failed.max(1) as f64,
        measured.len()
    );
    println!("  selected test methods per mutant: mean {:.0}", selected as f64 / measured.len().max(1) as f64);
    println!(
        "  time, run_tests of the change / run_tests of the whole project: mean {:.2}x, min {:.2}x, max {:.2}x",
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
    subject: &Subject,
    candidate: &Candidate,
    failing_before: &BTreeSet<String>,
) -> Option<Measured> {
    let arguments = json!({"changedSince": "HEAD", "project": subject.test_project, "pageSize": 200});
    let began = Instant::now();
    let found = all_pages(server, arguments.clone()).await;
    let select_ms = ms(began.elapsed());
    let began = Instant::now();
    all_pages(server, arguments).await;
    let warm_ms = ms(began.elapsed());
    let selected: BTreeSet<String> = found.iter().filter_map(|t| t["id"].as_str().map(str::to_owned)).collect();

    let (selection, selection_ms) =
        run_tests(server, json!({"changedSince": "HEAD", "project": subject.test_project})).await;
    let summary = &selection?["summary"];
    let selection_build_run_ms = (summary["buildMs"].as_u64().unwrap_or(0), summary["runMs"].as_u64().unwrap_or(0));
    // The whole suite builds what the selection built: the mutated file is newer again.
    touch(&candidate.file);
    let (whole, full_ms) = run_tests(server, json!({"project": subject.test_project})).await;
    let failed = failed(&whole?).difference(failing_before).cloned().collect();
    Some(Measured {
        method: candidate.name.clone(),
        failed,
        selected,
        select_ms,
        warm_ms,
        full_ms,
        selection_ms,
        selection_build_run_ms,
    })
}

/// A run_tests call as a client times it: its answer (none for an error: a mutant that does not build) and
/// its time.
async fn run_tests(server: &Server, mut arguments: Value) -> (Option<Value>, f64) {
    arguments["timeoutSeconds"] = json!(RUN_LIMIT_SECONDS);
    let began = Instant::now();
    let outcome = server.call("run_tests", arguments).await;
    (Some(outcome.value).filter(|_| !outcome.is_error), ms(began.elapsed()))
}

/// The test methods with a failed or crashed case.
fn failed(run: &Value) -> BTreeSet<String> {
    run["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| matches!(r["outcome"].as_str(), Some("failed" | "crashed")))
        .filter_map(|r| r["test"].as_str().map(str::to_owned))
        .collect()
}

fn touch(file: &Path) {
    let file = std::fs::File::options().write(true).open(file).expect("the mutated file");
    file.set_modified(SystemTime::now()).expect("its time moved on");
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
async fn candidates(server: &Server, library: &Path) -> Vec<Candidate> {
    let mut files: Vec<PathBuf> = walk(library);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        // A file in another encoding is left out: the mutant is written as UTF-8.
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
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
