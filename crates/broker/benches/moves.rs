//! A move on the Shop fixture, end to end, against the same move's Roslyn computation inside the host
//! (reported per call in `_meta`): `Shop.Core.Models.Customer`, used in all three projects, moves to
//! another namespace and back, as previews and as applied writes.
//!
//! `cargo bench -p broker --bench moves` (ROSLYN_MCP_BENCH_MOVES sets the number of moves of each kind).

#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use stats::{ms, percentiles};
use std::time::Instant;
use support::{Fixture, Server};

const NAMESPACES: [&str; 2] = ["Shop.Core.Customers", "Shop.Core.Models"];

fn main() {
    let moves: usize = std::env::var("ROSLYN_MCP_BENCH_MOVES").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(moves));
}

async fn run(moves: usize) {
    let shop = Fixture::copy("Shop");
    let server = Server::start_alone(&shop.root).await;
    server.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;
    let customer = shop.file("src/Shop.Core/Models/Customer.cs");
    let request = |round: usize, preview: bool| json!({"sourceFile": customer, "symbolName": "Customer", "targetNamespace": NAMESPACES[round % 2], "preview": preview});
    // Warm-up: the first computations compile every project.
    for _ in 0..5 {
        server.ok("move_type_to_namespace", request(0, true)).await;
    }
    let preview = measure(&server, moves, |_| request(0, true)).await;
    let applied = measure(&server, moves, |round| request(round, false)).await;
    report("preview (compute + diffs)", moves, preview);
    report("applied (compute + atomic write + host update)", moves, applied);
    server.stop().await;
}

/// (end to end, host) milliseconds per call.
async fn measure(server: &Server, n: usize, arguments: impl Fn(usize) -> Value) -> (Vec<f64>, Vec<f64>) {
    let (mut end_to_end, mut host) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for round in 0..n {
        let began = Instant::now();
        let outcome = server.call("move_type_to_namespace", arguments(round)).await;
        end_to_end.push(ms(began.elapsed()));
        assert!(!outcome.is_error, "move failed: {}", outcome.value);
        host.push(outcome.host_ms);
    }
    (end_to_end, host)
}

fn report(label: &str, n: usize, (mut end_to_end, mut host): (Vec<f64>, Vec<f64>)) {
    let (e50, e95) = percentiles(&mut end_to_end);
    let (h50, h95) = percentiles(&mut host);
    println!("move_type_to_namespace, {label}, {n} moves:");
    println!("  end to end             p50 {e50:>8.2} ms   p95 {e95:>8.2} ms");
    println!("  Roslyn plan in host    p50 {h50:>8.2} ms   p95 {h95:>8.2} ms");
    println!("  ratio end-to-end / host plan: p50 {:.2}x, p95 {:.2}x", e50 / h50, e95 / h95);
}
