//! The first answer after a load, against a bare in-process Roslyn (`benches/probe`, MSBuildWorkspace and
//! SymbolFinder alone) in the same run, on the Shop fixture:
//! - the service as it runs, up and idle with its spare host ready (the host has logged its rehearsed
//!   load and searches): `initialize_workspace` (answers once loaded), the warm-up that follows (diagnose's
//!   `warmUp`), the first find_references after it, then warm ones;
//! - the same with `--spare-host false`: the load starts its host;
//! - the probe: load, compile every project, the first FindReferencesAsync, then warm ones.
//!
//! Then the service on the Moves fixture (4 projects, about 20 types).
//!
//! Reported: load + first answer of each and their ratio, the first answer after the warm-up against a
//! warm one (back to back, and after a pause of a few seconds, as an agent's next call comes), and the host's
//! resident memory once warmed up. `cargo bench -p broker --bench first_answer`
//! (ROSLYN_MCP_BENCH_ROUNDS sets the rounds).

#[path = "common/probe.rs"]
mod probe;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::json;
use stats::{ms, percentiles};
use std::time::{Duration, Instant};
use support::{Fixture, Server};

/// Warm calls measured, after as many again unmeasured (as the end_to_end bench does, so the runtime has
/// settled on its optimized code).
const WARM_CALLS: usize = 200;
/// Warm calls each after a pause, as an agent's calls come (its model thinks between them): a host idle for
/// seconds answers slower than one answering back to back, whatever it has cached.
const PAUSED_CALLS: usize = 5;
const PAUSE: Duration = Duration::from_secs(3);
const POSITION: (&str, u32, u32) = ("src/Shop.Core/Models/Customer.cs", 6, 14);
/// `IShape` in Moves: implemented and used across its projects.
const MOVES_POSITION: (&str, u32, u32) = ("src/Moves.Core/Models/Shapes.cs", 6, 18);

fn main() {
    let rounds: usize = std::env::var("ROSLYN_MCP_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(rounds));
}

struct Round {
    load: f64,
    warm_up: f64,
    first: f64,
    warm: f64,
    /// Median of warm calls each after a pause.
    paused: f64,
    /// The host's resident memory (MiB) once warmed up.
    host_mib: f64,
}

async fn run(rounds: usize) {
    let shop = Fixture::copy("Shop");
    probe::build();
    let bare = |warm_calls| {
        probe::run(&shop.path("Shop.sln"), &shop.path(POSITION.0), (POSITION.1, POSITION.2), warm_calls, &[])
    };
    // Restores the copied fixture once, so that neither side pays for it below.
    bare(0);

    let moves = Fixture::copy("Moves");
    let (mut service, mut unspared, mut probed, mut moves_service) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        service.push(service_round(&shop, POSITION, Spare::Ready).await);
        unspared.push(service_round(&shop, POSITION, Spare::Off).await);
        probed.push(bare(WARM_CALLS));
        moves_service.push(service_round(&moves, MOVES_POSITION, Spare::Ready).await);
    }
    let median = |values: Vec<f64>| percentiles(&mut values.clone()).0;
    let field = |name: &str| median(probed.iter().map(|p| p[name].as_f64().expect(name)).collect());
    let medians = |rounds: &[Round]| {
        (
            median(rounds.iter().map(|r| r.load).collect()),
            median(rounds.iter().map(|r| r.warm_up).collect()),
            median(rounds.iter().map(|r| r.first).collect()),
            median(rounds.iter().map(|r| r.warm).collect()),
        )
    };
    let memory = |rounds: &[Round]| median(rounds.iter().map(|r| r.host_mib).collect());
    let (s_load, s_warm_up, s_first, s_warm) = medians(&service);
    let (u_load, u_warm_up, u_first, u_warm) = medians(&unspared);
    let (p_load, p_compile, p_first, p_warm) =
        (field("loadMs"), field("compileMs"), field("firstReferencesMs"), field("warmReferencesP50Ms"));
    println!("medians of {rounds} rounds, Shop fixture, find_references of Customer:");
    println!(
        "  service: load {s_load:>7.1} ms, warm-up {s_warm_up:>7.1} ms, first answer {s_first:>6.1} ms, warm p50 {s_warm:>5.2} ms"
    );
    println!(
        "  no spare: load {u_load:>6.1} ms, warm-up {u_warm_up:>7.1} ms, first answer {u_first:>6.1} ms, warm p50 {u_warm:>5.2} ms"
    );
    println!(
        "  probe:   load {p_load:>7.1} ms, compile {p_compile:>7.1} ms, first answer {p_first:>6.1} ms, warm p50 {p_warm:>5.2} ms"
    );
    let service_total = s_load + s_warm_up + s_first;
    let unspared_total = u_load + u_warm_up + u_first;
    let probe_total = p_load + p_compile + p_first;
    println!(
        "  load + first answer: service {service_total:.1} ms, no spare {unspared_total:.1} ms, probe {probe_total:.1} ms: ratios {:.2}x and {:.2}x",
        service_total / probe_total,
        unspared_total / probe_total
    );
    println!(
        "  first answer after the warm-up / warm answer: service {:.2}x, probe {:.2}x",
        s_first / s_warm,
        p_first / p_warm
    );
    for (fixture, label, rounds) in [("Shop", "Customer", &service), ("Moves", "IShape", &moves_service)] {
        let (_, warm_up, first, warm) = medians(rounds);
        let paused = median(rounds.iter().map(|r| r.paused).collect());
        println!(
            "{fixture}, find_references of {label}: warm-up {warm_up:.1} ms, first {first:.1} ms against warm {warm:.2} ms ({:.2}x) \
             and warm after a {}s pause {paused:.2} ms ({:.2}x), host {:.0} MiB once warmed up",
            first / warm,
            PAUSE.as_secs(),
            first / paused,
            memory(rounds)
        );
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Spare {
    /// The default, measured once the spare host has rehearsed a load (after its composition).
    Ready,
    /// `--spare-host false`.
    Off,
}

async fn service_round(fixture: &Fixture, position: (&str, u32, u32), spare: Spare) -> Round {
    // The test harness turns the spare off unless asked.
    let args = ["--spare-host", if spare == Spare::Ready { "true" } else { "false" }];
    let server = Server::start(&fixture.root, &args).await;
    if spare == Spare::Ready {
        let rehearsed = server.logs("searches rehearsed", Duration::from_secs(120)).await;
        assert!(rehearsed, "the spare host never rehearsed a load and its searches");
    }
    let began = Instant::now();
    server.ok("initialize_workspace", json!({"workingDirectory": fixture.root.display().to_string()})).await;
    let load = ms(began.elapsed());
    let began = Instant::now();
    let diagnose = server.warm_up_finished(Duration::from_secs(300)).await;
    let warm_up = ms(began.elapsed());
    let host_mib = diagnose["workspaces"][0]["hostResidentBytes"].as_f64().unwrap_or_default() / (1024.0 * 1024.0);
    let (file, line, column) = position;
    let question = json!({"filePath": fixture.file(file), "line": line, "column": column});
    let began = Instant::now();
    server.ok("find_references", question.clone()).await;
    let first = ms(began.elapsed());
    for _ in 0..WARM_CALLS {
        server.ok("find_references", question.clone()).await;
    }
    let mut warm = Vec::with_capacity(WARM_CALLS);
    for _ in 0..WARM_CALLS {
        let began = Instant::now();
        server.ok("find_references", question.clone()).await;
        warm.push(ms(began.elapsed()));
    }
    let mut paused = Vec::with_capacity(PAUSED_CALLS);
    for _ in 0..PAUSED_CALLS {
        tokio::time::sleep(PAUSE).await;
        let began = Instant::now();
        server.ok("find_references", question.clone()).await;
        paused.push(ms(began.elapsed()));
    }
    server.stop().await;
    Round { load, warm_up, first, warm: percentiles(&mut warm).0, paused: percentiles(&mut paused).0, host_mib }
}
