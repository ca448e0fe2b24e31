//! A move on the Shop fixture, end to end, against the same move's Roslyn computation inside the host
//! (reported per call in `_meta`): `Shop.Core.Models.Customer`, used in all three projects, moves to
//! another namespace and back, as previews and as applied writes.
//!
//! `cargo bench -p broker --bench moves` (ROSLYN_MCP_BENCH_MOVES sets the number of moves of each kind).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use calls::{measure, report};
use serde_json::json;
use support::{Fixture, Server};

const NAMESPACES: [&str; 2] = ["Shop.Core.Customers", "Shop.Core.Models"];
const TOOL: &str = "move_type_to_namespace";

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
        server.ok(TOOL, request(0, true)).await;
    }
    let preview = measure(&server, TOOL, moves, |_| request(0, true)).await;
    let applied = measure(&server, TOOL, moves, |round| request(round, false)).await;
    report(TOOL, "preview (compute + diffs)", preview);
    report(TOOL, "applied (compute + atomic write + history + host update)", applied);
    server.stop().await;
}
