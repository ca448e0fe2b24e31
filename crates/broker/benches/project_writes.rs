//! Whole-project writes on a large project: sync_namespaces, format_document, organize_usings and
//! remove_unused of one project, each applied (and undone before the next), as an agent runs them:
//! - `c700`: a generated single project of 700 files (`cargo xtask corpus --projects 1 --documents 700`, two
//!   target frameworks; every file's namespace is its project's, so sync_namespaces changes each one);
//! - `refit`: the Refit library of `../shared/corpora/refit` (a copy, restored), its project `Refit`.
//!
//! For each write: the call end to end, the host's computation (`_meta`), Roslyn's own services inside it
//! (the phases named "Roslyn's ..." in the host's plan log line), and how long the write held the solution's
//! write lock (the service's "write lock released" line).
//!
//! `cargo bench -p broker --bench project_writes` (ROSLYN_MCP_BENCH_WRITES="c700,refit" picks the targets;
//! ROSLYN_MCP_BENCH_REFIT names a restored copy of the Refit corpus instead of making one).

#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use support::{Fixture, Server};

/// The computation's own limit is the service's default; a call answers as a whole (this client waits).
const ENV: [(&str, &str); 2] = [support::ANSWER_AS_A_WHOLE, ("ROSLYN_MCP_LOAD_TIMEOUT_SECS", "1200")];

const WRITES: [&str; 4] = ["sync_namespaces", "format_document", "organize_usings", "remove_unused"];

fn main() {
    let targets = std::env::var("ROSLYN_MCP_BENCH_WRITES").unwrap_or_else(|_| "c700,refit".into());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    for target in targets.split(',').map(str::trim) {
        let (fixture, solution, project) = match target {
            "c700" => c700(),
            "refit" => refit(),
            other => panic!("ROSLYN_MCP_BENCH_WRITES: no target {other:?}"),
        };
        runtime.block_on(writes(target, &fixture.root, &solution, project));
    }
}

async fn writes(target: &str, root: &Path, solution: &Path, project: &str) {
    let server = Server::start_with_env(root, &ENV).await;
    let began = Instant::now();
    server.ok("initialize_workspace", json!({"workingDirectory": root, "preferredSolution": solution})).await;
    println!("{target}: loaded in {:.1} s", began.elapsed().as_secs_f64());
    for tool in WRITES {
        let logged = log_len(&server.log);
        let began = Instant::now();
        let outcome = server.call(tool, json!({"project": project, "solutionPath": solution})).await;
        let total = began.elapsed().as_secs_f64() * 1000.0;
        if outcome.is_error {
            println!("{target} {tool}: refused after {total:.0} ms: {}", outcome.value["error"]);
            continue;
        }
        let log = std::fs::read_to_string(&server.log).expect("log")[logged..].to_owned();
        let (plan, roslyn) = plan_line(&log);
        let held = held_ms(&log);
        let files = outcome.value["changes"]["filesModified"].as_array().map_or(0, Vec::len);
        println!(
            "{target} {tool}: {files} files changed; end to end {total:.0} ms, host {:.0} ms ({:.2}x), Roslyn's own {roslyn:.0} ms ({:.2}x of the host's), lock held {held:.0} ms ({:.3}x of the call)",
            outcome.host_ms,
            total / outcome.host_ms,
            roslyn / outcome.host_ms,
            held / total,
        );
        println!("  host: {plan}");
        if let Some(rebased) = outcome.value.get("rebased") {
            println!("  brought onto the solution as it is: {} ({})", rebased["how"], rebased["changedSince"]);
        }
        if let Some(operation) = outcome.value["operationId"].as_str() {
            let undone = server.call("undo", json!({"operationId": operation, "solutionPath": solution})).await;
            assert!(!undone.is_error, "undo {tool}: {}", undone.value);
        }
    }
    server.stop().await;
}

fn log_len(log: &Path) -> usize {
    std::fs::metadata(log).map_or(0, |m| m.len() as usize)
}

/// The host's plan line ("sync of 700 file(s), ...: 61234 ms (reading 12 ms, ...)") and the milliseconds of its
/// phases named "Roslyn's ...".
fn plan_line(log: &str) -> (String, f64) {
    let line = log
        .lines()
        .filter_map(|l| l.split("roslyn-host: ").nth(1))
        .find(|l| l.contains(" ms (") && l.contains("file(s)"))
        .map(|l| l.split(" host_pid=").next().unwrap_or(l).to_owned())
        .unwrap_or_default();
    let roslyn = line
        .split(", ")
        .flat_map(|part| part.split(" ("))
        .filter_map(|part| part.strip_prefix("Roslyn's "))
        .filter_map(|part| part.rsplit(' ').nth(1)?.parse::<f64>().ok())
        .fold(0.0, |sum, ms| sum + ms);
    (line, roslyn)
}

/// The milliseconds of the call's "write lock released" lines (a write that finds the solution moved on when
/// its turn comes lets the lock go and takes it again).
fn held_ms(log: &str) -> f64 {
    log.lines()
        .filter(|l| l.contains("write lock released"))
        .filter_map(|l| l.split("held_ms=").nth(1)?.split_whitespace().next()?.parse::<f64>().ok())
        .sum()
}

/// The generated 700-file project, restored.
fn c700() -> (Fixture, PathBuf, &'static str) {
    let fixture = Fixture::empty("Corpus");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "-q", "-p", "xtask", "--", "corpus"])
        .arg(&fixture.root)
        .args(["--projects", "1", "--documents", "700"])
        .output()
        .expect("run cargo xtask corpus");
    assert!(output.status.success(), "corpus: {}", String::from_utf8_lossy(&output.stderr));
    let line: Value = serde_json::from_slice(&output.stdout).expect("the corpus's JSON line");
    let solution = PathBuf::from(line["solution"].as_str().expect("solution"));
    restore(&fixture.root, solution.file_name().and_then(|n| n.to_str()).expect("name"));
    (fixture, solution, "P00")
}

/// A restored copy of the Refit corpus, and its library project.
fn refit() -> (Fixture, PathBuf, &'static str) {
    let fixture = Fixture::empty("Refit");
    let source = std::env::var("ROSLYN_MCP_BENCH_REFIT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/refit"));
    support::copy_tree(&source, &fixture.root);
    let status = Command::new("chmod").arg("-R").arg("u+w").arg(&fixture.root).status().expect("chmod");
    assert!(status.success());
    restore(&fixture.root.join("src"), "Refit.corpus.slnx");
    let solution = fixture.root.join("src/Refit.corpus.slnx");
    (fixture, solution, "Refit")
}

fn restore(dir: &Path, solution: &str) {
    let output = Command::new("dotnet")
        .args(["restore", solution, "-nologo", "-v:q"])
        .current_dir(dir)
        .output()
        .expect("dotnet");
    assert!(output.status.success(), "restore: {}", String::from_utf8_lossy(&output.stdout));
}
