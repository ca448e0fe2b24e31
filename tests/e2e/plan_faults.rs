//! Faults in the middle of an apply by plan id and of an undo: a cancellation, the time limit or a killed
//! host leaves every file as it was before that call, the plan or the operation stays usable, and the
//! service answers the next call. Writes are held by the apply hold (support/hold.rs), never raced.

use crate::support::hold::Hold;
use crate::support::{Fixture, Server, assert_same_tree, eventually, kill9, tree};
use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
use rmcp::service::PeerRequestOptions;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Waits until a held write has replaced files on disk.
async fn replaced(root: &Path, before: &BTreeMap<String, Vec<u8>>) {
    let seen = eventually(Duration::from_secs(60), || async { (tree(root) != *before).then_some(()) }).await;
    assert!(seen.is_some(), "the write never replaced the files");
}

/// Sends a call, cancels it once its files are replaced, and waits until they are all back as before and
/// the cancelled write has let go of the lock (it tells the host of the restored files first).
async fn cancelled_mid_write(server: &Server, tool: &str, arguments: Value, root: &Path, solution: &Path) {
    let before = tree(root);
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments),
    ));
    let handle = server.peer().send_cancellable_request(request, PeerRequestOptions::no_options()).await.expect("send");
    replaced(root, &before).await;
    handle.cancel(Some("the client lost interest".into())).await.expect("send notifications/cancelled");
    let restored = eventually(Duration::from_secs(30), || async { (tree(root) == before).then_some(()) }).await;
    assert!(restored.is_some(), "{tool}: the cancelled write was not rolled back");
    let unlocked = eventually(Duration::from_secs(60), || async {
        let status = server.workspace_status(solution).await.expect("loaded");
        (status["writeLocked"] == json!(false)).then_some(())
    })
    .await;
    assert!(unlocked.is_some(), "{tool}: the cancelled write never let go of the lock");
}

/// A call whose files are replaced, then its host killed, then the hold released: rolled back.
async fn host_killed_mid_write(
    server: &Server,
    hold: &Hold,
    tool: &str,
    arguments: Value,
    root: &Path,
    solution: &Path,
) {
    let before = tree(root);
    let write = std::pin::pin!(server.call(tool, arguments));
    let kill = std::pin::pin!(async {
        replaced(root, &before).await;
        let status = server.workspace_status(solution).await.expect("loaded");
        kill9(status["hostPid"].as_u64().expect("host pid") as u32);
        hold.release();
    });
    // A write that answers before its files were replaced failed for another reason: say which.
    let outcome = match futures::future::select(write, kill).await {
        futures::future::Either::Left((outcome, _)) => panic!("{tool} ended before the kill: {:?}", outcome.value),
        futures::future::Either::Right(((), write)) => write.await,
    };
    assert_eq!(outcome.value["error"]["code"], json!("ROSLYN_ERROR"), "{tool}: {:?}", outcome.value);
    assert_eq!(outcome.value["error"]["details"]["rolledBack"], json!(true));
    assert_same_tree(&before, root, &format!("{tool} after the host died mid-write"));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_apply_by_id_cut_by_a_cancellation_or_a_host_kill_leaves_every_file_and_the_plan_as_they_were() {
    let fixture = Fixture::copy("Rename");
    let hold = Hold::default();
    let server = Server::start_with_env(&fixture.root, &[hold.env()]).await;
    let invoice = fixture.file("Core/Models/Invoice.cs");
    let rename = json!({"filePath": invoice, "line": 4, "column": 14, "newName": "Bill", "preview": true});
    let plan = server.ok("rename_symbol", rename).await["planId"].clone();
    let before = tree(&fixture.root);

    let solution = fixture.path("Rename.sln");
    cancelled_mid_write(&server, "apply_plan", json!({"planId": plan}), &fixture.root, &solution).await;
    host_killed_mid_write(&server, &hold, "apply_plan", json!({"planId": plan}), &fixture.root, &solution).await;
    assert_eq!(server.ok("list_operations", json!({})).await["operations"], json!([]), "nothing was applied");

    // The plan outlived both failures, and the files still hold what it was computed from.
    let applied = server.ok("apply_plan", json!({"planId": plan})).await;
    assert_eq!(applied["changes"]["filesCreated"], json!([fixture.file("Core/Models/Bill.cs")]));
    server.ok("undo", json!({"operationId": applied["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undone after the faults");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_undo_cut_by_its_time_limit_a_cancellation_or_a_host_kill_leaves_every_file_as_it_was() {
    let moves = Fixture::copy("Moves");
    let state = tempfile::Builder::new().prefix("roslyn-mcp-state-").tempdir().expect("state dir");
    let state_dir = state.path().display().to_string();
    let original = tree(&moves.root);
    let square = json!({"sourceFile": moves.file("src/Moves.Core/Models/Shapes.cs"), "symbolName": "Square",
        "targetNamespace": "Moves.Core.Quads"});
    // Applied by a service without the hold; undone by one with it, on the same history.
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_STATE_DIR", &state_dir)]).await;
    let operation = server.ok("move_type_to_namespace", square).await["operationId"].clone();
    server.stop().await;
    let moved = tree(&moves.root);

    // Held and never released: the undo runs into its limit. Restoring files takes no computing, so the
    // limit is all hold. That short limit would race the kill below, so a second service runs that part.
    let hold = Hold::default();
    let env = [("ROSLYN_MCP_STATE_DIR", state_dir.as_str()), ("ROSLYN_MCP_WRITE_TIMEOUT_SECS", "5"), hold.env()];
    let server = Server::start_with_env(&moves.root, &env).await;
    let undo = json!({"operationId": operation});
    let (outcome, ()) = tokio::join!(server.call("undo", undo.clone()), replaced(&moves.root, &moved));
    assert_eq!(outcome.value["error"]["code"], json!("TIMEOUT"), "{:?}", outcome.value);
    assert_eq!(outcome.value["error"]["details"]["rolledBack"], json!(true));
    assert_same_tree(&moved, &moves.root, "undo after its time limit");
    server.stop().await;

    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_STATE_DIR", &state_dir), hold.env()]).await;
    let solution = moves.path("Moves.sln");
    cancelled_mid_write(&server, "undo", undo.clone(), &moves.root, &solution).await;
    host_killed_mid_write(&server, &hold, "undo", undo.clone(), &moves.root, &solution).await;

    let listed = server.ok("list_operations", json!({})).await;
    assert_eq!(listed["operations"][0]["state"], json!("Applied"), "{listed}");
    assert_eq!(listed["operations"][0]["canUndo"], json!(true));
    server.ok("undo", undo).await;
    assert_same_tree(&original, &moves.root, "undone at last");
    server.stop().await;
}
