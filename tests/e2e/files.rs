//! rename_file and sync_namespaces on the Signature fixture: a file named after its type renames the type (and
//! find_references follows it), a file listed by its project renames the project's entry, a file out of its
//! folder's namespace moves to it with its consumers (a file linked in from elsewhere, or filling in a framework's namespace, is left as it is); the result
//! builds and undo restores every byte. A taken or foreign name is refused and nothing changes.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, reference_lines, tree};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn files_rename_their_type_or_project_entry_and_namespaces_follow_folders_and_undo_restores_every_byte() {
    let fixture = Fixture::copy("Signature");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let orphan = fixture.file("Lib/Orphan.cs");

    let taken = json!({"filePath": orphan, "newName": "Orders.cs"});
    server.fails("rename_file", taken, "INVALID_TARGET_PATH").await;
    let elsewhere = json!({"filePath": orphan, "newName": "../Orphan.cs"});
    server.fails("rename_file", elsewhere, "INVALID_TARGET_PATH").await;
    assert_same_tree(&before, &fixture.root, "refusals write nothing");

    let typed = server.ok("rename_file", json!({"filePath": orphan, "newName": "Lonely.cs"})).await;
    assert_eq!(typed["renamedType"]["newFullyQualifiedName"], json!("Signature.Lib.Lonely"), "{typed}");
    let lonely = fixture.file("Lib/Lonely.cs");
    assert!(!fixture.path("Lib/Orphan.cs").exists());
    assert_eq!(reference_lines(&server, &lonely, 4, 23).await, vec![(lonely.clone(), 4)]);
    let alone =
        server.ok("rename_file", json!({"filePath": fixture.file("Legacy/Old.cs"), "newName": "Older.cs"})).await;
    assert!(alone.get("renamedType").is_none(), "{alone}");
    let project = std::fs::read_to_string(fixture.path("Legacy/Legacy.csproj")).expect("read");
    assert!(project.contains("<Compile Include=\"Older.cs\" />"), "{project}");

    let item = fixture.file("Lib/Models/Item.cs");
    let item_before = reference_lines(&server, &item, 4, 21).await;
    let synced = server.ok("sync_namespaces", json!({"project": "Lib"})).await;
    assert_eq!(
        synced["namespaces"],
        json!([{"file": item, "namespace": "Signature.Lib", "newNamespace": "Signature.Lib.Models"}])
    );
    // A file linked in from outside the project's folder keeps the namespace every project compiling it shares.
    let warned = synced["warnings"].as_array().into_iter().flatten().filter_map(|w| w.as_str());
    assert!(warned.clone().any(|w| w.contains("linked") && w.contains("Clock.cs")), "{synced}");
    // A file filling in a framework's namespace keeps it.
    assert!(warned.into_iter().any(|w| w.contains("Compat.cs") && w.contains("referenced assembly")), "{synced}");
    let compat = std::fs::read_to_string(fixture.path("Lib/Compat.cs")).expect("read");
    assert!(compat.contains("namespace System.Collections.Generic;"), "{compat}");
    assert!(
        std::fs::read_to_string(fixture.path("Shared/Clock.cs")).expect("read").contains("namespace Signature.Shared;")
    );
    let catalog = std::fs::read_to_string(fixture.path("App/Catalog.cs")).expect("read");
    assert!(
        catalog.contains("using Signature.Lib.Models;") && catalog.contains("new Signature.Lib.Models.Item"),
        "{catalog}"
    );
    assert_eq!(reference_lines(&server, &item, 4, 21).await, item_before, "the same places");
    assert_eq!(dotnet_build_errors(&fixture.path("Signature.slnx")).await, 0);

    server.ok("undo", json!({"operationId": synced["operationId"]})).await;
    server.ok("undo", json!({"operationId": alone["operationId"]})).await;
    server.ok("undo", json!({"operationId": typed["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}
