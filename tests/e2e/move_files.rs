//! move_files on the Layout fixture: a folder moves inside its project with its namespace (consumers follow,
//! the emptied folder goes), a file moves to another project with the project references it and its users need,
//! a file moves into a project that lists its files; the result builds, find_references finds the same places,
//! and undo restores every byte and folder. A cycle, a library the destination lacks, a foreign or symlinked
//! destination, and a malformed request are refused and nothing changes.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, reference_lines, tree};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn folders_and_files_move_with_namespaces_and_references_then_build_and_undo_restores_every_byte() {
    let fixture = Fixture::copy("Layout");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let outside = tempfile::tempdir().expect("temp dir");
    std::os::unix::fs::symlink(outside.path(), fixture.path("Core/Out")).expect("symlink");

    let parsing = fixture.file("Core/Parsing");
    let cycle = json!({"folder": parsing, "destination": fixture.file("Extra/Parsing")});
    server.fails("move_files", cycle, "CIRCULAR_REFERENCE").await;
    let meter = fixture.file("Core/Units/Meter.cs");
    let nowhere = json!({"files": [meter], "destination": fixture.file("Elsewhere")});
    server.fails("move_files", nowhere, "INVALID_TARGET_PATH").await;
    let linked = json!({"files": [meter], "destination": fixture.file("Core/Out/Units")});
    server.fails("move_files", linked, "SOURCE_NOT_IN_WORKSPACE").await;
    let library = json!({"files": [fixture.file("Tools/Web/Health.cs")], "destination": fixture.file("Extra/Web")});
    server.fails("move_files", library, "REFERENCE_MISSING").await;
    let both = json!({"files": [meter], "folder": parsing, "destination": fixture.file("Core/Syntax")});
    server.fails("move_files", both, "INVALID_PARAMETER").await;
    std::fs::remove_file(fixture.path("Core/Out")).expect("remove the link");
    assert_same_tree(&before, &fixture.root, "refusals write nothing");
    assert!(std::fs::read_dir(outside.path()).expect("read").next().is_none(), "nothing lands through the link");

    let lexer_before = reference_lines(&server, &fixture.file("Core/Parsing/Lexer.cs"), 5, 21).await;
    let folder = server.ok("move_files", json!({"folder": parsing, "destination": fixture.file("Core/Syntax")})).await;
    assert_eq!(folder["namespaces"].as_array().expect("namespaces").len(), 2, "{folder}");
    assert_eq!(folder["namespaces"][0]["newNamespace"], json!("Layout.Core.Syntax"), "{folder}");
    assert!(!fixture.path("Core/Parsing").exists(), "the folder the move empties is removed");
    let lexer = fixture.file("Core/Syntax/Lexer.cs");
    let moved = |places: Vec<(String, u64)>| -> Vec<(String, u64)> {
        let mut places: Vec<_> = places.into_iter().map(|(f, l)| (f.replace("/Parsing/", "/Syntax/"), l)).collect();
        places.sort();
        places
    };
    assert_eq!(reference_lines(&server, &lexer, 5, 21).await, moved(lexer_before), "the same places");

    let across = server.ok("move_files", json!({"files": [meter], "destination": fixture.file("Extra/Units")})).await;
    let extra = fixture.file("Extra/Extra.csproj");
    assert_eq!(
        across["projectReferences"],
        json!([
            {"project": fixture.file("Core/Core.csproj"), "references": extra},
            {"project": fixture.file("Tools/Tools.csproj"), "references": extra},
        ])
    );
    assert!(!fixture.path("Core/Units").exists());
    let new_meter = fixture.file("Extra/Units/Meter.cs");
    let users: Vec<_> = reference_lines(&server, &new_meter, 3, 31).await.into_iter().map(|(f, _)| f).collect();
    for user in ["Core/Limits.cs", "Tools/Cli.cs"] {
        assert!(users.contains(&fixture.file(user)), "{user} in {users:?}");
    }

    let listed = json!({"files": [fixture.file("Extra/Note.cs")], "destination": fixture.file("Listed/Notes"), "keepNamespaces": true});
    let note = server.ok("move_files", listed).await;
    assert_eq!(note["namespaces"], json!([]));
    let project = std::fs::read_to_string(fixture.path("Listed/Listed.csproj")).expect("read");
    assert!(project.contains("<Compile Include=\"Notes\\Note.cs\" />"), "{project}");
    assert_eq!(dotnet_build_errors(&fixture.path("Layout.slnx")).await, 0);

    for operation in [&note, &across, &folder] {
        server.ok("undo", json!({"operationId": operation["operationId"]})).await;
    }
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    assert!(fixture.path("Core/Parsing").is_dir() && fixture.path("Core/Units").is_dir());
    for created in ["Core/Syntax", "Extra/Units", "Listed/Notes"] {
        assert!(!fixture.path(created).exists(), "undo removes {created}");
    }
    server.stop().await;
}

/// A polyfill's extension class moved to a sibling folder: a caller in the old namespace needed no using and
/// never names the type (`note.ReplaceLineEndings("\n")`, the extension in netstandard2.0 alone), and gets the
/// new namespace's using. One that fills in the framework's `System` keeps its namespace, so its callers keep
/// finding it.
#[tokio::test(flavor = "multi_thread")]
async fn an_extension_class_moved_gives_its_callers_in_the_old_namespace_the_new_using() {
    let fixture = Fixture::copy("Polyfill");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let files = json!([fixture.file("Text/TextExtensions.cs"), fixture.file("Text/Chars.cs")]);
    let moved = server.ok("move_files", json!({"files": files, "destination": fixture.file("Compat")})).await;
    let notes = fixture.read("Text/Notes.cs");
    assert!(notes.starts_with("using Polyfill.Compat;"), "{moved}\n{notes}");
    let lines = fixture.read("Text/Parsing/Lines.cs");
    assert!(lines.starts_with("using Polyfill.Compat;"), "{moved}\n{lines}");
    assert!(fixture.read("Compat/TextExtensions.cs").contains("namespace Polyfill.Compat;"));
    assert!(fixture.read("Compat/Chars.cs").contains("namespace System;"), "{moved}");
    let warned = moved["warnings"].as_array().into_iter().flatten().filter_map(|w| w.as_str());
    assert!(warned.into_iter().any(|w| w.contains("Chars.cs") && w.contains("referenced assembly")), "{moved}");
    assert_eq!(dotnet_build_errors(&fixture.path("Polyfill.csproj")).await, 0);
    server.ok("undo", json!({"operationId": moved["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}
