//! organize_usings on the Usings fixture (tests/fixtures/Usings/FIXTURE.md): unnecessary usings removed in
//! every target framework's judgement, the rest sorted as `.editorconfig` says, for a file, a project and the
//! solution; global usings and usings another target needs are kept; the result builds and undo restores it.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, tree};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn one_file_then_one_project_lose_their_unnecessary_usings_and_are_sorted() {
    let fixture = Fixture::copy("Usings");
    let server = Server::start(&fixture.root, &[]).await;
    let unused = fixture.file("Tidy/Unused.cs");
    let organized = server.ok("organize_usings", json!({"filePath": unused})).await;
    assert_eq!(organized["usingsRemoved"], json!(3));
    assert_eq!(organized["changes"]["filesModified"], json!([unused]));
    assert!(fixture.read("Tidy/Unused.cs").starts_with("using System;\n\nnamespace Tidy;\n"));

    let untouched = ["Tidy/Organized.cs", "Tidy/Helpers/Helper.cs", "Tidy/GlobalUsings.cs"].map(|f| fixture.read(f));
    let organized = server.ok("organize_usings", json!({"project": "Tidy"})).await;
    assert_eq!(organized["usingsRemoved"], json!(3), "the three left: AllUnused.cs 2, Duplicate.cs 1");
    assert_eq!(organized["filesModified"], json!(3), "AllUnused.cs, Duplicate.cs and Unsorted.cs");
    assert!(fixture.read("Tidy/AllUnused.cs").starts_with("namespace Tidy;\n"));
    assert!(fixture.read("Tidy/Duplicate.cs").starts_with("using System;\nusing System.Text;\n\nnamespace Tidy;\n"));
    assert!(
        fixture
            .read("Tidy/Unsorted.cs")
            .starts_with("using System;\nusing System.Collections.Generic;\nusing Tidy.Helpers;\n\nnamespace Tidy;\n")
    );
    let now = ["Tidy/Organized.cs", "Tidy/Helpers/Helper.cs", "Tidy/GlobalUsings.cs"].map(|f| fixture.read(f));
    assert_eq!(now, untouched, "organized files and the global using are left alone");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_whole_solution_keeps_what_another_target_needs_builds_and_is_undone() {
    let fixture = Fixture::copy("Usings");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let preview = server.ok("organize_usings", json!({"preview": true})).await;
    assert_eq!(preview["documents"], json!(10));
    assert_eq!(preview["usingsRemoved"], json!(8));
    assert_eq!(preview["summary"]["filesModified"], json!(6));
    assert!(
        preview["warnings"]
            .as_array()
            .expect("warnings")
            .contains(&json!("Kept using System.Text in Conditional.cs: needed by Both(net9.0)")),
        "{preview}"
    );
    let applied = server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    assert!(fixture.read("Both/Conditional.cs").starts_with("using System;\nusing System.Text;\n\nnamespace Both;\n"));
    assert!(
        fixture
            .read("Both/Guarded.cs")
            .starts_with("using System;\n#if NET9_0\nusing System.Text;\n#endif\n\nnamespace Both;\n")
    );
    assert_eq!(dotnet_build_errors(&fixture.path("Usings.sln")).await, 0, "both target frameworks build");
    // Organized already: a second run changes nothing.
    let again = server.ok("organize_usings", json!({"preview": true})).await;
    assert_eq!(again["pendingChanges"], json!([]), "{again}");
    server.ok("undo", json!({"operationId": applied["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.fails("organize_usings", json!({"removeUnused": false, "sort": false}), "INVALID_PARAMETER").await;
    server.fails("organize_usings", json!({"project": "Nope"}), "PROJECT_NOT_FOUND").await;
    server.stop().await;
}
