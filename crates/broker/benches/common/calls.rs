//! A tool called n times end to end, against the Roslyn time the host reports for each call in `_meta`.

use super::stats::{ms, percentiles};
use super::support::Server;
use serde_json::Value;
use std::time::Instant;

/// (end to end, host) milliseconds per call of `tool` with the arguments of each round.
pub async fn measure(
    server: &Server,
    tool: &str,
    n: usize,
    arguments: impl Fn(usize) -> Value,
) -> (Vec<f64>, Vec<f64>) {
    let (mut end_to_end, mut host) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for round in 0..n {
        let began = Instant::now();
        let outcome = server.call(tool, arguments(round)).await;
        end_to_end.push(ms(began.elapsed()));
        assert!(!outcome.is_error, "{tool} failed: {}", outcome.value);
        host.push(outcome.host_ms);
    }
    (end_to_end, host)
}

// Each bench compiles this file alone; the catalog bench prints a table of its own instead.
#[allow(dead_code)]
pub fn report(tool: &str, label: &str, (mut end_to_end, mut host): (Vec<f64>, Vec<f64>)) {
    let n = end_to_end.len();
    let (e50, e95) = percentiles(&mut end_to_end);
    let (h50, h95) = percentiles(&mut host);
    println!("{tool}, {label}, {n} calls:");
    println!("  end to end             p50 {e50:>8.2} ms   p95 {e95:>8.2} ms");
    println!("  Roslyn plan in host    p50 {h50:>8.2} ms   p95 {h95:>8.2} ms");
    println!("  ratio end-to-end / host plan: p50 {:.2}x, p95 {:.2}x", e50 / h50, e95 / h95);
}
