//! From `dotnet tool install` to the first answer: the packages `cargo xtask dist` wrote (`target/dist/`, or
//! `ROSLYN_MCP_BENCH_DIST`), installed into a fresh tool path with a fresh HOME and NuGet cache; then an MCP
//! client starts the installed `roslyn-mcp stdio` (which starts the daemon) on a copy of the Shop fixture and
//! asks find_references of `Customer`: the time to that first answer, then warm ones. The same with the
//! release binary of the source tree (`target/release/roslyn-mcp`), in the same run, as the baseline; and the
//! packages' sizes.
//!
//! `cargo xtask dist && cargo bench -p broker --bench install` (ROSLYN_MCP_BENCH_CALLS sets the warm calls,
//! 20 by default).

#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::json;
use stats::{ms, percentiles};
use std::path::{Path, PathBuf};
use std::time::Instant;
use support::Fixture;
use support::daemon::{Agent, StateDir};

fn main() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dist = std::env::var_os("ROSLYN_MCP_BENCH_DIST").map_or_else(|| repository.join("target/dist"), PathBuf::from);
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let version = env!("CARGO_PKG_VERSION");
    let mut packages: Vec<PathBuf> =
        std::fs::read_dir(&dist).map(|entries| entries.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    packages.retain(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.contains(version)));
    packages.sort();
    if packages.is_empty() {
        eprintln!("no packages of {version} in {}: run `cargo xtask dist` first", dist.display());
        return;
    }
    for package in &packages {
        let size = std::fs::metadata(package).map_or(0, |m| m.len());
        println!("{}: {:.1} MiB", package.display(), size as f64 / MIB);
    }
    let work = tempfile::Builder::new().prefix("roslyn-mcp-install-bench-").tempdir().expect("work");
    let (home, tools) = (work.path().join("home"), work.path().join("tools"));
    std::fs::create_dir_all(&home).expect("home");
    let config = work.path().join("nuget.config");
    let source = format!(
        "<configuration><packageSources><clear /><add key=\"dist\" value=\"{}\" /></packageSources></configuration>",
        dist.display()
    );
    std::fs::write(&config, source).expect("nuget.config");

    let began = Instant::now();
    let output = std::process::Command::new("dotnet")
        .args(["tool", "install", "--tool-path"])
        .arg(&tools)
        .arg("--configfile")
        .arg(&config)
        .args(["roslyn-mcp", "--version", version])
        .env("HOME", &home)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_NOLOGO", "1")
        .output()
        .expect("dotnet tool install");
    let install_ms = ms(began.elapsed());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
    println!("dotnet tool install: {install_ms:.0} ms; installed {:.1} MiB", folder_size(&tools) as f64 / MIB);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let installed = runtime.block_on(first_and_warm(&tools.join("roslyn-mcp"), &home, calls));
    let built = runtime.block_on(first_and_warm(&repository.join("target/release/roslyn-mcp"), &home, calls));
    println!(
        "first answer (daemon started, Shop loaded, find_references): installed {:.0} ms, built from source {:.0} ms ({:.2}x)",
        installed.0,
        built.0,
        installed.0 / built.0
    );
    println!(
        "dotnet tool install to the first answer: {:.0} ms ({install_ms:.0} + {:.0})",
        install_ms + installed.0,
        installed.0
    );
    println!(
        "warm find_references p50: installed {:.2} ms, built from source {:.2} ms ({:.2}x)",
        installed.1,
        built.1,
        installed.1 / built.1
    );
}

const MIB: f64 = 1024.0 * 1024.0;

/// Milliseconds from starting `roslyn-mcp stdio` to the first find_references answer, and the warm p50.
async fn first_and_warm(binary: &Path, home: &Path, calls: usize) -> (f64, f64) {
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut command = tokio::process::Command::new(binary);
    command.arg("stdio").current_dir(&shop.root).env("HOME", home).envs(state.env());
    let arguments = json!({"filePath": shop.file("src/Shop.Core/Models/Customer.cs"), "line": 6, "column": 14});
    let began = Instant::now();
    let client = state.bridge_command(Agent::default(), command).await;
    let first = client.ok("find_references", arguments.clone()).await;
    let first_ms = ms(began.elapsed());
    assert_eq!(first["totalCount"], json!(9));
    let mut warm = Vec::with_capacity(calls);
    for _ in 0..calls {
        let began = Instant::now();
        client.ok("find_references", arguments.clone()).await;
        warm.push(ms(began.elapsed()));
    }
    drop(client);
    state.terminate().await;
    (first_ms, percentiles(&mut warm).0)
}

fn folder_size(folder: &Path) -> u64 {
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| {
            let path = entry.path();
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.is_dir() => folder_size(&path),
                Ok(meta) => meta.len(),
                Err(_) => 0,
            }
        })
        .sum()
}
