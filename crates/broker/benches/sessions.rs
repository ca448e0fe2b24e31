//! Many agent sessions on the Shop fixture at once: N MCP sessions of one daemon (`roslyn-mcp serve`, over
//! Streamable HTTP and through `roslyn-mcp stdio` bridges) against N processes that each serve one session
//! with their own Roslyn host (`roslyn-mcp stdio --embedded`), measured in the same run. For each: the
//! throughput of the whole run, p50/p99 latency of diagnose (no host) and of warm find_references, and the
//! resident memory of every process involved, Roslyn hosts included.
//!
//! `cargo bench -p broker --bench sessions` (ROSLYN_MCP_BENCH_SESSIONS="1,10,50" sets the session counts,
//! ROSLYN_MCP_BENCH_BASELINE_SESSIONS="1,10" those of the one-process-per-session baseline,
//! ROSLYN_MCP_BENCH_CALLS the measured calls of each tool per session).

#[path = "common/procfs.rs"]
mod procfs;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use futures::future::join_all;
use procfs::{cpu_ms, vm_rss};
use rmcp::ClientHandler;
use serde_json::{Value, json};
use stats::{ms, percentiles, quantile};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use support::daemon::{StateDir, host_pids, signal};
use support::{Client, Fixture, SLOTS, Server, children, group_members};

const PROGRAM: &str = "src/Shop.App/Program.cs";
/// Calls of each tool a session makes before it is measured: the first find_references loads the solution
/// (once in a daemon, once per session in the baseline), and .NET optimizes a method after 30 calls, so
/// that even a host serving one session answers the measured calls from optimized code.
const WARM_UP: usize = 30;
/// The baseline's first answers: at 50 sessions, their hosts load at once and pass the default 30 s limit.
const REQUEST_TIMEOUT: (&str, &str) = ("ROSLYN_MCP_REQUEST_TIMEOUT_SECS", "120");
const MIB: f64 = 1024.0 * 1024.0;
/// The diagnose flood makes this many calls per session for each measured round of the mixed run.
const FLOOD_ROUNDS: usize = 5;

#[derive(Clone, Copy, PartialEq)]
enum Setup {
    /// Sessions of one daemon over Streamable HTTP.
    Http,
    /// Sessions of one daemon, each through its own `roslyn-mcp stdio` bridge process.
    Bridges,
    /// One `roslyn-mcp stdio --embedded` process per session, each with its own Roslyn host.
    Embedded,
}

impl Setup {
    fn label(self) -> &'static str {
        match self {
            Setup::Http => "daemon, HTTP",
            Setup::Bridges => "daemon, stdio bridges",
            Setup::Embedded => "per process (embedded)",
        }
    }
}

fn main() {
    let sessions = levels("ROSLYN_MCP_BENCH_SESSIONS", "1,10,50");
    let baseline = levels("ROSLYN_MCP_BENCH_BASELINE_SESSIONS", "1,10");
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&sessions, &baseline, calls));
}

/// Session counts from a comma-separated variable.
fn levels(variable: &str, default: &str) -> Vec<usize> {
    let text = std::env::var(variable).unwrap_or_else(|_| default.to_owned());
    text.split(',').map(|n| n.trim().parse().unwrap_or_else(|_| panic!("{variable}: {n:?} is not a count"))).collect()
}

/// What one setup measured with a number of sessions.
struct Level {
    setup: Setup,
    sessions: usize,
    /// From starting the processes to every session's first answers, loads included.
    ready: Duration,
    elapsed: Duration,
    diagnose: Latency,
    references: Latency,
    resident_bytes: u64,
    /// diagnose alone, through a daemon.
    flood: Option<Flood>,
}

impl Level {
    fn throughput(&self) -> f64 {
        (self.diagnose.calls + self.references.calls) as f64 / self.elapsed.as_secs_f64()
    }

    fn mib(&self) -> f64 {
        self.resident_bytes as f64 / MIB
    }
}

/// Milliseconds per call of one tool over a run.
struct Latency {
    calls: usize,
    p50: f64,
    p99: f64,
}

impl Latency {
    fn of(mut samples: Vec<f64>) -> Self {
        let (p50, _) = percentiles(&mut samples);
        // percentiles sorted the samples.
        let p99 = quantile(&samples, 0.99);
        Self { calls: samples.len(), p50, p99 }
    }
}

async fn run(sessions: &[usize], baseline: &[usize], calls: usize) {
    let shop = Fixture::copy("Shop");
    let (line, column) = shop.position_of(PROGRAM, "names =", 0);
    let question = json!({"filePath": shop.file(PROGRAM), "line": line, "column": column + 1});
    // Restored once, so that every level's loads find the fixture's assets.
    let restore = Server::start(&shop.root, &[]).await;
    restore.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;
    restore.stop().await;

    let mut results = Vec::new();
    for setup in [Setup::Http, Setup::Bridges] {
        for &n in sessions {
            results.push(through_daemon(setup, n, &shop, calls, &question).await);
        }
    }
    // The harness lets tests run two services at once; the baseline runs its N on purpose.
    SLOTS.add_permits(baseline.iter().copied().max().unwrap_or(0));
    for &n in baseline {
        let began = Instant::now();
        let servers = join_all((0..n).map(|_| Server::start_with_env(&shop.root, &[REQUEST_TIMEOUT]))).await;
        let clients: Vec<&Client> = servers.iter().map(|s| &**s).collect();
        results.push(measure(Setup::Embedded, &clients, began, calls, &question).await);
        join_all(servers.into_iter().map(Server::stop)).await;
    }
    report(&results, baseline, calls);
}

/// N sessions of a daemon started for them, as the baseline's processes are: its memory owes nothing to
/// earlier levels.
async fn through_daemon(setup: Setup, n: usize, shop: &Fixture, calls: usize, question: &Value) -> Level {
    let began = Instant::now();
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    // Bridges that find no daemon yet would start their own, and this one would then exit as the second.
    assert_eq!(state.daemon_pid().await, daemon.id(), "the daemon this level started serves it");
    let clients = match setup {
        Setup::Bridges => join_all((0..n).map(|_| state.bridge(&shop.root))).await,
        Setup::Http => join_all((0..n).map(|_| state.http_client(None))).await,
        Setup::Embedded => unreachable!("the baseline has no daemon"),
    };
    let sessions: Vec<&Client<_>> = clients.iter().collect();
    let mut level = measure(setup, &sessions, began, calls, question).await;
    level.flood = Some(flood(&sessions, daemon.id(), calls * FLOOD_ROUNDS).await);
    join_all(clients.into_iter().map(Client::close)).await;
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("daemon exit").success(), "daemon log: {}", state.serve_log());
    level
}

/// Warms every session up, then measures `calls` rounds of each; memory is taken with the sessions open.
async fn measure<H: ClientHandler>(
    setup: Setup,
    sessions: &[&Client<H>],
    began: Instant,
    calls: usize,
    question: &Value,
) -> Level {
    eprintln!("{}: {} sessions", setup.label(), sessions.len());
    exercise(sessions, 1, question).await;
    let ready = began.elapsed();
    exercise(sessions, WARM_UP - 1, question).await;
    let (elapsed, diagnose, references) = exercise(sessions, calls, question).await;
    let mut hosts = BTreeSet::new();
    for session in sessions {
        hosts.extend(host_pids(&session.ok("diagnose", json!({})).await));
    }
    Level {
        setup,
        sessions: sessions.len(),
        ready,
        elapsed,
        diagnose: Latency::of(diagnose),
        references: Latency::of(references),
        resident_bytes: resident_bytes(&hosts),
        flood: None,
    }
}

/// diagnose alone from every session at once, back to back: the most calls the daemon answers per second
/// here, their latency, and the daemon's CPU time per call (what the per-call path costs, Roslyn aside).
struct Flood {
    per_second: f64,
    latency: Latency,
    daemon_cpu_ms: f64,
}

async fn flood<H: ClientHandler>(sessions: &[&Client<H>], daemon: u32, calls: usize) -> Flood {
    let cpu = cpu_ms(daemon);
    let began = Instant::now();
    let per_session = join_all(sessions.iter().map(|client| async move {
        let mut samples = Vec::with_capacity(calls);
        for _ in 0..calls {
            let call = Instant::now();
            client.ok("diagnose", json!({})).await;
            samples.push(ms(call.elapsed()));
        }
        samples
    }))
    .await;
    let elapsed = began.elapsed();
    let daemon_cpu = cpu_ms(daemon) - cpu;
    let latency = Latency::of(per_session.concat());
    Flood {
        per_second: latency.calls as f64 / elapsed.as_secs_f64(),
        daemon_cpu_ms: daemon_cpu / latency.calls as f64,
        latency,
    }
}

/// Every session makes `calls` rounds of diagnose then find_references, all sessions at once: the wall
/// time of the whole run and each call's milliseconds, per tool.
async fn exercise<H: ClientHandler>(
    sessions: &[&Client<H>],
    calls: usize,
    question: &Value,
) -> (Duration, Vec<f64>, Vec<f64>) {
    let began = Instant::now();
    let per_session = join_all(sessions.iter().map(|client| async move {
        let (mut diagnose, mut references) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
        for _ in 0..calls {
            let call = Instant::now();
            client.ok("diagnose", json!({})).await;
            diagnose.push(ms(call.elapsed()));
            let call = Instant::now();
            client.ok("find_references", question.clone()).await;
            references.push(ms(call.elapsed()));
        }
        (diagnose, references)
    }))
    .await;
    let elapsed = began.elapsed();
    let (diagnose, references): (Vec<Vec<f64>>, Vec<Vec<f64>>) = per_session.into_iter().unzip();
    (elapsed, diagnose.concat(), references.concat())
}

/// Resident memory of every process this bench started (daemon, bridges or embedded services) and of
/// every process in each host's group (a host leads its own group, `dotnet` and what it spawns).
fn resident_bytes(hosts: &BTreeSet<u32>) -> u64 {
    let mut pids: BTreeSet<u32> = children(std::process::id()).into_iter().collect();
    pids.extend(hosts.iter().flat_map(|&host| group_members(host)));
    pids.into_iter().map(vm_rss).sum()
}

fn report(results: &[Level], baseline: &[usize], calls: usize) {
    report_flood(results, calls);
    let counts = baseline.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
    println!();
    println!("Shop fixture; per session {calls} measured rounds of diagnose + warm find_references, after");
    println!("{WARM_UP} warm-up rounds. Baseline: one roslyn-mcp stdio --embedded process per session, each with its");
    println!("own Roslyn host, at N = {counts} (ROSLYN_MCP_BENCH_BASELINE_SESSIONS; default 1,10 since each of");
    println!("its sessions loads the solution in a .NET host of its own). Memory: VmRSS of the daemon (and the");
    println!("bridges) or of the embedded processes, plus every process of each host's group. Each level starts");
    println!("its own processes; \"ready\": from their start to every session's first answer (loads included:");
    println!("the daemon loads once, the baseline N times).");
    println!();
    println!(
        "{:<24} {:>3} {:>8} {:>9} {:>19} {:>19} {:>10} {:>9}",
        "setup", "N", "ready s", "calls/s", "diagnose p50/p99", "find_refs p50/p99", "RSS MiB", "MiB/sess"
    );
    for level in results {
        let (d, r) = (&level.diagnose, &level.references);
        println!(
            "{:<24} {:>3} {:>8.1} {:>9.1} {:>8.2} /{:>7.2} ms {:>8.2} /{:>7.2} ms {:>10.0} {:>9.1}",
            level.setup.label(),
            level.sessions,
            level.ready.as_secs_f64(),
            level.throughput(),
            d.p50,
            d.p99,
            r.p50,
            r.p99,
            level.mib(),
            level.mib() / level.sessions as f64,
        );
    }
    println!();
    println!("daemon / per process at the same N (throughput above 1, latency and memory below 1 favour the daemon)");
    println!(
        "{:<24} {:>3} {:>8} {:>19} {:>19} {:>10}",
        "setup", "N", "calls/s", "diagnose p50/p99", "find_refs p50/p99", "RSS"
    );
    for level in results.iter().filter(|l| l.setup != Setup::Embedded) {
        let Some(base) = results.iter().find(|b| b.setup == Setup::Embedded && b.sessions == level.sessions) else {
            println!("{:<24} {:>3}   no baseline at this N", level.setup.label(), level.sessions);
            continue;
        };
        println!(
            "{:<24} {:>3} {:>7.2}x {:>8.2}x/{:>7.2}x {:>8.2}x/{:>7.2}x {:>9.3}x",
            level.setup.label(),
            level.sessions,
            level.throughput() / base.throughput(),
            level.diagnose.p50 / base.diagnose.p50,
            level.diagnose.p99 / base.diagnose.p99,
            level.references.p50 / base.references.p50,
            level.references.p99 / base.references.p99,
            level.mib() / base.mib(),
        );
    }
}

fn report_flood(results: &[Level], calls: usize) {
    println!();
    println!(
        "diagnose alone, {} calls per session back to back, every session at once (daemon CPU: its",
        calls * FLOOD_ROUNDS
    );
    println!("user + system time over the run / calls; the clients share the same 2 cores)");
    println!("{:<24} {:>3} {:>9} {:>19} {:>16}", "setup", "N", "calls/s", "diagnose p50/p99", "daemon CPU/call");
    for level in results {
        if let Some(flood) = &level.flood {
            println!(
                "{:<24} {:>3} {:>9.1} {:>8.2} /{:>7.2} ms {:>13.3} ms",
                level.setup.label(),
                level.sessions,
                flood.per_second,
                flood.latency.p50,
                flood.latency.p99,
                flood.daemon_cpu_ms
            );
        }
    }
}
