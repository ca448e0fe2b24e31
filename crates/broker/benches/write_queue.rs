//! Writers queue on a real library: eight sessions of one daemon each change a different widely used member of
//! Markdig (xoofx/markdig, measured at fc705234fa211d179ee1d5e7656b51ab99f70ca9: one project, five target
//! frameworks), seven renames and one change_signature, first one by one from one session, then all at the same
//! moment. At once, every write must land (none turned away), the library must build on every framework, and
//! each renamed member must have as many references as it had one by one; undo gives every byte back. Reported:
//! the wall time at once against the sum of the same writes one by one, and, from the daemon's log, how long
//! each write held the solution's lock and waited in line for it (p50, p99).
//!
//! Then the replay: a preview of the rename of `StringSlice.NextChar`; meanwhile ten new uses arrive on disk in
//! five new files (an editor, another agent); applying the plan replays it on the solution as it is: it must
//! rename the ten new uses too, the library must build on every framework, and undo give every byte back.
//! Reported: the apply (replay included) against the preview it replays.
//!
//! `ROSLYN_MCP_BENCH_LIBRARY=<markdig checkout> cargo bench -p broker --bench write_queue` (the checkout is
//! copied first: nothing is written to it).

#[path = "common/source.rs"]
mod source;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use source::position_of;
use stats::{ms, percentiles, quantile};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::daemon::StateDir;
use support::{Client, dotnet_build_errors, tree};

const PROJECT: &str = "src/Markdig/Markdig.csproj";

/// One session's write: the file, the declaring line's text, the member's name, and the tool's other arguments.
struct Change {
    file: &'static str,
    declaration: &'static str,
    name: &'static str,
    tool: &'static str,
    arguments: fn() -> Value,
}

const fn rename(file: &'static str, declaration: &'static str, name: &'static str, to: fn() -> Value) -> Change {
    Change { file, declaration, name, tool: "rename_symbol", arguments: to }
}

const CHANGES: [Change; 8] = [
    rename(
        "src/Markdig/Helpers/StringSlice.cs",
        "public char NextChar()",
        "NextChar",
        || json!({"newName": "NextCharacter"}),
    ),
    rename(
        "src/Markdig/Helpers/StringSlice.cs",
        "public void SkipChar()",
        "SkipChar",
        || json!({"newName": "SkipCharacter"}),
    ),
    rename(
        "src/Markdig/Helpers/StringSlice.cs",
        "public readonly char PeekCharExtra(",
        "PeekCharExtra",
        || json!({"newName": "PeekCharBeyond"}),
    ),
    rename(
        "src/Markdig/Helpers/CharHelper.cs",
        "public static bool IsSpaceOrTab(",
        "IsSpaceOrTab",
        || json!({"newName": "IsSpaceOrTabChar"}),
    ),
    rename(
        "src/Markdig/Helpers/CharHelper.cs",
        "public static bool IsDigit(",
        "IsDigit",
        || json!({"newName": "IsDigitChar"}),
    ),
    rename(
        "src/Markdig/Helpers/CharHelper.cs",
        "public static bool IsWhiteSpaceOrZero(",
        "IsWhiteSpaceOrZero",
        || json!({"newName": "IsWhiteSpaceOrNul"}),
    ),
    rename(
        "src/Markdig/Parsers/BlockProcessor.cs",
        "public void GoToColumn(",
        "GoToColumn",
        || json!({"newName": "MoveToColumn"}),
    ),
    Change {
        file: "src/Markdig/Syntax/Block.cs",
        declaration: "public void UpdateSpanEnd(int spanEnd)",
        name: "UpdateSpanEnd",
        tool: "change_signature",
        arguments: || json!({"parameters": [{"name": "spanEnd", "newName": "end"}, {"name": "force", "add": {"type": "bool", "defaultValue": "false"}}]}),
    },
];

fn main() {
    let Some(checkout) = std::env::var_os("ROSLYN_MCP_BENCH_LIBRARY").map(PathBuf::from) else {
        eprintln!("set ROSLYN_MCP_BENCH_LIBRARY to a checkout of xoofx/markdig");
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&checkout));
}

async fn run(checkout: &Path) {
    let copy = tempfile::tempdir().expect("temp dir");
    let library = copy.path().join("markdig");
    let status = std::process::Command::new("cp").arg("-r").arg(checkout).arg(&library).status().expect("cp");
    assert!(status.success(), "copying the checkout");
    // A read-only checkout (a shared corpus) gives a read-only copy: the writes need it writable.
    let status = std::process::Command::new("chmod").arg("-R").arg("u+w").arg(&library).status().expect("chmod");
    assert!(status.success(), "making the copy writable");
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[("ROSLYN_MCP_REQUEST_TIMEOUT_SECS", "120")]);
    // The bridges come once it serves: none starts a daemon of its own.
    state.daemon_pid().await;
    let sessions = futures::future::join_all(CHANGES.iter().map(|_| state.bridge(&library))).await;
    let project = library.join(PROJECT);
    sessions[0].ok("initialize_workspace", json!({"workingDirectory": project.parent().expect("folder")})).await;
    sessions[0].warm_up_finished(Duration::from_secs(900)).await;
    let sources = library.join("src");
    let before = tree(&sources);
    println!("{} ({} writes):", library.display(), CHANGES.len());

    // One by one, from one session: each write's time and each renamed member's references after it.
    let began = Instant::now();
    let mut alone = Vec::new();
    for (n, change) in CHANGES.iter().enumerate() {
        let started = Instant::now();
        let applied = sessions[0].ok(change.tool, arguments(&library, n)).await;
        alone.push((ms(started.elapsed()), applied["operationId"].as_str().expect("operation").to_owned()));
    }
    let sum: f64 = alone.iter().map(|(took, _)| took).sum();
    println!("  one by one: {sum:.0} ms in all ({:.0} ms wall)", ms(began.elapsed()));
    let references_alone = references(&sessions[0], &library).await;
    undo_all(&sessions[0], alone.iter().map(|(_, id)| id.clone()).collect()).await;
    assert!(tree(&sources) == before, "undo gives every byte back");

    // All at once, one session each.
    let logged = daemon_log(&state).len();
    let began = Instant::now();
    let writes = sessions.iter().enumerate().map(|(n, session)| {
        let (tool, arguments) = (CHANGES[n].tool, arguments(&library, n));
        async move { session.call(tool, arguments).await }
    });
    let written = futures::future::join_all(writes).await;
    let wall = ms(began.elapsed());
    let mut ids = Vec::new();
    for (outcome, change) in written.iter().zip(&CHANGES) {
        assert!(!outcome.is_error, "{} of {} landed: {}", change.tool, change.name, outcome.value);
        ids.push(outcome.value["operationId"].as_str().expect("operation").to_owned());
    }
    let errors = dotnet_build_errors(&project).await;
    let references_at_once = references(&sessions[0], &library).await;
    let log = daemon_log(&state)[logged..].to_owned();
    let (mut held, mut waited) =
        (logged_ms(&log, "write lock released", "held_ms"), logged_ms(&log, "write lock asked", "waited_ms"));
    println!("  at once: {wall:.0} ms wall, {:.2}x the sum one by one; every write landed", wall / sum);
    println!("  `dotnet build` after: {errors} errors (five target frameworks)");
    let ((held50, _), (waited50, _)) = (percentiles(&mut held), percentiles(&mut waited));
    println!("  lock held: p50 {held50:.0} ms, p99 {:.0} ms ({} writes)", quantile(&held, 0.99), held.len());
    println!("  wait in line: p50 {waited50:.0} ms, p99 {:.0} ms", quantile(&waited, 0.99));
    assert_eq!(errors, 0, "every framework builds after the writes at once");
    assert_eq!(references_at_once, references_alone, "each member is changed as completely at once as alone");
    undo_all(&sessions[0], ids).await;
    assert!(tree(&sources) == before, "undo gives every byte back");
    replay(&sessions[0], &library, &project).await;
    state.terminate().await;
    let _ = daemon.wait();
}

/// Files with new uses of the first rename's member that arrive between its preview and its apply.
const NEW_FILES: usize = 5;
const USES_PER_FILE: usize = 2;

async fn replay(session: &Client<support::daemon::Agent>, library: &Path, project: &Path) {
    let change = &CHANGES[0];
    let mut previewed = arguments(library, 0);
    previewed["preview"] = json!(true);
    let started = Instant::now();
    let plan = session.ok(change.tool, previewed).await;
    let preview_ms = ms(started.elapsed());
    let places = plan["totalEdits"].as_u64().expect("totalEdits");
    let before = tree(&library.join("src"));
    let file = library.join(change.file);
    let (line, column) = position_of(&file, change.declaration, change.name);
    let found = session.ok("find_references", json!({"filePath": file, "line": line, "column": column})).await;
    let references = found["totalCount"].as_u64().expect("count") as usize;
    for n in 0..NEW_FILES {
        let uses = "slice.NextChar(); ".repeat(USES_PER_FILE);
        let text = format!(
            "namespace Markdig.Helpers;\n\ninternal static class ReplayUses{n}\n{{\n    internal static void Use(StringSlice slice)\n    {{\n        {uses}\n    }}\n}}\n"
        );
        std::fs::write(library.join(format!("src/Markdig/Helpers/ReplayUses{n}.cs")), text).expect("new file");
    }
    // The host has them once the member's references count them.
    let expected = places as usize + NEW_FILES * USES_PER_FILE;
    let mut seen = false;
    for _ in 0..600 {
        let found = session.ok("find_references", json!({"filePath": file, "line": line, "column": column})).await;
        if found["totalCount"].as_u64().is_some_and(|count| count as usize >= references + NEW_FILES * USES_PER_FILE) {
            seen = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(seen, "the host saw the new uses");
    let with_new = tree(&library.join("src"));
    let started = Instant::now();
    let applied = session.ok("apply_plan", json!({"planId": plan["planId"]})).await;
    let apply_ms = ms(started.elapsed());
    assert_eq!(applied["rebased"]["how"], "replayed", "{applied}");
    let replayed = applied["totalEdits"].as_u64().expect("totalEdits") as usize;
    let errors = dotnet_build_errors(project).await;
    println!(
        "  replay of the rename of {} ({places} places previewed, {replayed} written after {} new uses in {NEW_FILES} new files): \
         apply {apply_ms:.0} ms against its preview {preview_ms:.0} ms ({:.2}x); `dotnet build` after: {errors} errors",
        change.name,
        NEW_FILES * USES_PER_FILE,
        apply_ms / preview_ms
    );
    assert_eq!(replayed, expected, "every new use is renamed: {applied}");
    assert_eq!(errors, 0, "every framework builds after the replayed rename");
    session.ok("undo", json!({"operationId": applied["operationId"]})).await;
    assert!(tree(&library.join("src")) == with_new, "undo gives every byte back");
    for n in 0..NEW_FILES {
        std::fs::remove_file(library.join(format!("src/Markdig/Helpers/ReplayUses{n}.cs"))).expect("remove");
    }
    assert!(tree(&library.join("src")) == before, "the library is as it was");
}

/// The `n`th change's arguments at its member's declaration.
fn arguments(library: &Path, n: usize) -> Value {
    let change = &CHANGES[n];
    let file = library.join(change.file);
    let (line, column) = position_of(&file, change.declaration, change.name);
    let mut arguments = (change.arguments)();
    let place = json!({"filePath": file, "line": line, "column": column, "waitSeconds": 300});
    arguments.as_object_mut().expect("object").extend(place.as_object().expect("object").clone());
    arguments
}

/// Each renamed member's reference count, found at its new name's declaration.
async fn references(session: &Client<support::daemon::Agent>, library: &Path) -> Vec<u64> {
    let mut counts = Vec::new();
    for change in CHANGES.iter().filter(|c| c.tool == "rename_symbol") {
        let renamed = (change.arguments)()["newName"].as_str().expect("new name").to_owned();
        let declaration = change.declaration.replace(change.name, &renamed);
        let file = library.join(change.file);
        let (line, column) = position_of(&file, &declaration, &renamed);
        let found = session.ok("find_references", json!({"filePath": file, "line": line, "column": column})).await;
        counts.push(found["totalCount"].as_u64().expect("count"));
    }
    counts
}

/// Undoes the operations, newest first as the history lists them (writes at once land in the lock's order).
async fn undo_all(session: &Client<support::daemon::Agent>, ids: Vec<String>) {
    let listed = session.ok("list_operations", json!({})).await;
    let newest_first = listed["operations"].as_array().expect("operations").iter();
    let ours: Vec<String> = newest_first
        .filter(|op| op["state"] == "Applied")
        .filter_map(|op| op["operationId"].as_str().filter(|id| ids.iter().any(|ours| ours == id)).map(str::to_owned))
        .collect();
    assert_eq!(ours.len(), ids.len(), "every write is in the history: {listed}");
    for id in ours {
        session.ok("undo", json!({"operationId": id})).await;
    }
}

/// What the daemon logged: the one the bench started, or one a bridge started if it came first.
fn daemon_log(state: &StateDir) -> String {
    state.serve_log() + &std::fs::read_to_string(state.log()).unwrap_or_default()
}

/// The `field=<ms>` of every log line saying `what` (the log's colours taken out first).
fn logged_ms(log: &str, what: &str, field: &str) -> Vec<f64> {
    let key = format!("{field}=");
    log.lines()
        .map(without_colours)
        .filter(|line| line.contains(what))
        .filter_map(|line| line.split(&key).nth(1)?.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

/// A line without its terminal colour sequences (`ESC [ ... m`).
fn without_colours(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            plain.push(c);
        }
    }
    plain
}
