//! change_signature (and move_files, sync_namespaces, safe_delete) on a real library, end to end against the plan's computation in the host (`_meta`) and
//! Roslyn's change signature engine within it (the host's log line), and each change built after it is
//! applied. The library is a checkout nobody here wrote (Markdig, xoofx/markdig, measured at
//! fc705234fa211d179ee1d5e7656b51ab99f70ca9: one project, five target frameworks, 315 documents each), given as
//! `ROSLYN_MCP_BENCH_LIBRARY=<checkout>`:
//! - `Block.UpdateSpanEnd(int spanEnd)` (about 25 calls): `spanEnd` renamed to `end` and an optional
//!   `bool force = false` added;
//! - `UnicodeUtility.IsInRangeInclusive(uint value, uint lowerBound, uint upperBound)`: reordered to
//!   `(lowerBound, upperBound, value)`;
//!
//! each as previews (the first after the warm-up, then warm ones), then applied once, the library built with
//! `dotnet build` (no error may be added), and undone (every source file as it was). The host's log line of
//! each plan splits its time: the checks before, Roslyn's engine, the renames and retypes, the compile check,
//! the bindings after. Then move_files of the `Extensions/Tables` folder (15 files) to `Extensions/Grids`, its
//! namespace following, as previews against the host's time and Roslyn's change namespace service within it,
//! applied, built and undone as above; then sync_namespaces of the whole library and safe_delete of
//! `UpdateSpanEnd` (refused: it is called), as previews against the host's time.
//!
//! `ROSLYN_MCP_BENCH_LIBRARY=<markdig> cargo bench -p broker --bench signature` (ROSLYN_MCP_BENCH_CALLS sets
//! the warm calls, 5 by default).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/source.rs"]
mod source;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use calls::{measure, report};
use serde_json::{Value, json};
use source::position_of;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::{Server, dotnet_build_errors, tree};

const PROJECT: &str = "src/Markdig/Markdig.csproj";

/// A change: the file, the declaring line's text, the member's name, and the new parameter list.
struct Change {
    file: &'static str,
    declaration: &'static str,
    name: &'static str,
    parameters: fn() -> Value,
}

const CHANGES: [Change; 2] = [
    Change {
        file: "src/Markdig/Syntax/Block.cs",
        declaration: "public void UpdateSpanEnd(int spanEnd)",
        name: "UpdateSpanEnd",
        parameters: || json!([{"name": "spanEnd", "newName": "end"}, {"name": "force", "add": {"type": "bool", "defaultValue": "false"}}]),
    },
    Change {
        file: "src/Markdig/Helpers/UnicodeUtility.cs",
        declaration: "public static bool IsInRangeInclusive(",
        name: "IsInRangeInclusive",
        parameters: || json!([{"name": "lowerBound"}, {"name": "upperBound"}, {"name": "value"}]),
    },
];

fn main() {
    let Some(library) = std::env::var_os("ROSLYN_MCP_BENCH_LIBRARY").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_LIBRARY to a checkout of xoofx/markdig");
        return;
    };
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&library, calls));
}

async fn run(library: &Path, calls: usize) {
    let server = Server::start_alone(library).await;
    let project = library.join(PROJECT);
    server
        .ok("initialize_workspace", json!({"workingDirectory": project.parent().expect("the project's folder")}))
        .await;
    server.warm_up_finished(Duration::from_secs(600)).await;
    println!("{}, {calls} warm calls each:", library.display());
    file_writes(&server, library).await;
    for change in &CHANGES {
        let file = library.join(change.file);
        let (line, column) = position_of(&file, change.declaration, change.name);
        let arguments = |preview: bool| json!({"filePath": file, "line": line, "column": column, "parameters": (change.parameters)(), "preview": preview});
        let (first, first_host) = measure(&server, "change_signature", 1, |_| arguments(true)).await;
        let preview = measure(&server, "change_signature", calls, |_| arguments(true)).await;
        let answer = server.ok("change_signature", arguments(true)).await;
        println!(
            "{}: {} to {}, {} declarations, {} call sites, {} files",
            change.name,
            answer["signature"],
            answer["newSignature"],
            answer["declarations"],
            answer["callSites"],
            answer["filesModified"]
        );
        println!("  first after the warm-up: end to end {:.0} ms, host {:.0} ms", first[0], first_host[0]);
        report("change_signature", "preview (compute + diffs)", preview);
        println!("  Roslyn's engine in the host, each call:\n    {}", engine_times(&server, change.name));

        // The sources: a build's own files (and git's) are not the write's.
        let sources = library.join("src");
        let before = tree(&sources);
        let applied = server.ok("change_signature", arguments(false)).await;
        let errors = dotnet_build_errors(&project).await;
        println!("  applied, then `dotnet build`: {errors} errors");
        server.ok("undo", json!({"operationId": applied["operationId"]})).await;
        assert_eq!(errors, 0, "the change must build");
        assert!(tree(&sources) == before, "undo restores every file");
    }
    folder_move(&server, library, calls).await;
    others(&server, library, calls).await;
    server.stop().await;
}

/// A folder of the library moved to a new name, its namespace and every consumer following.
async fn folder_move(server: &Server, library: &Path, calls: usize) {
    let folder = library.join("src/Markdig/Extensions/Tables");
    let destination = library.join("src/Markdig/Extensions/Grids");
    let arguments = |preview: bool| json!({"folder": folder, "destination": destination, "preview": preview});
    let (first, first_host) = measure(server, "move_files", 1, |_| arguments(true)).await;
    let preview = measure(server, "move_files", calls, |_| arguments(true)).await;
    let answer = server.ok("move_files", arguments(true)).await;
    println!(
        "move_files Extensions/Tables to Extensions/Grids: {} files moved, {} namespaces changed, {} files modified",
        answer["moved"].as_array().map_or(0, Vec::len),
        answer["namespaces"].as_array().map_or(0, Vec::len),
        answer["filesModified"]
    );
    println!("  first after the warm-up: end to end {:.0} ms, host {:.0} ms", first[0], first_host[0]);
    report("move_files", "preview (compute + diffs)", preview);
    println!("  in the host, each call:\n    {}", logged(server, "move of ", "changed: "));
    let sources = library.join("src");
    let before = tree(&sources);
    let applied = server.ok("move_files", arguments(false)).await;
    let errors = dotnet_build_errors(&library.join(PROJECT)).await;
    println!("  applied, then `dotnet build`: {errors} errors");
    server.ok("undo", json!({"operationId": applied["operationId"]})).await;
    assert_eq!(errors, 0, "the move must build");
    assert!(tree(&sources) == before, "undo restores every file");
    assert!(folder.is_dir() && !destination.exists(), "undo puts the folder back and removes the new one");
}

/// rename_file of a file named after its type (the type renamed with it) and safe_delete of a whole file
/// nothing in the library uses (its extension methods are called only by the tests, not loaded here): each
/// previewed, applied, built and undone.
async fn file_writes(server: &Server, library: &Path) {
    let sources = library.join("src");
    let rename = json!({"filePath": library.join("src/Markdig/Helpers/LinkHelper.cs"), "newName": "LinkUtilities.cs"});
    let delete = json!({"filePath": library.join("src/Markdig/Syntax/BlockExtensions.cs"), "includePublic": true});
    for (tool, arguments) in [("rename_file", rename), ("safe_delete", delete)] {
        let mut preview = arguments.clone();
        preview["preview"] = json!(true);
        let (end_to_end, host) = measure(server, tool, 1, |_| preview.clone()).await;
        let before = tree(&sources);
        let applied = server.ok(tool, arguments).await;
        let errors = dotnet_build_errors(&library.join(PROJECT)).await;
        server.ok("undo", json!({"operationId": applied["operationId"]})).await;
        println!(
            "{tool} {}: preview end to end {:.0} ms, host {:.0} ms; {} files changed; applied, then `dotnet build`: {errors} errors",
            preview["filePath"],
            end_to_end[0],
            host[0],
            applied["summary"]["filesModified"].as_u64().unwrap_or(0)
                + applied["summary"]["filesDeleted"].as_u64().unwrap_or(0)
                + applied["summary"]["filesCreated"].as_u64().unwrap_or(0)
        );
        assert_eq!(errors, 0, "{tool} must build");
        assert!(tree(&sources) == before, "undo restores every file");
    }
}

/// sync_namespaces of the whole library, end to end against the host's time, and safe_delete of a method 26
/// calls use, refused.
async fn others(server: &Server, library: &Path, calls: usize) {
    let synced = server.ok("sync_namespaces", json!({"preview": true})).await;
    let changed = synced["namespaces"].as_array().cloned().unwrap_or_default();
    println!(
        "sync_namespaces, whole library: {} of {} files would change, {} warnings",
        changed.len(),
        synced["documents"],
        synced["warnings"].as_array().map_or(0, Vec::len)
    );
    for change in &changed {
        println!("  {}: {} to {}", change["file"], change["namespace"], change["newNamespace"]);
    }
    report("sync_namespaces", "preview", measure(server, "sync_namespaces", calls, |_| json!({"preview": true})).await);
    let block = library.join(CHANGES[0].file);
    let (line, column) = position_of(&block, CHANGES[0].declaration, CHANGES[0].name);
    let delete = json!({"filePath": block, "line": line, "column": column, "includePublic": true, "preview": true});
    let refused = server.call("safe_delete", delete.clone()).await;
    let error = &refused.value["error"];
    println!("safe_delete UpdateSpanEnd: {} ({} references)", error["code"], error["details"]["totalReferences"]);
    // A refusal carries no host time: end to end only.
    let mut end_to_end = Vec::new();
    for _ in 0..calls {
        let began = std::time::Instant::now();
        server.call("safe_delete", delete.clone()).await;
        end_to_end.push(stats::ms(began.elapsed()));
    }
    let (p50, p95) = stats::percentiles(&mut end_to_end);
    println!("safe_delete, refused with the references, {calls} calls: end to end p50 {p50:.2} ms, p95 {p95:.2} ms");
}

/// The engine's milliseconds the host logged for the member's changes, in order.
fn engine_times(server: &Server, name: &str) -> String {
    logged(server, &format!(".{name}("), "Roslyn's engine ")
}

/// What the host logged after `after` on its plan lines that contain `marker`, in order.
fn logged(server: &Server, marker: &str, after: &str) -> String {
    let log = std::fs::read_to_string(&server.log).unwrap_or_default();
    let times: Vec<_> =
        log.lines().filter(|l| l.contains(marker)).filter_map(|l| l.split(after).nth(1)).map(str::to_owned).collect();
    times.join("\n    ")
}
