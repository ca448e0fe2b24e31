//! move_type_to_file and move_type_to_namespace on the Moves fixture (tests/fixtures/Moves/FIXTURE.md):
//! every successful move leaves a solution that compiles, by the host and by `dotnet build`, with the moved
//! type's uses intact.

use crate::support::hold::Hold;
use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, tree};
use serde_json::{Value, json};

const SHAPES: &str = "src/Moves.Core/Models/Shapes.cs";
const PROGRAM: &str = "src/Moves.App/Program.cs";
const GALLERY: &str = "src/Moves.App/Gallery.cs";

/// Uses of the type declared at a position, as (file, line text, kind): independent of line shifts.
async fn uses(server: &Server, file: &str, line: u64, column: u64) -> Vec<(String, String, String)> {
    let found = server.ok("find_references", json!({"filePath": file, "line": line, "column": column})).await;
    let mut uses: Vec<_> = found["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| {
            let text = |k: &str| r[k].as_str().expect(k).to_owned();
            (text("filePath"), text("lineText"), text("kind"))
        })
        .collect();
    uses.sort();
    uses
}

/// Errors the host reports for the whole solution.
async fn host_errors(server: &Server, fixture: &Fixture) -> Value {
    let all = server
        .ok("get_compilation_diagnostics", json!({"solutionPath": fixture.file("Moves.sln"), "minSeverity": "error"}))
        .await;
    crate::support::diagnostics(&all)
}

fn sha256(bytes: &[u8]) -> String {
    workspace_actor::checksum::sha256_hex(bytes)
}

/// Every checksum the result reports is the file's text on disk.
fn assert_checksums(result: &Value) {
    for (path, expected) in result["checksums"].as_object().expect("checksums") {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(json!(sha256(&bytes)), *expected, "checksum of {path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn moving_types_to_files_keeps_usings_exact_and_the_solution_compiling() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    let shapes = moves.file(SHAPES);
    let square_uses = uses(&server, &shapes, 25, 21).await;
    assert_eq!(square_uses.len(), 3, "{square_uses:?}");

    // Square goes to a new file: it takes the one using it needs, Shapes.cs drops it.
    let target = moves.file("src/Moves.Core/Models/Square.cs");
    let moved = server
        .ok("move_type_to_file", json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": target}))
        .await;
    assert_eq!(moved["success"], json!(true));
    assert_eq!(moved["changes"]["filesModified"], json!([shapes]));
    assert_eq!(moved["changes"]["filesCreated"], json!([target]));
    assert_eq!(moved["changes"]["filesDeleted"], json!([]));
    assert_eq!(moved["symbol"]["fullyQualifiedName"], json!("Moves.Core.Models.Square"));
    assert_eq!(moved["symbol"]["previousLocation"], json!({"file": shapes, "line": 25, "column": 21}));
    assert_eq!(moved["symbol"]["newLocation"]["file"], json!(target));
    assert_eq!(moved["referencesUpdated"], json!(0), "same namespace: no reference needs an edit");
    assert_checksums(&moved);
    let square = moves.read("src/Moves.Core/Models/Square.cs");
    assert!(square.contains("using System.Collections.Generic;"), "{square}");
    assert!(!square.contains("using System;"), "Square needs nothing from System:\n{square}");
    assert!(square.contains("namespace Moves.Core.Models;"), "same (file-scoped) style as the source:\n{square}");
    let shapes_text = moves.read(SHAPES);
    assert!(shapes_text.contains("using System;") && !shapes_text.contains("System.Collections.Generic"));
    assert!(!shapes_text.contains("class Square"));
    let line = moved["symbol"]["newLocation"]["line"].as_u64().expect("line");
    let column = moved["symbol"]["newLocation"]["column"].as_u64().expect("column");
    assert_eq!(uses(&server, &target, line, column).await, square_uses, "the same uses after the move");

    // Circle moves with its doc comment and attribute into an existing file.
    let moved = server
        .ok("move_type_to_file", json!({"sourceFile": shapes, "symbolName": "Circle", "targetFile": target}))
        .await;
    assert_eq!(moved["changes"]["filesModified"], json!([shapes, target]));
    let square = moves.read("src/Moves.Core/Models/Square.cs");
    assert!(square.contains("/// <summary>A circle of a given radius.</summary>"), "{square}");
    assert!(square.contains("[Serializable]") && square.contains("using System;"), "{square}");

    // The only type of a file: the file goes.
    let color = moves.file("src/Moves.Core/Models/Color.cs");
    let palette = moves.file("src/Moves.Core/Palette/Color.cs");
    let moved = server
        .ok(
            "move_type_to_file",
            json!({"sourceFile": color, "symbolName": "Moves.Core.Models.Color", "targetFile": palette}),
        )
        .await;
    assert_eq!(moved["changes"]["filesDeleted"], json!([color]));
    assert_eq!(moved["changes"]["filesCreated"], json!([palette]));
    assert!(!moves.path("src/Moves.Core/Models/Color.cs").exists());

    // Block-scoped source into a file-scoped target.
    let sketch = moves.file("src/Moves.Legacy/Drawing/Sketch.cs");
    let canvas = moves.file("src/Moves.Legacy/Drawing/Canvas.cs");
    server.ok("move_type_to_file", json!({"sourceFile": sketch, "symbolName": "Sketch", "targetFile": canvas})).await;
    assert!(moves.read("src/Moves.Legacy/Drawing/Canvas.cs").contains("public class Sketch"));

    // A second identical call: the type is already there.
    server
        .fails(
            "move_type_to_file",
            json!({"sourceFile": canvas, "symbolName": "Sketch", "targetFile": canvas}),
            "SAME_LOCATION",
        )
        .await;
    assert_eq!(host_errors(&server, &moves).await, json!([]));
    server.stop().await;
    assert_eq!(dotnet_build_errors(&moves.path("Moves.sln")).await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn moving_types_to_namespaces_updates_every_consumer_with_the_least_change() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    let color = moves.file("src/Moves.Core/Models/Color.cs");
    let color_uses = uses(&server, &color, 3, 13).await;

    // In place: the file's namespace is renamed and Program.cs, which still uses Circle, gains a using.
    let moved = server
        .ok(
            "move_type_to_namespace",
            json!({"sourceFile": color, "symbolName": "Color", "targetNamespace": "Moves.Core.Palette"}),
        )
        .await;
    assert_eq!(moved["symbol"]["previousNamespace"], json!("Moves.Core.Models"));
    assert_eq!(moved["symbol"]["newNamespace"], json!("Moves.Core.Palette"));
    assert_eq!(moved["symbol"]["fullyQualifiedName"], json!("Moves.Core.Palette.Color"));
    assert_eq!(moved["usingDirectivesAdded"], json!(1));
    assert_eq!(moved["referencesUpdated"], json!(color_uses.len()));
    assert_eq!(moved["changes"]["filesModified"], json!([moves.file(PROGRAM), color]));
    assert_checksums(&moved);
    let program = moves.read(PROGRAM);
    assert!(program.contains("using Moves.Core.Palette;") && program.contains("using Moves.Core.Models;"), "{program}");
    assert!(moves.read("src/Moves.Core/Models/Color.cs").contains("namespace Moves.Core.Palette;"));
    assert_eq!(uses(&server, &color, 3, 13).await, color_uses, "the same uses after the move");

    // The same move again.
    server
        .fails(
            "move_type_to_namespace",
            json!({"sourceFile": color, "symbolName": "Color", "targetNamespace": "Moves.Core.Palette"}),
            "SAME_NAMESPACE",
        )
        .await;

    // Extension methods: their callers never name the type, yet need the new namespace.
    let extensions = moves.file("src/Moves.Core/Extensions/ShapeExtensions.cs");
    server
        .ok("move_type_to_namespace", json!({"sourceFile": extensions, "symbolName": "ShapeExtensions", "targetNamespace": "Moves.Core.Describing"}))
        .await;
    let program = moves.read(PROGRAM);
    assert!(program.contains("using Moves.Core.Describing;"), "{program}");
    assert!(!program.contains("using Moves.Core.Extensions;"), "the old using is no longer needed:\n{program}");

    // Qualified names are rewritten in place.
    let label = moves.file("src/Moves.Legacy/Text/Label.cs");
    server
        .ok(
            "move_type_to_namespace",
            json!({"sourceFile": label, "symbolName": "Label", "targetNamespace": "Moves.Legacy.Labels"}),
        )
        .await;
    let program = moves.read(PROGRAM);
    assert!(program.contains("Moves.Legacy.Labels.Label") && !program.contains("Moves.Legacy.Text.Label"), "{program}");

    // A using would make Circle ambiguous in Gallery.cs (Moves.Legacy.Drawing has one): qualify instead.
    let shapes = moves.file(SHAPES);
    let moved = server
        .ok(
            "move_type_to_namespace",
            json!({"sourceFile": shapes, "symbolName": "Square", "targetNamespace": "Moves.Legacy.Drawing"}),
        )
        .await;
    assert!(moved["changes"]["filesCreated"].as_array().is_some_and(|c| c.len() == 1), "extracted: {moved}");
    let gallery = moves.read(GALLERY);
    assert!(gallery.contains("Moves.Legacy.Drawing.Square"), "{gallery}");
    assert!(!gallery.contains("using Moves.Legacy.Drawing;"), "{gallery}");

    // The file follows the namespace.
    let calculator = moves.file("src/Moves.Core/Services/AreaCalculator.cs");
    let moved = server
        .ok("move_type_to_namespace", json!({"sourceFile": calculator, "symbolName": "AreaCalculator", "targetNamespace": "Moves.Core.Calculations", "updateFileLocation": true}))
        .await;
    let relocated = moves.file("src/Moves.Core/Calculations/AreaCalculator.cs");
    assert_eq!(moved["changes"]["filesDeleted"], json!([calculator]));
    assert_eq!(moved["changes"]["filesCreated"], json!([relocated]));
    assert!(moves.read("src/Moves.Core/Calculations/AreaCalculator.cs").contains("namespace Moves.Core.Calculations;"));

    // Back again: the emptied namespace no longer exists, so no file may keep importing it.
    let moved = server
        .ok(
            "move_type_to_namespace",
            json!({"sourceFile": color, "symbolName": "Color", "targetNamespace": "Moves.Core.Models"}),
        )
        .await;
    assert!(moved["usingDirectivesRemoved"].as_u64().is_some_and(|n| n >= 1), "{moved}");
    assert!(!moves.read(PROGRAM).contains("Moves.Core.Palette"));

    assert_eq!(host_errors(&server, &moves).await, json!([]));
    server.stop().await;
    assert_eq!(dotnet_build_errors(&moves.path("Moves.sln")).await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_preview_changes_nothing_and_the_apply_writes_exactly_what_it_showed() {
    let moves = Fixture::copy("Moves");
    let server = Server::start(&moves.root, &[]).await;
    let before = tree(&moves.root);
    let arguments =
        json!({"sourceFile": moves.file(SHAPES), "symbolName": "Circle", "targetNamespace": "Moves.Core.Round"});
    let mut preview_arguments = arguments.clone();
    preview_arguments["preview"] = json!(true);
    let preview = server.ok("move_type_to_namespace", preview_arguments).await;
    assert_eq!(preview["preview"], json!(true));
    assert_same_tree(&before, &moves.root, "after a preview");
    let status = server.workspace_status(&moves.path("Moves.sln")).await.expect("loaded");
    assert_eq!(status["writeLocked"], json!(false), "a preview holds no lock");

    let pending = preview["pendingChanges"].as_array().expect("pendingChanges").clone();
    assert!(pending.len() >= 3, "source, new file and consumers: {preview}");
    let applied = server.ok("move_type_to_namespace", arguments).await;
    assert_eq!(applied["referencesUpdated"], preview["referencesUpdated"]);
    for change in &pending {
        let file = change["file"].as_str().expect("file");
        match change["changeType"].as_str().expect("changeType") {
            "Delete" => assert!(!std::path::Path::new(file).exists(), "{file} deleted"),
            kind => {
                let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(json!(sha256(&bytes)), change["sha256"], "{kind} {file} as previewed");
                assert_eq!(applied["checksums"][file], change["sha256"]);
                if kind == "Create" {
                    assert_eq!(json!(String::from_utf8_lossy(&bytes)), change["content"]);
                } else {
                    let old = String::from_utf8_lossy(
                        &before[file.strip_prefix(&format!("{}/", moves.root.display())).expect("in fixture")],
                    )
                    .into_owned();
                    let diff = change["diff"].as_str().expect("diff");
                    assert!(diff.starts_with("--- a/src/"), "{diff}");
                    assert_ne!(old, String::from_utf8_lossy(&bytes), "{file} was modified");
                }
            }
        }
    }
    let touched: usize = ["filesModified", "filesCreated", "filesDeleted"]
        .iter()
        .map(|k| applied["changes"][k].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(touched, pending.len(), "the apply touched exactly the previewed files");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn of_two_moves_at_once_one_is_refused_busy_while_diagnose_keeps_answering() {
    let moves = Fixture::copy("Moves");
    // A write holds the workspace, its files replaced, until the hold is released.
    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[hold.env()]).await;
    let shapes = moves.file(SHAPES);
    server.ok("find_references", json!({"filePath": shapes, "line": 25, "column": 21})).await;
    // Neither waits in line: the second is refused at once.
    let first = json!({"sourceFile": shapes, "symbolName": "Circle", "targetFile": moves.file("src/Moves.Core/Models/Circle.cs"), "waitSeconds": 0});
    let second = json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": moves.file("src/Moves.Core/Models/Square.cs"), "waitSeconds": 0});
    let diagnose_while_held = async {
        let status = server.workspace_status(&moves.path("Moves.sln")).await.expect("loaded");
        assert_eq!(status["writeLocked"], json!(true), "diagnose answers while a write holds the lock: {status}");
    };
    let (a, b) = hold
        .one_refused(
            server.call("move_type_to_file", first),
            server.call("move_type_to_file", second),
            diagnose_while_held,
        )
        .await;
    let outcomes = [&a, &b];
    assert_eq!(outcomes.iter().filter(|o| !o.is_error).count(), 1, "exactly one succeeds: {a:?} {b:?}");
    let refused = outcomes.iter().find(|o| o.is_error).expect("one refused");
    assert_eq!(refused.value["error"]["code"], json!("WORKSPACE_BUSY"));
    assert_eq!(host_errors(&server, &moves).await, json!([]));
    server.stop().await;
}
