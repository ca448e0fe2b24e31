//! The harness itself: tests that only read share one load of a fixture on the shared daemon, each in a
//! session of its own; a test that writes has a copy of its own that the shared one never sees.

use crate::support::{Fixture, Server, shared};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn two_reading_sessions_share_one_load_of_their_fixture() {
    let (shop, first) = shared::session("Shop").await;
    let (same, second) = shared::session("Shop").await;
    assert_eq!(shop.root, same.root, "one shared copy of a fixture");
    let solution = shop.file("Shop.sln");
    let (a, b) = tokio::join!(
        first.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})),
        second.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})),
    );
    assert_eq!(a["primarySolution"]["path"], json!(solution));
    assert_eq!(b["primarySolution"]["path"], json!(solution));
    let host_of = |diagnose: serde_json::Value| {
        let workspaces = diagnose["workspaces"].as_array().expect("workspaces").clone();
        workspaces.into_iter().find(|w| w["solutionPath"] == json!(solution)).map(|w| w["hostPid"].clone())
    };
    let diagnose = first.ok("diagnose", json!({})).await;
    let host = host_of(diagnose.clone()).unwrap_or_else(|| panic!("Shop not loaded: {diagnose}"));
    assert!(host.is_u64(), "a host serves the shared Shop: {host}");
    assert_eq!(host_of(second.ok("diagnose", json!({})).await), Some(host), "both sessions see the same host");

    // One load of the shared Shop in the shared daemon's log, whichever test asked first.
    let log = std::fs::read_to_string(shared::log()).expect("shared daemon log");
    let loads = log.lines().filter(|l| l.contains("solution loaded") && l.contains(&solution)).count();
    assert_eq!(loads, 1, "the shared Shop was loaded {loads} times; log: {}", shared::log().display());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_writing_test_has_a_copy_and_a_service_of_its_own() {
    let (shared_shop, reader) = shared::session("Shop").await;
    let own = Fixture::copy("Shop");
    assert_ne!(own.root, shared_shop.root, "a writing test's copy is its own");
    let server = Server::start(&own.root, &[]).await;
    assert_ne!(server.log, shared::log(), "and so is its service");
    const CALCULATOR: &str = "src/Shop.Core/Services/PriceCalculator.cs";
    let before = shared_shop.read(CALCULATOR);

    // A write in the own copy: the shared copy, and what the shared daemon answers of it, stay as they were.
    let file = own.file(CALCULATOR);
    let (line, column) = own.position_of(CALCULATOR, "Round(decimal", 0);
    let renamed = server
        .ok("rename_symbol", json!({"filePath": file, "line": line, "column": column, "newName": "RoundToCents"}))
        .await;
    assert_eq!(renamed["success"], json!(true), "{renamed}");
    assert!(own.read(CALCULATOR).contains("RoundToCents(decimal value)"));
    assert_eq!(shared_shop.read(CALCULATOR), before, "the shared copy changed");
    let shared_file = shared_shop.file(CALCULATOR);
    let found = reader.ok("get_document_symbols", json!({"filePath": shared_file})).await.to_string();
    assert!(found.contains("Round") && !found.contains("RoundToCents"), "{found}");
    server.stop().await;
}
