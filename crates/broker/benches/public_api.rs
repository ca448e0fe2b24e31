//! get_public_api and compare_public_api on a real library, end to end against the host's time (`_meta`) and
//! the Roslyn compilation within it (the host's log line). The library is a git checkout nobody here wrote
//! (Markdig, xoofx/markdig; measured at tag 1.3.2, fc705234fa211d179ee1d5e7656b51ab99f70ca9, 5 target
//! frameworks), given as `ROSLYN_MCP_BENCH_LIBRARY=<checkout>`: its surface listed (every page), then compared
//! with an older tag (`ROSLYN_MCP_BENCH_SINCE`, default 1.2.0), whose files are read from git and compiled in
//! memory: the first comparison after the warm-up, then warm ones.
//!
//! `ROSLYN_MCP_BENCH_LIBRARY=<markdig> cargo bench -p broker --bench public_api` (ROSLYN_MCP_BENCH_CALLS sets
//! the warm calls, 5 by default).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use calls::{measure, report};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;
use support::Server;

fn main() {
    let Some(library) = std::env::var_os("ROSLYN_MCP_BENCH_LIBRARY").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_LIBRARY to a git checkout of xoofx/markdig");
        return;
    };
    let since = std::env::var("ROSLYN_MCP_BENCH_SINCE").unwrap_or_else(|_| "1.2.0".into());
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let server = Server::start_alone(&library).await;
        let project = library.join("src/Markdig/Markdig.csproj");
        server.ok("initialize_workspace", json!({"workingDirectory": project.parent().expect("folder")})).await;
        server.warm_up_finished(Duration::from_secs(600)).await;
        println!("{}, {calls} warm calls each:", library.display());

        let listing = json!({"project": "Markdig", "pageSize": 200});
        let api = server.ok("get_public_api", listing.clone()).await;
        println!("get_public_api Markdig ({}): {} members", api["framework"], api["totalCount"]);
        report(
            "get_public_api",
            "first page of 200",
            measure(&server, "get_public_api", calls, |_| listing.clone()).await,
        );

        let compare = json!({"project": "Markdig", "since": since});
        let (first, first_host) = measure(&server, "compare_public_api", 1, |_| compare.clone()).await;
        let answer = server.ok("compare_public_api", compare.clone()).await;
        let count = |list: &str| answer[list].as_array().map_or(0, Vec::len);
        println!(
            "compare_public_api since {since} ({}): {} removed, {} changed, {} added, {} breaking, truncated {}",
            answer["sinceCommit"],
            count("removed"),
            count("changed"),
            count("added"),
            answer["breakingCount"],
            answer["truncated"]
        );
        println!("  first after the warm-up: end to end {:.0} ms, host {:.0} ms", first[0], first_host[0]);
        report("compare_public_api", "warm", measure(&server, "compare_public_api", calls, |_| compare.clone()).await);
        for unused in [false, true] {
            let graph = json!({"unused": unused});
            let (end_to_end, host) = measure(&server, "get_project_graph", 2, |_| graph.clone()).await;
            let answer = server.ok("get_project_graph", graph.clone()).await;
            println!(
                "get_project_graph unused={unused}: {} projects, {} candidates, {} warnings; end to end {:.0} then {:.0} ms, host {:.0} then {:.0} ms",
                answer["totalCount"],
                answer["unused"].as_array().map_or(0, Vec::len),
                answer["warnings"].as_array().map_or(0, Vec::len),
                end_to_end[0],
                end_to_end[1],
                host[0],
                host[1]
            );
        }
        let log = std::fs::read_to_string(&server.log).unwrap_or_default();
        println!(
            "  the host's public API lines (each listing; a comparison is the files on disk, then the revision's):"
        );
        for line in log.lines().filter_map(|l| l.split("public API of ").nth(1)) {
            println!("    {}", line.split(" host_pid").next().unwrap_or(line));
        }
        server.stop().await;
    });
}
