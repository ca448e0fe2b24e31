//! Writes on a real multi-targeted library, against Roslyn's own time for the same work in the same run. The
//! library is a checkout nobody here wrote (Markdig, xoofx/markdig, measured at
//! fc705234fa211d179ee1d5e7656b51ab99f70ca9: one project, five target frameworks, 315 documents each), given as
//! `ROSLYN_MCP_BENCH_LIBRARY=<checkout>`; previews write nothing to it.
//! - the service: `initialize_workspace` on `src/Markdig`, the warm-up, then rename_symbol of
//!   `StringSlice.NextChar()` (94 places) and format_document of `EntityHelper.cs` as previews, and
//!   get_compilation_diagnostics of the project with its analyzers (warnings and errors, the default), the
//!   first after the warm-up and then warm ones, each rename to a new name; all at the default time limits;
//! - the probe (`benches/probe`, `writes`): Roslyn's Renamer and Formatter, and its analyzer driver with every
//!   analyzer the service may run (the project's own and Roslyn's IDE analyzers), once per target framework,
//!   the first in its process and then warm ones.
//!
//! `ROSLYN_MCP_BENCH_LIBRARY=<markdig> cargo bench -p broker --bench library` (ROSLYN_MCP_BENCH_CALLS sets
//! the warm calls, 3 by default).

#[path = "common/probe.rs"]
mod probe;
#[path = "common/source.rs"]
mod source;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::json;
use source::position_of;
use stats::{ms, percentiles};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::Server;

const PROJECT: &str = "src/Markdig/Markdig.csproj";
/// The file, the line that declares the renamed method, and its name.
const RENAMED: (&str, &str, &str) = ("src/Markdig/Helpers/StringSlice.cs", "public char NextChar()", "NextChar");
const FORMATTED: &str = "src/Markdig/Helpers/EntityHelper.cs";

fn main() {
    let Some(library) = std::env::var_os("ROSLYN_MCP_BENCH_LIBRARY").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_LIBRARY to a checkout of xoofx/markdig");
        return;
    };
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&library, calls));
}

async fn run(library: &Path, calls: usize) {
    let file = library.join(RENAMED.0);
    let position = position_of(&file, RENAMED.1, RENAMED.2);
    probe::build();
    let bare = probe::run_writes(&library.join(PROJECT), &file, position, "Advance", &library.join(FORMATTED), calls);

    let server = Server::start_alone(library).await;
    let project_dir = library.join(PROJECT).parent().expect("the project's folder").to_path_buf();
    server.ok("initialize_workspace", json!({"workingDirectory": project_dir})).await;
    server.warm_up_finished(Duration::from_secs(600)).await;
    let rename = |round: usize| {
        json!({"filePath": file, "line": position.0, "column": position.1, "newName": format!("Advance{round}"),
            "preview": true})
    };
    let renames = timed(&server, "rename_symbol", calls, rename).await;
    let format = |_| json!({"filePath": library.join(FORMATTED), "preview": true});
    let formats = timed(&server, "format_document", calls, format).await;
    let analyzed = timed(&server, "get_compilation_diagnostics", calls, |_| json!({"includeAnalyzers": true})).await;
    server.stop().await;

    let frameworks = bare["frameworks"].as_u64().unwrap_or(0);
    println!("{} ({frameworks} target frameworks), {calls} warm calls:", library.display());
    report("rename_symbol NextChar, preview", renames, &bare, "rename", "Renamer once per framework");
    report("format_document EntityHelper.cs, preview", formats, &bare, "format", "Formatter once per framework");
    report(
        "get_compilation_diagnostics includeAnalyzers",
        analyzed,
        &bare,
        "analyzers",
        "analyzer driver, every analyzer, once per framework",
    );
}

/// The first call's milliseconds, then the median of `calls` more.
async fn timed(
    server: &Server,
    tool: &str,
    calls: usize,
    arguments: impl Fn(usize) -> serde_json::Value,
) -> (f64, f64) {
    let mut times = Vec::with_capacity(calls + 1);
    for round in 0..=calls {
        let began = Instant::now();
        server.ok(tool, arguments(round)).await;
        times.push(ms(began.elapsed()));
    }
    let first = times.remove(0);
    (first, percentiles(&mut times).0)
}

fn report(label: &str, (first, warm): (f64, f64), bare: &serde_json::Value, key: &str, baseline: &str) {
    let field = |name: String| bare[&name].as_f64().expect("a probe figure");
    let (bare_first, bare_warm) = (field(format!("{key}FirstMs")), field(format!("{key}WarmMs")));
    println!("  {label}: first {first:.0} ms, warm {warm:.0} ms");
    println!("    Roslyn's {baseline}: first {bare_first:.0} ms, warm {bare_warm:.0} ms");
    println!("    ratio: first {:.2}x, warm {:.2}x", first / bare_first, warm / bare_warm);
}
