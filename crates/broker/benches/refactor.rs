//! rename_symbol and organize_usings end to end, against their Roslyn computation inside the host (reported
//! per call in `_meta`), and undo against the write it undoes.
//! - rename: `Rename.Core.Models.Invoice` (used in all three projects of the Rename fixture, its file named
//!   after it) renamed to `Bill` and back, file included, as previews and as applied writes;
//! - organize_usings: the whole Usings solution (two projects, one multi-targeted), as previews, then
//!   applied and undone in turn;
//! - get_code_actions at `total` in the Actions fixture's Pricing.cs (every refactoring provider and the
//!   fixes of the diagnostics there), then apply_code_action of "Inline temporary variable" there, as a
//!   preview and applied (listed afresh and undone between rounds, outside the timing).
//!
//! `cargo bench -p broker --bench refactor` (ROSLYN_MCP_BENCH_CALLS sets the calls of each kind).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use calls::{measure, report};
use serde_json::{Value, json};
use stats::{ms, percentiles};
use std::time::Instant;
use support::{Fixture, Server};

const NAMES: [&str; 2] = ["Invoice", "Bill"];

fn main() {
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        rename(calls).await;
        organize(calls).await;
        code_actions(calls).await;
    });
}

async fn rename(calls: usize) {
    let fixture = Fixture::copy("Rename");
    let server = Server::start_alone(&fixture.root).await;
    // Round r renames the type from NAMES[r % 2] to the other; its file follows it.
    let request = |round: usize, preview: bool| {
        let (from, to) = (NAMES[round % 2], NAMES[(round + 1) % 2]);
        json!({"filePath": fixture.file(&format!("Core/Models/{from}.cs")), "line": 4, "column": 14,
            "newName": to, "preview": preview})
    };
    // Warm-up: the first computations compile every project.
    for _ in 0..5 {
        server.ok("rename_symbol", request(0, true)).await;
    }
    let preview = measure(&server, "rename_symbol", calls, |_| request(0, true)).await;
    let applied = measure(&server, "rename_symbol", calls, |round| request(round, false)).await;
    report("rename_symbol", "preview (compute + diffs)", preview);
    report("rename_symbol", "applied (compute + atomic write + history + host update)", applied);
    server.stop().await;
}

async fn organize(calls: usize) {
    let fixture = Fixture::copy("Usings");
    let server = Server::start_alone(&fixture.root).await;
    let request = |preview: bool| json!({"solutionPath": fixture.file("Usings.sln"), "preview": preview});
    for _ in 0..5 {
        server.ok("organize_usings", request(true)).await;
    }
    let preview = measure(&server, "organize_usings", calls, |_| request(true)).await;
    report("organize_usings", "preview (compute + diffs)", preview);
    // Each apply is undone before the next, so that every one has the same work.
    let (mut applied, mut host, mut undone) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..calls {
        let began = Instant::now();
        let outcome = server.call("organize_usings", request(false)).await;
        applied.push(ms(began.elapsed()));
        host.push(outcome.host_ms);
        let operation: Value = outcome.value["operationId"].clone();
        let began = Instant::now();
        server.ok("undo", json!({"operationId": operation})).await;
        undone.push(ms(began.elapsed()));
    }
    let (a50, _) = percentiles(&mut applied.clone());
    report("organize_usings", "applied (compute + atomic write + history + host update)", (applied, host));
    let (u50, u95) = percentiles(&mut undone);
    println!("undo of organize_usings, {calls} calls:");
    println!("  end to end             p50 {u50:>8.2} ms   p95 {u95:>8.2} ms");
    println!("  ratio undo / the apply it undoes: p50 {:.2}x", u50 / a50);
    server.stop().await;
}

async fn code_actions(calls: usize) {
    let fixture = Fixture::copy("Actions");
    let server = Server::start_alone(&fixture.root).await;
    let place = json!({"filePath": fixture.file("Actions.Core/Pricing.cs"), "line": 8, "column": 13});
    let inline_id = |listed: &Value| {
        let actions = listed["actions"].as_array().expect("actions");
        actions.iter().find(|a| a["title"] == json!("Inline temporary variable")).expect("inline offered")["id"].clone()
    };
    // Warm-up: the first listing makes every provider and compiles the projects.
    for _ in 0..5 {
        server.ok("get_code_actions", place.clone()).await;
    }
    let listed = measure(&server, "get_code_actions", calls, |_| place.clone()).await;
    report("get_code_actions", "at a position (every provider)", listed);
    let id = inline_id(&server.ok("get_code_actions", place.clone()).await);
    let preview = measure(&server, "apply_code_action", calls, |_| json!({"id": id, "preview": true})).await;
    report("apply_code_action", "preview (find again, compute, compile check, diffs)", preview);
    let (mut applied, mut host) = (Vec::new(), Vec::new());
    for _ in 0..calls {
        let id = inline_id(&server.ok("get_code_actions", place.clone()).await);
        let began = Instant::now();
        let outcome = server.call("apply_code_action", json!({"id": id})).await;
        applied.push(ms(began.elapsed()));
        assert!(!outcome.is_error, "apply_code_action failed: {}", outcome.value);
        host.push(outcome.host_ms);
        server.ok("undo", json!({"operationId": outcome.value["operationId"]})).await;
    }
    report("apply_code_action", "applied (compute + atomic write + history + host update)", (applied, host));
    server.stop().await;
}
