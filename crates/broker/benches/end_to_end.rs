//! End-to-end latency of the real service on the Shop fixture, against the time Roslyn itself spent in
//! the host (reported per call in `_meta`), so that the service's own overhead shows as a ratio.
//! Also the cold load of the fixture: service start to a loaded solution.
//!
//! `cargo bench -p broker --bench end_to_end` (ROSLYN_MCP_BENCH_CALLS sets the number of warm calls).

#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::json;
use stats::{ms, percentiles};
use std::time::Instant;
use support::{Fixture, Server};

const COLD_LOADS: usize = 3;

fn main() {
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(calls));
}

async fn run(calls: usize) {
    let shop = Fixture::copy("Shop");
    let init = json!({"workingDirectory": shop.root.display().to_string()});

    // The first load also restores the copied fixture; later ones find its assets.
    let mut cold = Vec::new();
    for round in 0..=COLD_LOADS {
        let began = Instant::now();
        let server = Server::start(&shop.root, &[]).await;
        server.ok("initialize_workspace", init.clone()).await;
        let elapsed = began.elapsed();
        if round == 0 {
            println!("cold load with restore            {:>9.1} ms", ms(elapsed));
        } else {
            cold.push(elapsed);
        }
        server.stop().await;
    }
    cold.sort();
    println!("cold load, assets present (median) {:>9.1} ms  (n={COLD_LOADS})", ms(cold[cold.len() / 2]));

    let server = Server::start(&shop.root, &[]).await;
    server.ok("initialize_workspace", init).await;
    let question = json!({"filePath": shop.file("src/Shop.Core/Models/Customer.cs"), "line": 6, "column": 14});
    for _ in 0..20 {
        server.ok("find_references", question.clone()).await;
    }
    let mut end_to_end = Vec::with_capacity(calls);
    let mut host = Vec::with_capacity(calls);
    let mut service = Vec::with_capacity(calls);
    for _ in 0..calls {
        let began = Instant::now();
        let outcome = server.call("find_references", question.clone()).await;
        end_to_end.push(ms(began.elapsed()));
        assert!(!outcome.is_error, "find_references failed: {}", outcome.value);
        host.push(outcome.host_ms);
        service.push(outcome.service_ms);
    }
    // The MCP round trip alone: diagnose touches no host.
    let mut transport = Vec::with_capacity(calls);
    for _ in 0..calls {
        let began = Instant::now();
        server.ok("diagnose", json!({})).await;
        transport.push(ms(began.elapsed()));
    }
    let (e50, e95) = percentiles(&mut end_to_end);
    let (t50, t95) = percentiles(&mut transport);
    let (h50, h95) = percentiles(&mut host);
    let (s50, s95) = percentiles(&mut service);
    println!("warm find_references, {calls} calls:");
    println!("  end to end        p50 {e50:>7.2} ms   p95 {e95:>7.2} ms");
    println!("  inside the service p50 {s50:>6.2} ms   p95 {s95:>7.2} ms  (tool call start to result)");
    println!("  Roslyn in host    p50 {h50:>7.2} ms   p95 {h95:>7.2} ms");
    println!(
        "  ratio end-to-end / host: p50 {:.2}x, p95 {:.2}x; service overhead p50 {:.2} ms",
        e50 / h50,
        e95 / h95,
        e50 - h50
    );
    println!("diagnose (MCP round trip, no host)  p50 {t50:>7.2} ms   p95 {t95:>7.2} ms");
    server.stop().await;
}
