//! Folders a write cannot take from a session: emptied-folder removal after a write never removes the
//! client's root folder.

use crate::support::daemon::{Agent, StateDir};
use crate::support::{Fixture, SLOTS};
use serde_json::json;

/// A client whose roots are the solution's folder and, inside it, a folder holding one file: deleting that
/// file empties the folder, which stays, since it is one of the client's roots; undo puts the file back.
#[tokio::test(flavor = "multi_thread")]
async fn a_delete_that_empties_the_clients_root_folder_leaves_the_folder() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Signature");
    let root = fixture.path("Lib/Lonely");
    std::fs::create_dir(&root).expect("root folder");
    std::fs::rename(fixture.path("Lib/Orphan.cs"), root.join("Orphan.cs")).expect("move");
    let text = std::fs::read(root.join("Orphan.cs")).expect("read");
    let state = StateDir::default();
    let client = state.bridge_with(Agent::with_roots(&[&fixture.root, &root]), &fixture.root).await;

    let solution = fixture.file("Signature.slnx");
    let orphan = root.join("Orphan.cs").display().to_string();
    let deleted = client.ok("safe_delete", json!({"filePath": orphan, "solutionPath": solution})).await;
    assert_eq!(deleted["filesDeleted"], json!(1), "{deleted}");
    assert!(!root.join("Orphan.cs").exists(), "the file is deleted");
    assert!(root.is_dir(), "the client's root folder stays, empty");

    client.ok("undo", json!({"operationId": deleted["operationId"]})).await;
    assert_eq!(std::fs::read(root.join("Orphan.cs")).expect("put back"), text);
    client.close().await;
    state.terminate().await;
}
