//! Warm latency of every navigation tool on the Shop fixture, end to end, against the time Roslyn spent in
//! the host for the same calls (reported per call in `_meta`), and the MCP round trip of diagnose (no host)
//! as the baseline of the same run. Also a later page through a cursor against computing a first page.
//!
//! `cargo bench -p broker --bench catalog` (ROSLYN_MCP_BENCH_CALLS sets the calls per tool).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use stats::{ms, percentiles};
use std::time::Instant;
use support::{Fixture, Server};

fn main() {
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(calls));
}

/// One representative question per tool: (label, tool, arguments).
fn questions(shop: &Fixture) -> Vec<(&'static str, &'static str, Value)> {
    let program = shop.file("src/Shop.App/Program.cs");
    let calculator = shop.file("src/Shop.Core/Services/PriceCalculator.cs");
    let solution = shop.file("Shop.sln");
    let (found_line, found_column) = shop.position_of("src/Shop.App/Program.cs", "found =", 0);
    let at_found = json!({"filePath": program, "line": found_line, "column": found_column});
    vec![
        ("get_type_at_position", "get_type_at_position", at_found.clone()),
        ("find_symbol_definition", "find_symbol_definition", json!({"filePath": program, "line": 15, "column": 13})),
        ("find_type_definition", "find_type_definition", at_found.clone()),
        (
            "find_references",
            "find_references",
            json!({"filePath": shop.file("src/Shop.Core/Models/Customer.cs"), "line": 6, "column": 14}),
        ),
        ("get_available_members", "get_available_members", at_found),
        ("get_method_overloads", "get_method_overloads", json!({"filePath": program, "line": 21, "column": 41})),
        (
            "find_implementations",
            "find_implementations",
            json!({"typeName": "Shop.Core.Services.IGreeter", "solutionPath": solution}),
        ),
        (
            "get_type_hierarchy",
            "get_type_hierarchy",
            json!({"typeName": "Shop.Data.CustomerRepository", "solutionPath": solution}),
        ),
        ("get_call_hierarchy", "get_call_hierarchy", json!({"filePath": calculator, "line": 23, "column": 31})),
        ("get_document_symbols", "get_document_symbols", json!({"filePath": program})),
        ("search_symbols", "search_symbols", json!({"query": "Cust", "solutionPath": solution})),
        (
            "analyze_code_block",
            "analyze_code_block",
            json!({"filePath": program, "line": 22, "column": 13, "code": "var doubled = calculator.Calculate(single * 2);\n"}),
        ),
        ("get_compilation_diagnostics (file)", "get_compilation_diagnostics", json!({"filePath": program})),
        ("get_compilation_diagnostics (all)", "get_compilation_diagnostics", json!({"solutionPath": solution})),
    ]
}

async fn run(calls: usize) {
    let shop = Fixture::copy("Shop");
    let server = Server::start_alone(&shop.root).await;
    server.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;

    let mut baseline: Vec<f64> = Vec::with_capacity(calls);
    for _ in 0..calls {
        let began = Instant::now();
        server.ok("diagnose", json!({})).await;
        baseline.push(ms(began.elapsed()));
    }
    let (b50, b95) = percentiles(&mut baseline);
    println!(
        "{calls} warm calls per tool; baseline diagnose (MCP round trip, no host) p50 {b50:.2} ms, p95 {b95:.2} ms"
    );
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
        "tool", "e2e p50", "e2e p95", "host p50", "host p95", "x p50", "x p95"
    );
    for (label, tool, arguments) in questions(&shop) {
        let (mut end_to_end, mut host) = measure(&server, calls, tool, |_| arguments.clone()).await;
        row(label, &mut end_to_end, &mut host);
    }

    // A second page reads the retained result after checking the snapshot: one ping to the host.
    let references =
        json!({"filePath": shop.file("src/Shop.Core/Models/Customer.cs"), "line": 6, "column": 14, "pageSize": 3});
    let first = server.ok("find_references", references.clone()).await;
    let mut next = references.clone();
    next["cursor"] = first["nextCursor"].clone();
    let (mut first_e2e, mut first_host) = measure(&server, calls, "find_references", |_| references.clone()).await;
    let (mut next_e2e, mut next_host) = measure(&server, calls, "find_references", |_| next.clone()).await;
    row("find_references page 1", &mut first_e2e, &mut first_host);
    row("find_references page 2", &mut next_e2e, &mut next_host);
    let (p1, _) = percentiles(&mut first_e2e);
    let (p2, _) = percentiles(&mut next_e2e);
    println!("page 2 (retained, one ping) / page 1 (computed) end to end, p50: {:.2}x", p2 / p1);
    server.stop().await;
}

/// (end to end, host) milliseconds of `n` calls, after a warm-up.
async fn measure(server: &Server, n: usize, tool: &str, arguments: impl Fn(usize) -> Value) -> (Vec<f64>, Vec<f64>) {
    for round in 0..10 {
        server.ok(tool, arguments(round)).await;
    }
    calls::measure(server, tool, n, arguments).await
}

fn row(label: &str, end_to_end: &mut [f64], host: &mut [f64]) {
    let (e50, e95) = percentiles(end_to_end);
    let (h50, h95) = percentiles(host);
    println!("{label:<28} {e50:>9.2} {e95:>9.2} {h50:>9.2} {h95:>9.2} {:>6.2}x {:>6.2}x", e50 / h50, e95 / h95);
}
