//! The disk barrier's fixed cost, what every call pays when nothing changed on disk: a fence created, handed
//! over by a real folder watch (inotify) and removed by it, against creating and removing a file in the same
//! folder (the system calls alone), in the same run.
//!
//! `cargo bench -p workspace-actor --bench fence` (ROSLYN_MCP_BENCH_CALLS sets the fences, 2,000 by default).

use notify::{RecursiveMode, Watcher};
use std::sync::Arc;
use std::time::{Duration, Instant};
use workspace_actor::fence::Fence;

fn main() {
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let base = tempfile::tempdir().expect("temp dir");
    let fence = Arc::new(Fence::new(&base.path().join("fences")).expect("fence folder"));
    let seen = fence.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            for path in &event.paths {
                seen.arrived(path, &event.kind);
            }
        }
    })
    .expect("watch");
    watcher.watch(fence.dir(), RecursiveMode::NonRecursive).expect("watch the fence folder");

    let fences = runtime.block_on(async {
        let pass = || async { assert!(fence.pass(Duration::from_secs(5)).await.expect("fence"), "fence lost") };
        for _ in 0..calls / 10 {
            pass().await;
        }
        let mut samples = Vec::with_capacity(calls);
        for _ in 0..calls {
            let began = Instant::now();
            pass().await;
            samples.push(began.elapsed());
        }
        samples
    });
    let plain = base.path().join("plain");
    let files: Vec<Duration> = (0..calls)
        .map(|_| {
            let began = Instant::now();
            std::fs::File::create(&plain).expect("create");
            std::fs::remove_file(&plain).expect("remove");
            began.elapsed()
        })
        .collect();
    let (fence_p50, fence_p95) = percentiles(fences);
    let (file_p50, file_p95) = percentiles(files);
    println!("{calls} fences through a folder watch: p50 {fence_p50:.1} µs, p95 {fence_p95:.1} µs");
    println!("creating and removing a file in the same folder: p50 {file_p50:.1} µs, p95 {file_p95:.1} µs");
    println!("fence / file: p50 {:.1}x, p95 {:.1}x", fence_p50 / file_p50, fence_p95 / file_p95);
}

/// (p50, p95) in microseconds.
fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)].as_secs_f64() * 1e6;
    (at(0.5), at(0.95))
}
