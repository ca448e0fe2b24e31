//! Every write is a plan: a preview keeps it under a planId, apply_plan writes it (replayed on the files as
//! they are when one moved on; with `exact`, STALE_PLAN then), and every applied write is an operation that
//! undo restores byte for byte and mode for mode, redo applies again, and list_operations shows, across a restart of the service.
//! On the Moves fixture (tests/fixtures/Moves/FIXTURE.md).

use crate::support::daemon::StateDir;
use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, eventually, tree};
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

const SHAPES: &str = "src/Moves.Core/Models/Shapes.cs";
const COLOR: &str = "src/Moves.Core/Models/Color.cs";

fn mode(fixture: &Fixture, relative: &str) -> u32 {
    std::fs::metadata(fixture.path(relative)).expect("exists").permissions().mode() & 0o7777
}

async fn operations(server: &Server) -> Vec<Value> {
    server.ok("list_operations", json!({})).await["operations"].as_array().expect("operations").clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_previewed_plan_is_applied_by_id_and_undone_byte_for_byte_then_redone() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    server.ok("initialize_workspace", json!({"workingDirectory": moves.root.display().to_string()})).await;
    // The moved enum's file goes away: undo must bring back its bytes and its unusual mode.
    std::fs::set_permissions(moves.path(COLOR), std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let before = tree(&moves.root);
    let palette = moves.file("src/Moves.Core/Palette/Color.cs");
    let arguments = json!({"sourceFile": moves.file(COLOR), "symbolName": "Color", "targetFile": palette});

    let preview = server.ok("move_type_to_file", previewed(&arguments)).await;
    assert_eq!(preview["preview"], json!(true));
    assert_eq!(preview["tool"], json!("move_type_to_file"));
    let plan_id = preview["planId"].as_str().expect("planId").to_owned();
    assert!(preview["expiresAt"].as_str().is_some_and(|t| t.ends_with('Z')), "{preview}");
    assert_eq!(preview["summary"]["filesCreated"], json!(1));
    assert_eq!(preview["summary"]["filesDeleted"], json!(1));
    assert_same_tree(&before, &moves.root, "a preview writes nothing");

    let applied = server.ok("apply_plan", json!({"planId": plan_id})).await;
    assert_eq!(applied["planId"], json!(plan_id));
    assert_eq!(applied["changes"]["filesCreated"], json!([palette]));
    assert_eq!(applied["changes"]["filesDeleted"], json!([moves.file(COLOR)]));
    // Exactly the previewed texts, not a recomputation.
    for change in preview["pendingChanges"].as_array().expect("changes") {
        if let Some(sha256) = change["sha256"].as_str() {
            assert_eq!(applied["checksums"][change["file"].as_str().expect("file")], json!(sha256));
        }
    }
    let operation = applied["operationId"].as_str().expect("operationId").to_owned();
    server.fails("apply_plan", json!({"planId": plan_id}), "PLAN_NOT_FOUND").await;

    let listed = operations(&server).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["operationId"], json!(operation));
    assert_eq!(listed[0]["state"], json!("Applied"));
    assert_eq!(listed[0]["canUndo"], json!(true));

    let undone = server.ok("undo", json!({"operationId": operation})).await;
    assert_eq!(undone["state"], json!("Undone"));
    assert_eq!(undone["changes"]["filesCreated"], json!([moves.file(COLOR)]));
    assert_eq!(undone["changes"]["filesDeleted"], json!([palette]));
    assert_same_tree(&before, &moves.root, "undo restores every byte");
    assert_eq!(mode(&moves, COLOR), 0o640, "undo restores the mode of the file it brings back");
    server.fails("undo", json!({"operationId": operation}), "OPERATION_NOT_APPLICABLE").await;
    // The service's own view is current: the enum is back where it was.
    let found =
        server.ok("find_symbol_definition", json!({"filePath": moves.file(COLOR), "line": 3, "column": 13})).await;
    assert_eq!(found["locations"][0]["filePath"], json!(moves.file(COLOR)), "{found}");

    let redone = server.ok("redo", json!({"operationId": operation})).await;
    assert_eq!(redone["state"], json!("Applied"));
    assert!(!moves.path(COLOR).exists() && std::path::Path::new(&palette).exists());
    assert_eq!(dotnet_build_errors(&moves.path("Moves.sln")).await, 0, "the redone move builds");
    server.ok("undo", json!({"operationId": operation})).await;
    assert_same_tree(&before, &moves.root, "a second undo restores every byte too");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_whose_files_moved_on_is_replayed_or_refused_when_exact_and_an_undo_after_a_later_edit_is_refused() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    let shapes = moves.file(SHAPES);
    let target = moves.file("src/Moves.Core/Models/Square.cs");
    let arguments = json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": target});

    // An edit on disk between the preview and its apply: with exact, refused with the replayed plan; nothing
    // written.
    let preview = server.ok("move_type_to_file", previewed(&arguments)).await;
    let original = std::fs::read_to_string(&shapes).expect("read");
    let edited = original.clone() + "\n// edited by hand\n";
    std::fs::write(&shapes, &edited).expect("edit");
    let before = tree(&moves.root);
    let exact = json!({"planId": preview["planId"], "exact": true});
    let refused = server.fails("apply_plan", exact, "STALE_PLAN").await;
    let details = &refused["details"];
    assert!(details["replayedPlanId"].as_str().is_some_and(|id| id.starts_with("plan-")), "{refused}");
    let on_disk = details["changedSince"].as_array().into_iter().flatten().any(|change| {
        change["source"] == "disk"
            && change["files"].as_array().into_iter().flatten().any(|f| f == "src/Moves.Core/Models/Shapes.cs")
    });
    assert!(on_disk, "the refusal names the edit on disk: {refused}");
    assert!(details["pendingChanges"].as_array().is_some_and(|c| !c.is_empty()), "{refused}");
    assert_same_tree(&before, &moves.root, "a plan refused as inexact writes nothing");
    server.fails("apply_plan", json!({"planId": "plan-00000000-0000-0000-0000-000000000000"}), "PLAN_NOT_FOUND").await;
    // By default it is replayed on the file as it is: the move lands and the hand edit stands; undone, the
    // edited file is back.
    let replayed = server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    assert_eq!(replayed["rebased"]["how"], json!("replayed"), "{replayed}");
    let moved = std::fs::read_to_string(&shapes).expect("read");
    assert!(moved.contains("// edited by hand") && !moved.contains("class Square"), "{moved}");
    assert_eq!(dotnet_build_errors(&moves.path("Moves.sln")).await, 0, "the replayed move builds");
    let operation = replayed["operationId"].clone();
    server.ok("undo", json!({"operationId": operation})).await;
    assert_same_tree(&before, &moves.root, "undoing the replayed move restores every byte");

    // Applied at once (no preview), once the host has seen the edit: the same path, undoable; then a later
    // edit stops the undo.
    let seen = eventually(Duration::from_secs(30), || async {
        // Until then a plan is computed on the old text, and refused as stale.
        let preview = server.call("move_type_to_file", previewed(&arguments)).await;
        (!preview.is_error).then_some(())
    })
    .await;
    assert!(seen.is_some(), "the host never saw the edit of {shapes}");
    let applied = server.ok("move_type_to_file", arguments.clone()).await;
    let operation = applied["operationId"].as_str().expect("operationId").to_owned();
    let after = tree(&moves.root);
    std::fs::write(&target, std::fs::read_to_string(&target).expect("read") + "// later\n").expect("edit");
    let refused = server.fails("undo", json!({"operationId": operation}), "STALE_PLAN").await;
    assert_eq!(refused["details"]["files"], json!([target]), "{refused}");
    let listed = operations(&server).await;
    assert_eq!(listed[0]["canUndo"], json!(false));
    assert_eq!(listed[0]["changedSince"], json!([target]));
    // Put the later edit back: undo is possible again.
    std::fs::write(&target, &after[&"src/Moves.Core/Models/Square.cs".to_owned()]).expect("revert");
    server.ok("undo", json!({"operationId": operation})).await;
    assert_eq!(std::fs::read_to_string(&shapes).expect("read"), edited);
    assert!(!std::path::Path::new(&target).exists());
    server.fails("undo", json!({"operationId": "op-unknown"}), "OPERATION_NOT_FOUND").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_history_survives_a_restart_of_the_daemon() {
    let moves = Fixture::copy("Moves");
    let state = StateDir::default();
    let before = tree(&moves.root);
    let client = state.bridge(&moves.root).await;
    let first = state.daemon_pid().await;
    let applied = client
        .ok(
            "move_type_to_namespace",
            json!({"sourceFile": moves.file(SHAPES), "symbolName": "Square", "targetNamespace": "Moves.Core.Solids"}),
        )
        .await;
    let operation = applied["operationId"].clone();
    client.close().await;
    state.terminate().await;

    // A new daemon, started by the next bridge, on the same state folder.
    let client = state.bridge(&moves.root).await;
    assert_ne!(state.daemon_pid().await, first, "a new daemon serves");
    let listed = client.ok("list_operations", json!({})).await;
    let listed = listed["operations"].as_array().expect("operations");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["operationId"], operation);
    assert_eq!(listed[0]["tool"], json!("move_type_to_namespace"));
    assert!(listed[0]["summary"].as_str().is_some_and(|s| s.starts_with("Move Square to namespace Moves.Core.Solids")));
    client.ok("undo", json!({"operationId": operation})).await;
    assert_same_tree(&before, &moves.root, "undo after a restart restores every byte");
    client.close().await;
    state.terminate().await;
}

/// The same arguments with `preview: true`.
fn previewed(arguments: &Value) -> Value {
    let mut arguments = arguments.clone();
    arguments["preview"] = json!(true);
    arguments
}
