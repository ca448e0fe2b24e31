//! Source for a framework type, end to end against ICSharpCode.Decompiler alone in the same run. The solution
//! is a library nobody here wrote (Markdig, xoofx/markdig, measured at tag 1.3.2,
//! fc705234fa211d179ee1d5e7656b51ab99f70ca9), given as `ROSLYN_MCP_BENCH_LIBRARY=<checkout>`. Its code calls
//! `string.IsNullOrEmpty`; find_symbol_definition there answers the place of the method in `System.String`,
//! which lives in the runtime's System.Private.CoreLib (the largest framework assembly; the reference
//! assembly the project compiles against forwards it there). Measured: the first answer after the warm-up
//! (the decompiler's type system built, the type decompiled and parsed), then cached ones (the document kept),
//! a second type of the same assembly (the decompiler kept), read_source of the whole document, get_symbol_source
//! of five names and list_generated_documents of the library; against
//! the decompiler alone on that type in a process of its own (`benches/probe decompile`): first (its type
//! system built) and warm.
//!
//! `ROSLYN_MCP_BENCH_LIBRARY=<markdig> cargo bench -p broker --bench sources` (ROSLYN_MCP_BENCH_CALLS sets the
//! cached calls, 20 by default).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/probe.rs"]
mod probe;
#[path = "common/procfs.rs"]
mod procfs;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use calls::{measure, report};
use procfs::vm_rss;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::Server;
use support::daemon::host_pids;

fn main() {
    let Some(library) = std::env::var_os("ROSLYN_MCP_BENCH_LIBRARY").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_LIBRARY to a checkout of xoofx/markdig");
        return;
    };
    let calls: usize = std::env::var("ROSLYN_MCP_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    probe::build();
    let (file, is_null_or_empty) = position_of(&library.join("src/Markdig"), "string.IsNullOrEmpty(", 0);
    let string_builder = position_of(&library.join("src/Markdig"), "new StringBuilder(", 0);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let place = runtime.block_on(async {
        let server = Server::start_alone(&library).await;
        let project = library.join("src/Markdig/Markdig.csproj");
        server.ok("initialize_workspace", json!({"workingDirectory": project.parent().expect("folder")})).await;
        server.warm_up_finished(Duration::from_secs(600)).await;
        let host = host_pids(&server.ok("diagnose", json!({})).await)[0];
        let idle_rss = || async move {
            // Past the host's heap trim, which runs once nothing has for 2 s.
            tokio::time::sleep(Duration::from_secs(4)).await;
            vm_rss(host) as f64 / (1024.0 * 1024.0)
        };
        let before = idle_rss().await;
        let at = |file: &Path, (line, column): (u32, u32)| {
            json!({"filePath": file.display().to_string(), "line": line, "column": column})
        };
        let first = measure(&server, "find_symbol_definition", 1, |_| at(&file, is_null_or_empty)).await;
        let answer = server.ok("find_symbol_definition", at(&file, is_null_or_empty)).await;
        let place = answer["metadataSource"].clone();
        println!("{}: string.IsNullOrEmpty at {}:{:?}", library.display(), file.display(), is_null_or_empty);
        println!(
            "  metadataSource {} line {} ({}): {}",
            place["filePath"], place["line"], place["origin"], place["sourceText"]
        );
        println!("find_symbol_definition, first after the warm-up: end to end {:.0} ms, host {:.0} ms", first.0[0], first.1[0]);
        report("find_symbol_definition", "the document kept", measure(&server, "find_symbol_definition", calls, |_| at(&file, is_null_or_empty)).await);
        let builder = measure(&server, "find_symbol_definition", 1, |_| at(&string_builder.0, string_builder.1)).await;
        let answer = server.ok("find_symbol_definition", at(&string_builder.0, string_builder.1)).await;
        println!(
            "find_symbol_definition of new StringBuilder() ({} line {}), a second type of the same assembly: end to end {:.0} ms, host {:.0} ms",
            answer["metadataSource"]["filePath"], answer["metadataSource"]["line"], builder.0[0], builder.1[0]
        );
        let after = idle_rss().await;
        println!("host resident, idle: {before:.0} MiB after the warm-up, {after:.0} MiB with the two documents and CoreLib's decompiler kept ({:+.0} MiB)", after - before);
        let read = json!({"path": place["filePath"], "lineCount": 2000});
        let whole = server.ok("read_source", read.clone()).await;
        println!("read_source of the document: {} lines", whole["totalLines"]);
        report("read_source", "2000 lines, kept", measure(&server, "read_source", calls, |_| read.clone()).await);
        // Several declarations at once: the library's own (5 target frameworks), a framework member, an unknown name.
        let names = json!({"symbols": [
            "Markdig.Markdown.ToHtml", "Markdig.Helpers.StringSlice", "Markdig.Parsers.BlockProcessor",
            "System.String.IsNullOrEmpty", "Markdig.Nope"
        ], "signaturesOnly": true});
        let first = measure(&server, "get_symbol_source", 1, |_| names.clone()).await;
        let answer = server.ok("get_symbol_source", names.clone()).await;
        let declarations: Vec<usize> = answer["symbols"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| e["declarations"].as_array().map_or(0, Vec::len))
            .collect();
        println!(
            "get_symbol_source of 5 names (declarations each: {declarations:?}), first: end to end {:.0} ms, host {:.0} ms",
            first.0[0], first.1[0]
        );
        report("get_symbol_source", "the same 5 names", measure(&server, "get_symbol_source", calls, |_| names.clone()).await);
        let generated = json!({"project": "Markdig"});
        let listed = server.ok("list_generated_documents", generated.clone()).await;
        println!("list_generated_documents Markdig: {} documents", listed["documents"].as_array().map_or(0, Vec::len));
        report("list_generated_documents", "Markdig", measure(&server, "list_generated_documents", calls, |_| generated.clone()).await);
        let log = std::fs::read_to_string(&server.log).unwrap_or_default();
        for line in log.lines().filter(|l| l.contains("no source for")) {
            println!("  host: {line}");
        }
        server.stop().await;
        place
    });
    let version =
        place["filePath"].as_str().and_then(|p| p.split('/').nth(4)).expect("the assembly version in the path");
    let corelib = runtime_assembly(version, "System.Private.CoreLib.dll");
    let bare = probe::run_decompile(&corelib, "System.String", calls);
    println!("ICSharpCode.Decompiler alone on System.String of {}: {bare}", corelib.display());
    println!(
        "  first {:.0} ms, warm p50 {:.1} ms, {} characters",
        bare["firstMs"].as_f64().unwrap_or_default(),
        bare["warmP50Ms"].as_f64().unwrap_or_default(),
        bare["characters"]
    );
}

/// The `nth` file under `folder` (in path order) containing `needle`, and the 1-based place of the name after
/// the needle's last `.` or `new `.
fn position_of(folder: &Path, needle: &str, nth: usize) -> (PathBuf, (u32, u32)) {
    let mut files = Vec::new();
    collect(folder, &mut files);
    files.sort();
    let name_at = needle.rfind('.').map_or_else(|| needle.find("new ").map_or(0, |i| i + 4), |i| i + 1);
    let found = files
        .into_iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(&file).ok()?;
            let (index, line) = text.lines().enumerate().find(|(_, line)| line.contains(needle))?;
            let column = line.find(needle)? + name_at + 1;
            Some((file, (index as u32 + 1, column as u32)))
        })
        .nth(nth);
    found.unwrap_or_else(|| panic!("no file under {} has {needle}", folder.display()))
}

fn collect(folder: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() && !matches!(path.file_name().and_then(|n| n.to_str()), Some("bin" | "obj")) {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "cs") {
            files.push(path);
        }
    }
}

/// The assembly of the installed shared runtime with the highest version of `version`'s major.minor.
fn runtime_assembly(version: &str, file: &str) -> PathBuf {
    let output = std::process::Command::new("dotnet").arg("--list-runtimes").output().expect("dotnet --list-runtimes");
    let prefix: String = version.split('.').take(2).collect::<Vec<_>>().join(".") + ".";
    let listed = String::from_utf8_lossy(&output.stdout).into_owned();
    let (runtime, folder) = listed
        .lines()
        .filter_map(|line| line.strip_prefix("Microsoft.NETCore.App "))
        .filter_map(|rest| rest.split_once(" ["))
        .filter(|(runtime, _)| runtime.starts_with(&prefix))
        .max_by_key(|(runtime, _)| runtime.split('.').map(|p| p.parse::<u32>().unwrap_or(0)).collect::<Vec<_>>())
        .expect("a runtime of that version");
    Path::new(folder.trim_end_matches(']')).join(runtime).join(file)
}
