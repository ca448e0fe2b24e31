//! What the proxy of `deploy/haproxy/haproxy.cfg` adds to a call: warm find_references on the Shop fixture, as
//! an MCP 2026-07-28 client sends it (no session, the routing headers), straight to one daemon and through HAProxy
//! to the same daemon, interleaved call by call in one run, each path over its own kept-alive connection.
//! Needs `haproxy`.
//!
//! `cargo bench -p broker --bench proxy` (ROSLYN_MCP_BENCH_CALLS sets the calls per path, 300 by default).

#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use stats::{ms, percentiles, quantile};
use std::time::{Duration, Instant};
use support::Fixture;
use support::daemon::StateDir;
use support::haproxy::{self, Proxy};
use support::stateless::result_of;

const TOKEN: &str = "proxy-bench-token";

fn main() {
    if !haproxy::installed() {
        eprintln!("haproxy is not installed (apt-get install haproxy)");
        return;
    }
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let shop = Fixture::copy("Shop");
        let state = StateDir::default();
        let mut daemon = state.serve(&[], &[("ROSLYN_MCP_TOKEN", TOKEN)]);
        let address = state.base_url().await.trim_start_matches("http://").to_owned();
        let proxy = Proxy::start(&[&address], state.path(), std::process::Stdio::null());
        let direct = format!("http://{address}/mcp");
        let proxied = proxy.url("/mcp");
        let arguments = json!({
            "filePath": shop.file("src/Shop.Core/Models/Customer.cs"), "line": 6, "column": 14,
            "solutionPath": shop.file("Shop.sln"),
        });
        let (direct_client, proxy_client) = (reqwest::Client::new(), reqwest::Client::new());
        // The solution loaded and warm, and the proxy's health checks passed.
        for _ in 0..20 {
            let answered = call(&proxy_client, &proxied, &arguments).await;
            if answered.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        for _ in 0..50 {
            call(&direct_client, &direct, &arguments).await.expect("direct");
            call(&proxy_client, &proxied, &arguments).await.expect("proxied");
        }
        let (mut straight, mut through) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
        for _ in 0..calls {
            straight.push(call(&direct_client, &direct, &arguments).await.expect("direct"));
            through.push(call(&proxy_client, &proxied, &arguments).await.expect("proxied"));
        }
        let (d50, d99) = p50_p99(&mut straight);
        let (p50, p99) = p50_p99(&mut through);
        println!("find_references on Shop, warm, {calls} calls per path, interleaved (MCP 2026-07-28, no session):");
        println!("  straight to the daemon  p50 {d50:>7.3} ms   p99 {d99:>7.3} ms");
        println!("  through HAProxy         p50 {p50:>7.3} ms   p99 {p99:>7.3} ms");
        println!(
            "  the proxy adds          p50 {:>7.3} ms   p99 {:>7.3} ms ({:.2}x at p50)",
            p50 - d50,
            p99 - d99,
            p50 / d50
        );
        drop(proxy);
        state.terminate().await;
        let _ = daemon.wait();
    });
}

/// Milliseconds of one find_references, or None when it was not answered (the proxy not ready yet).
async fn call(client: &reqwest::Client, url: &str, arguments: &Value) -> Option<f64> {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {
            "name": "find_references", "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "proxy-bench", "version": "1"}
            }
        }
    });
    let began = Instant::now();
    let response = client
        .post(url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "find_references")
        .header("Mcp-Param-SolutionPath", arguments["solutionPath"].as_str().expect("solution"))
        .json(&body)
        .send()
        .await
        .ok()?;
    let text = response.text().await.ok()?;
    let elapsed = ms(began.elapsed());
    (result_of(&text)["structuredContent"]["totalCount"] == json!(9)).then_some(elapsed)
}

/// (p50, p99) of the samples, which it sorts.
fn p50_p99(samples: &mut [f64]) -> (f64, f64) {
    let (p50, _) = percentiles(samples);
    (p50, quantile(samples, 0.99))
}
