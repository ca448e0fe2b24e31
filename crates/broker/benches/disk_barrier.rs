//! What answering from the disk as the caller left it costs, against another build of roslyn-mcp in the same
//! run (`ROSLYN_MCP_BENCH_BASELINE=<its roslyn-mcp binary>`, e.g. the commit before the disk barrier), each
//! build on its own copy, the builds taking turns (`ROSLYN_MCP_BENCH_ROUNDS`, 2 by default: each goes first once):
//! - warm `find_references` with nothing changed on disk: p50 and p95 of `ROSLYN_MCP_BENCH_CALLS` calls (50 by
//!   default) on Shop (`Customer`) and, given `ROSLYN_MCP_BENCH_LIBRARY=<checkout of xoofx/markdig>`, on Markdig
//!   (`StringSlice.NextChar()`, 94 places in 5 target frameworks);
//! - a burst: 500 new files, each calling the searched member, written at once; then the time from the burst's
//!   start to the first answer that holds all 500 (this build answers so at once; a build without the barrier
//!   is asked again until it does).
//!
//! `ROSLYN_MCP_BENCH_BASELINE=<binary> ROSLYN_MCP_BENCH_LIBRARY=<markdig> cargo bench -p broker --bench disk_barrier`

#[path = "common/source.rs"]
mod source;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use stats::{ms, percentiles};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::{Fixture, Server};

/// Files of a burst.
const BURST: usize = 500;
/// How long a build may take to show a burst whole.
const BURST_LIMIT: Duration = Duration::from_secs(120);

fn main() {
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    let rounds: usize = std::env::var("ROSLYN_MCP_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    let baseline = std::env::var_os("ROSLYN_MCP_BENCH_BASELINE").map(PathBuf::from);
    let library = std::env::var_os("ROSLYN_MCP_BENCH_LIBRARY").map(PathBuf::from);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(calls, rounds, baseline, library));
}

/// A solution to measure on: how to copy it, where to load it, what to search, and how a burst file calls it.
struct Subject {
    name: &'static str,
    copy: Box<dyn Fn() -> Copy>,
    /// Relative to the copy: the folder to initialize in, the searched member's file, its declaring line and
    /// name, and the folder (one that exists: a new one is another case) a burst writes into.
    load: &'static str,
    file: &'static str,
    needle: &'static str,
    member: &'static str,
    burst_dir: &'static str,
    /// The text of burst file `n`.
    burst_file: fn(usize) -> String,
}

/// A private copy of a solution, removed when dropped.
struct Copy {
    root: PathBuf,
    _keep: Box<dyn std::any::Any>,
}

async fn run(calls: usize, rounds: usize, baseline: Option<PathBuf>, library: Option<PathBuf>) {
    let mut subjects = vec![Subject {
        name: "Shop",
        copy: Box::new(|| {
            let shop = Fixture::copy("Shop");
            Copy { root: shop.root.clone(), _keep: Box::new(shop) }
        }),
        load: ".",
        file: "src/Shop.Core/Models/Customer.cs",
        needle: "public class Customer",
        member: "Customer",
        burst_dir: "src/Shop.App",
        burst_file: |n| {
            format!(
                "namespace Shop.App;\n\npublic static class Burst{n}\n{{\n    public static Shop.Core.Models.Customer Make() => new Shop.Core.Models.Customer();\n}}\n"
            )
        },
    }];
    if let Some(library) = library {
        subjects.push(Subject {
            name: "Markdig",
            copy: Box::new(move || {
                let dir = tempfile::Builder::new().prefix("roslyn-mcp-bench-").tempdir().expect("temp dir");
                support::copy_tree(&library, dir.path());
                Copy { root: dir.path().to_path_buf(), _keep: Box::new(dir) }
            }),
            load: "src/Markdig",
            file: "src/Markdig/Helpers/StringSlice.cs",
            needle: "public char NextChar()",
            member: "NextChar",
            burst_dir: "src/Markdig/Helpers",
            burst_file: |n| format!("namespace Markdig.Burst;\n\ninternal static class Burst{n}\n{{\n    public static char Next(Markdig.Helpers.StringSlice slice) => slice.NextChar();\n}}\n"),
        });
    }
    let mut builds: Vec<(&str, Option<PathBuf>)> = vec![("this build", None)];
    if let Some(baseline) = baseline {
        builds.push(("baseline", Some(baseline)));
    }
    for subject in &subjects {
        println!(
            "{}: warm find_references of {} ({calls} calls), then a burst of {BURST} new files; {rounds} rounds:",
            subject.name, subject.member
        );
        for round in 0..rounds {
            // The builds take turns going first, so that neither gains from the machine the other leaves.
            let mut order: Vec<&(&str, Option<PathBuf>)> = builds.iter().collect();
            if round % 2 == 1 {
                order.reverse();
            }
            let mut figures = Vec::new();
            for (label, binary) in order {
                let measured = measure(subject, binary.as_deref(), calls).await;
                let burst = match measured.burst_ms {
                    Some(ms) => format!("{ms:.0} ms ({} asked)", measured.asked),
                    None => format!("not within {BURST_LIMIT:?} ({} asked)", measured.asked),
                };
                println!(
                    "  round {}, {label}: warm p50 {:.2} ms, p95 {:.2} ms; burst to the first answer holding it whole {burst}",
                    round + 1,
                    measured.p50,
                    measured.p95
                );
                figures.push((*label, measured));
            }
            figures.sort_by_key(|(label, _)| *label != "this build");
            if let [(_, this), (_, base)] = &figures[..] {
                let burst = match (this.burst_ms, base.burst_ms) {
                    (Some(this), Some(base)) => format!("{:.2}x", this / base),
                    _ => "-".to_owned(),
                };
                println!(
                    "  round {}, this build / baseline: warm p50 {:.3}x ({:+.3} ms), p95 {:.3}x; burst {burst}",
                    round + 1,
                    this.p50 / base.p50,
                    this.p50 - base.p50,
                    this.p95 / base.p95,
                );
            }
        }
    }
}

struct Figures {
    p50: f64,
    p95: f64,
    /// None when the build never showed it whole within the limit.
    burst_ms: Option<f64>,
    /// Answers it took to see the burst whole.
    asked: usize,
}

async fn measure(subject: &Subject, binary: Option<&Path>, calls: usize) -> Figures {
    let copy = (subject.copy)();
    let server = match binary {
        Some(binary) => Server::start_binary(binary, &copy.root).await,
        None => Server::start_alone(&copy.root).await,
    };
    server.ok("initialize_workspace", json!({"workingDirectory": copy.root.join(subject.load)})).await;
    server.warm_up_finished(Duration::from_secs(600)).await;
    let file = copy.root.join(subject.file);
    let (line, column) = source::position_of(&file, subject.needle, subject.member);
    let question = json!({"filePath": file, "line": line, "column": column, "pageSize": 1});
    let before = count(&server, &question).await;
    for _ in 0..5 {
        count(&server, &question).await;
    }
    let mut samples = Vec::with_capacity(calls);
    for _ in 0..calls {
        let began = Instant::now();
        count(&server, &question).await;
        samples.push(ms(began.elapsed()));
    }
    let (p50, p95) = percentiles(&mut samples);

    let folder = copy.root.join(subject.burst_dir);
    let began = Instant::now();
    for n in 0..BURST {
        std::fs::write(folder.join(format!("Burst{n}.cs")), (subject.burst_file)(n)).expect("burst file");
    }
    let mut asked = 0;
    let burst_ms = loop {
        asked += 1;
        if count(&server, &question).await >= before + BURST as u64 {
            break Some(ms(began.elapsed()));
        }
        if began.elapsed() > BURST_LIMIT {
            break None;
        }
    };
    server.stop().await;
    Figures { p50, p95, burst_ms, asked }
}

/// The references' total count.
async fn count(server: &Server, question: &Value) -> u64 {
    server.ok("find_references", question.clone()).await["totalCount"].as_u64().expect("totalCount")
}
