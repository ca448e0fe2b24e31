//! Faults in the middle of a write: every file ends as it was, and the service answers the next call.

use crate::support::hold::Hold;
use crate::support::{Fixture, Server, alive, assert_same_tree, dotnet_build_errors, eventually, kill9, tree};
use serde_json::json;
use std::time::Duration;

const SHAPES: &str = "src/Moves.Core/Models/Shapes.cs";
const PROGRAM: &str = "src/Moves.App/Program.cs";

/// A namespace move that touches several files: the source, a new file and consumers.
fn square_move(moves: &Fixture) -> serde_json::Value {
    json!({"sourceFile": moves.file(SHAPES), "symbolName": "Square", "targetNamespace": "Moves.Core.Quads"})
}

/// The service answers the next call, on the files as they are.
async fn still_serves(server: &Server, moves: &Fixture) {
    let (line, column) = moves.position_of(SHAPES, "Square", 0);
    let found =
        server.ok("find_references", json!({"filePath": moves.file(SHAPES), "line": line, "column": column})).await;
    assert_eq!(found["totalCount"], json!(3), "{found}");
}

fn preview(mut arguments: serde_json::Value) -> serde_json::Value {
    arguments["preview"] = json!(true);
    arguments
}

/// Waits until the write has replaced files on disk.
async fn replaced(root: &std::path::Path, before: &std::collections::BTreeMap<String, Vec<u8>>) {
    let seen = eventually(Duration::from_secs(60), || async { (tree(root) != *before).then_some(()) }).await;
    assert!(seen.is_some(), "the write never replaced the files");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_host_killed_mid_apply_leaves_every_file_as_it_was() {
    let moves = Fixture::copy("Moves");
    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[hold.env()]).await;
    let before = tree(&moves.root);
    let solution = moves.path("Moves.sln");
    let write = server.call("move_type_to_namespace", square_move(&moves));
    let kill = async {
        // Once the files are replaced, and while the write waits to update the host, kill the host.
        replaced(&moves.root, &before).await;
        let status = server.workspace_status(&solution).await.expect("loaded");
        kill9(status["hostPid"].as_u64().expect("host pid") as u32);
        hold.release();
    };
    let (outcome, ()) = tokio::join!(write, kill);
    assert!(outcome.is_error, "{:?}", outcome.value);
    assert_eq!(outcome.value["error"]["code"], json!("ROSLYN_ERROR"));
    assert_eq!(outcome.value["error"]["details"]["rolledBack"], json!(true));
    assert_same_tree(&before, &moves.root, "after the host died mid-apply");
    still_serves(&server, &moves).await;
    server.ok("move_type_to_namespace", preview(square_move(&moves))).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_past_its_time_limit_is_rolled_back() {
    let moves = Fixture::copy("Moves");
    // Never released: the write stays held, its files replaced, past its limit. The limit is the default,
    // which computing the move fits in by far.
    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[hold.env()]).await;
    server.ok("move_type_to_namespace", preview(square_move(&moves))).await;
    let before = tree(&moves.root);
    let (outcome, ()) =
        tokio::join!(server.call("move_type_to_namespace", square_move(&moves)), replaced(&moves.root, &before));
    assert_eq!(outcome.value["error"]["code"], json!("TIMEOUT"), "{:?}", outcome.value);
    assert_eq!(outcome.value["error"]["details"]["timeoutMs"], json!(30000));
    assert_eq!(outcome.value["error"]["details"]["rolledBack"], json!(true));
    assert_same_tree(&before, &moves.root, "after the timeout");
    still_serves(&server, &moves).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tiny_time_limit_fails_the_move_with_every_file_as_it_was() {
    let moves = Fixture::copy("Moves");
    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_WRITE_TIMEOUT_SECS", "1"), hold.env()]).await;
    // Loading is not part of the limit.
    still_serves(&server, &moves).await;
    let before = tree(&moves.root);
    let error = server.fails("move_type_to_namespace", square_move(&moves), "TIMEOUT").await;
    assert_eq!(error["details"]["timeoutMs"], json!(1000));
    assert_same_tree(&before, &moves.root, "after the timeout");
    still_serves(&server, &moves).await;
    server.stop().await;
}

/// A runaway computation stops at the compute time limit, counted in the host, with nothing written.
#[tokio::test(flavor = "multi_thread")]
async fn a_change_the_host_computes_past_the_compute_limit_names_the_limit_and_changes_nothing() {
    let moves = Fixture::copy("Moves");
    // Every read and plan waits 3 s in the host: the move's plan outlasts its 1 s limit.
    let env = [("ROSLYN_MCP_COMPUTE_TIMEOUT_SECS", "1"), ("ROSLYN_MCP_FAULT_READ_DELAY_MS", "3000")];
    let server = Server::start_with_env(&moves.root, &env).await;
    still_serves(&server, &moves).await;
    let before = tree(&moves.root);
    let error = server.fails("move_type_to_namespace", square_move(&moves), "TIMEOUT").await;
    assert_eq!(error["details"]["timeoutMs"], json!(1000), "the limit set, not what was left of it: {error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("compute time limit")), "{error}");
    assert_same_tree(&before, &moves.root, "after the plan's timeout");
    still_serves(&server, &moves).await;
    server.stop().await;
}

/// A write's computation is long work like any other: slowed past the answer bound and past the write time
/// limit (which bounds only what the write does holding the lock), it answers with its job, finishes, and
/// applies.
#[tokio::test(flavor = "multi_thread")]
async fn a_write_computed_past_the_answer_bound_answers_with_its_job_and_applies() {
    let moves = Fixture::copy("Moves");
    // Every read and plan waits 4 s in the host; the call answers within 1 s; the lock may be held 1 s.
    let env = [
        ("ROSLYN_MCP_ANSWER_WITHIN_SECS", "1"),
        ("ROSLYN_MCP_WRITE_TIMEOUT_SECS", "1"),
        ("ROSLYN_MCP_FAULT_READ_DELAY_MS", "4000"),
    ];
    let server = Server::start_with_env(&moves.root, &env).await;
    still_serves(&server, &moves).await;
    let before = tree(&moves.root);
    let running = server.call_once("move_type_to_namespace", square_move(&moves)).await;
    assert_eq!(running.value["status"], "running", "answered with its job: {}", running.value);
    let job = running.value["jobId"].as_str().expect("jobId");
    let applied = server.ok("get_job", json!({"jobId": job})).await;
    assert!(applied["operationId"].as_str().is_some(), "written: {applied}");
    assert_ne!(tree(&moves.root), before, "the move landed on disk");
    let all = moves.read(SHAPES) + &moves.read(PROGRAM);
    assert!(all.contains("Moves.Core.Quads"), "{all}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unwritable_file_refuses_the_whole_move() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    let program = moves.path(PROGRAM);
    let mut permissions = std::fs::metadata(&program).expect("Program.cs").permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&program, permissions).expect("chmod");
    let before = tree(&moves.root);
    let error = server.fails("move_type_to_namespace", square_move(&moves), "FILESYSTEM_ERROR").await;
    assert_eq!(error["details"]["file"], json!(program.display().to_string()));
    assert_same_tree(&before, &moves.root, "after refusing a read-only file");
    assert!(std::fs::metadata(&program).expect("Program.cs").permissions().readonly());
    still_serves(&server, &moves).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_killed_mid_apply_is_undone_at_the_next_start() {
    let moves = Fixture::copy("Moves");
    let state = tempfile::Builder::new().prefix("roslyn-mcp-state-").tempdir().expect("state dir");
    let state_dir = state.path().display().to_string();
    // Never released: the service dies with the write held.
    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_STATE_DIR", &state_dir), hold.env()]).await;
    let before = tree(&moves.root);
    // Kept alive until the kill: a request the client drops is cancelled, and a cancelled write rolls back.
    let mut write = Box::pin(server.call("move_type_to_namespace", square_move(&moves)));
    tokio::select! {
        outcome = &mut write => panic!("the write should be cut off, got {outcome:?}"),
        () = replaced(&moves.root, &before) => {}
    }
    let host = server.workspace_status(&moves.path("Moves.sln")).await.and_then(|s| s["hostPid"].as_u64());
    let mut killed = vec![server.pid];
    killed.extend(host.map(|pid| pid as u32)); // what a machine crash would take down too
    for &pid in &killed {
        kill9(pid);
    }
    let dead = eventually(Duration::from_secs(10), || async { killed.iter().all(|&p| !alive(p)).then_some(()) }).await;
    assert!(dead.is_some(), "the killed processes are gone");
    drop(write);
    drop(server);
    assert!(tree(&moves.root) != before, "the crash left the files half-written");

    let restarted = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_STATE_DIR", &state_dir)]).await;
    restarted.ok("diagnose", json!({})).await;
    // Undone at start, or as soon as the dead process's last thread lets its journal go.
    let journal = state.path().join("journal");
    let recovered = eventually(Duration::from_secs(20), || async {
        let empty = std::fs::read_dir(&journal).is_ok_and(|mut d| d.next().is_none());
        (empty && tree(&moves.root) == before).then_some(())
    })
    .await;
    assert!(recovered.is_some(), "the interrupted write was not undone");
    assert_same_tree(&before, &moves.root, "after recovery at start");
    still_serves(&restarted, &moves).await;
    restarted.ok("move_type_to_namespace", square_move(&moves)).await;
    restarted.stop().await;
}

/// A service killed at `step` of a write's journal: at the next start the journal folder goes, and every file
/// is as before the write (`undone`) or as the write left it, with the write in the history to undo.
async fn killed_at_journal_step(step: &str, undone: bool) {
    let moves = Fixture::copy("Moves");
    let state = tempfile::Builder::new().prefix("roslyn-mcp-state-").tempdir().expect("state dir");
    let state_dir = state.path().display().to_string();
    let hold = tempfile::Builder::new().prefix("roslyn-mcp-hold-").tempdir().expect("hold dir");
    let release = hold.path().join("release");
    let knob = format!("{step}:{}", release.display());
    let env = [("ROSLYN_MCP_STATE_DIR", state_dir.as_str()), ("ROSLYN_MCP_FAULT_HOLD_JOURNAL", knob.as_str())];
    let server = Server::start_with_env(&moves.root, &env).await;
    let before = tree(&moves.root);
    let mut write = Box::pin(server.call("move_type_to_namespace", square_move(&moves)));
    let held = async {
        let marker = hold.path().join("release.held");
        eventually(Duration::from_secs(120), || async { marker.exists().then_some(()) }).await
    };
    tokio::select! {
        outcome = &mut write => panic!("the write should be held at {step}, got {outcome:?}"),
        reached = held => assert!(reached.is_some(), "the write never reached {step}"),
    }
    let at_hold = tree(&moves.root);
    let host = server.workspace_status(&moves.path("Moves.sln")).await.and_then(|s| s["hostPid"].as_u64());
    let mut killed = vec![server.pid];
    killed.extend(host.map(|pid| pid as u32));
    for &pid in &killed {
        kill9(pid);
    }
    let dead = eventually(Duration::from_secs(10), || async { killed.iter().all(|&p| !alive(p)).then_some(()) }).await;
    assert!(dead.is_some(), "the killed processes are gone");
    drop(write);
    drop(server);

    let restarted = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_STATE_DIR", &state_dir)]).await;
    restarted.ok("diagnose", json!({})).await;
    let journal = state.path().join("journal");
    let expected: std::collections::BTreeMap<_, _> = if undone { before.clone() } else { at_hold };
    let settled = eventually(Duration::from_secs(20), || async {
        let empty = std::fs::read_dir(&journal).is_ok_and(|mut d| d.next().is_none());
        (empty && tree(&moves.root) == expected).then_some(())
    })
    .await;
    let left: Vec<_> = std::fs::read_dir(&journal).into_iter().flatten().flatten().map(|e| e.file_name()).collect();
    assert!(settled.is_some(), "killed at {step}: journal left {left:?}, or the files are not as expected");
    assert_same_tree(&expected, &moves.root, &format!("after recovery from a kill at {step}"));
    if !undone {
        let listed = restarted.ok("list_operations", json!({})).await;
        let operation =
            listed["operations"][0]["operationId"].as_str().expect("the write is in the history").to_owned();
        restarted.ok("undo", json!({"operationId": operation})).await;
        assert_same_tree(&before, &moves.root, &format!("after undoing the write that a kill at {step} left"));
    }
    still_serves(&restarted, &moves).await;
    restarted.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_killed_with_a_write_staged_leaves_every_file_and_no_journal() {
    killed_at_journal_step("staged", true).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_killed_between_two_renames_is_undone_and_its_journal_removed() {
    killed_at_journal_step("replacing", true).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_killed_after_a_write_was_recorded_but_not_marked_done_keeps_it() {
    killed_at_journal_step("recorded", false).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_killed_while_removing_a_finished_write_s_journal_keeps_the_write() {
    killed_at_journal_step("removing", false).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_service_does_not_report_its_own_writes_back_to_the_host() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    let solution = moves.path("Moves.sln");
    server
        .ok(
            "move_type_to_file",
            json!({"sourceFile": moves.file(SHAPES), "symbolName": "Square",
        "targetFile": moves.file("src/Moves.Core/Models/Square.cs")}),
        )
        .await;
    let version = server.workspace_status(&solution).await.expect("loaded")["workspaceVersion"].clone();
    // Well past the watcher's debounce: no second update for the same files.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(server.workspace_status(&solution).await.expect("loaded")["workspaceVersion"], version);
    // A foreign edit still is.
    std::fs::write(
        moves.path("src/Moves.Core/Models/Extra.cs"),
        "namespace Moves.Core.Models;\n\npublic class Extra { }\n",
    )
    .expect("foreign edit");
    let updated = eventually(Duration::from_secs(20), || async {
        let now = server.workspace_status(&solution).await?["workspaceVersion"].clone();
        (now != version).then_some(())
    })
    .await;
    assert!(updated.is_some(), "a foreign edit reaches the host");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_edited_after_the_host_last_saw_it_is_never_overwritten() {
    let moves = Fixture::copy("Moves");
    // Edits settle for 5 s before they go to the host unasked: long enough to move on a view older than the
    // disk, were the call not to bring them in first.
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_DEBOUNCE_MS", "5000")]).await;
    server.ok("find_references", json!({"filePath": moves.file(SHAPES), "line": 25, "column": 21})).await;
    let program = moves.path(PROGRAM);
    let edited = format!("{}// edited by hand\n", std::fs::read_to_string(&program).expect("Program.cs"));
    std::fs::write(&program, &edited).expect("edit");
    // The plan is computed on the file as it is (the call's disk barrier brought the edit in), so nothing is
    // left to replay: the edit stands.
    let moved = server.ok("move_type_to_namespace", square_move(&moves)).await;
    assert_eq!(moved["rebased"], json!(null), "computed on the disk as it is: {moved}");
    let now = std::fs::read_to_string(&program).expect("Program.cs");
    assert!(now.contains("// edited by hand"), "the hand edit was overwritten: {now}");
    assert_eq!(dotnet_build_errors(&moves.path("Moves.sln")).await, 0, "the replayed move builds");
    server.stop().await;
}
