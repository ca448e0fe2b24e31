//! safe_delete on the Signature fixture (its FIXTURE.md gives every position): an unreferenced member and a
//! file its project lists are deleted, the solution builds and find_references finds what is left, and undo
//! restores every byte; what is referenced, or may be used without a reference, is refused and nothing changes.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, reference_lines, tree};
use serde_json::json;

const LEFTOVERS: &str = "Lib/Leftovers.cs";

#[tokio::test(flavor = "multi_thread")]
async fn a_member_and_a_listed_file_are_deleted_and_undone_while_used_and_public_code_is_refused() {
    let fixture = Fixture::copy("Signature");
    let server = Server::start(&fixture.root, &[]).await;
    let leftovers = fixture.file(LEFTOVERS);
    let before = tree(&fixture.root);

    let error =
        server.fails("safe_delete", json!({"filePath": leftovers, "line": 9, "column": 25}), "STILL_REFERENCED").await;
    assert_eq!(error["details"]["references"][0]["line"], json!(21), "only net9.0 compiles the call: {error}");
    let error = server
        .fails(
            "safe_delete",
            json!({"filePath": fixture.file("Lib/Shipping.cs"), "line": 18, "column": 20}),
            "MAY_BE_USED_ELSEWHERE",
        )
        .await;
    assert!(error["message"].as_str().unwrap_or_default().contains("public API"), "{error}");
    assert_same_tree(&before, &fixture.root, "refusals write nothing");

    let tick_before = reference_lines(&server, &leftovers, 18, 24).await;
    let member = server.ok("safe_delete", json!({"filePath": leftovers, "line": 7, "column": 25})).await;
    assert_eq!(member["deleted"][0]["fullyQualifiedName"], json!("Signature.Lib.Leftovers.Unused(int)"), "{member}");
    let file = server.ok("safe_delete", json!({"filePath": fixture.file("Legacy/Old.cs")})).await;
    assert_eq!(file["filesDeleted"], json!(1), "{file}");
    assert!(!fixture.path("Legacy/Old.cs").exists());
    let project = std::fs::read_to_string(fixture.path("Legacy/Legacy.csproj")).expect("read");
    assert!(!project.contains("Old.cs") && project.contains("Current.cs"), "{project}");
    // Unused's two lines are gone above Tick.
    let shifted: Vec<_> = tick_before.iter().map(|(f, l)| (f.clone(), l - 2)).collect();
    assert_eq!(reference_lines(&server, &leftovers, 16, 24).await, shifted);
    assert_eq!(dotnet_build_errors(&fixture.path("Signature.slnx")).await, 0);

    server.ok("undo", json!({"operationId": file["operationId"]})).await;
    server.ok("undo", json!({"operationId": member["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}
