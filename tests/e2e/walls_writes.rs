//! The walls of a write: a move never writes a file whose folder resolves outside the workspace roots,
//! however the host named it, and a rolled-back move gives files back their modes.

use crate::support::hold::Hold;
use crate::support::{Fixture, Server, assert_same_tree, eventually, kill9, tree};
use serde_json::json;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::time::Duration;

const SHAPES: &str = "src/Moves.Core/Models/Shapes.cs";
const PROGRAM: &str = "src/Moves.App/Program.cs";
const GALLERY: &str = "src/Moves.App/Gallery.cs";

/// Moves Square to a new namespace: its consumers in Moves.App are rewritten.
fn square_move(moves: &Fixture) -> serde_json::Value {
    json!({"sourceFile": moves.file(SHAPES), "symbolName": "Square", "targetNamespace": "Moves.Core.Quads"})
}

/// A folder outside every root (beside no fixture), canonical.
fn outside() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix("roslyn-mcp-outside-").tempdir().expect("outside dir");
    let path = std::fs::canonicalize(dir.path()).expect("canonical");
    (dir, path)
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).expect("metadata").permissions().mode() & 0o7777
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_consumer_under_a_linked_folder_pointing_outside_is_never_rewritten() {
    let moves = Fixture::copy("Moves");
    let (_keep, elsewhere) = outside();
    let consumer = elsewhere.join("Ext/OutsideConsumer.cs");
    std::fs::create_dir_all(consumer.parent().expect("Ext")).expect("Ext");
    std::fs::write(
        &consumer,
        "using Moves.Core.Models;\n\nnamespace Moves.App;\n\npublic static class OutsideConsumer\n{\n    \
         public static Square Make() => new Square(5);\n}\n",
    )
    .expect("consumer");
    // The project globs its .cs files through the link, so the host sees the consumer inside the project.
    symlink(elsewhere.join("Ext"), moves.path("src/Moves.App/Ext")).expect("link");
    let server = Server::start(&moves.root, &[]).await;
    let (outside_before, inside_before) = (tree(&elsewhere), tree(&moves.root));

    let error = server.fails("move_type_to_namespace", square_move(&moves), "SOURCE_NOT_IN_WORKSPACE").await;
    assert_eq!(error["details"]["file"], json!(moves.file("src/Moves.App/Ext/OutsideConsumer.cs")), "{error}");
    assert_eq!(error["details"]["resolvesTo"], json!(consumer.display().to_string()));
    assert!(error["message"].as_str().expect("message").contains(&consumer.display().to_string()), "{error}");
    assert_same_tree(&outside_before, &elsewhere, "outside the roots");
    assert_same_tree(&inside_before, &moves.root, "inside: the whole move is refused");
    // A preview would read the outside file into its diff: refused as well.
    let mut preview = square_move(&moves);
    preview["preview"] = json!(true);
    server.fails("move_type_to_namespace", preview, "SOURCE_NOT_IN_WORKSPACE").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_project_folder_swapped_for_a_link_after_the_preview_is_not_written() {
    let moves = Fixture::copy("Moves");
    let (_keep, elsewhere) = outside();
    // The host keeps its view of the folder it loaded: the swap reaches it only long after the apply.
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_DEBOUNCE_MS", "120000")]).await;
    let mut preview = square_move(&moves);
    preview["preview"] = json!(true);
    let previewed = server.ok("move_type_to_namespace", preview).await;
    let files: Vec<_> =
        previewed["pendingChanges"].as_array().expect("changes").iter().map(|c| c["file"].clone()).collect();
    assert!(files.contains(&json!(moves.file(PROGRAM))), "{files:?}");

    let app = moves.path("src/Moves.App");
    let copy = elsewhere.join("Moves.App");
    let copied = std::process::Command::new("cp").arg("-a").arg(&app).arg(&copy).status().expect("cp");
    assert!(copied.success());
    std::fs::remove_dir_all(&app).expect("remove the project folder");
    symlink(&copy, &app).expect("link in its place");
    let (outside_before, inside_before) = (tree(&elsewhere), tree(&moves.root));

    let error = server.fails("move_type_to_namespace", square_move(&moves), "SOURCE_NOT_IN_WORKSPACE").await;
    let file = error["details"]["file"].as_str().expect("file");
    let resolved = error["details"]["resolvesTo"].as_str().expect("resolvesTo");
    assert!(file.starts_with(&app.display().to_string()), "{error}");
    assert!(resolved.starts_with(&copy.display().to_string()), "{error}");
    assert_same_tree(&outside_before, &elsewhere, "the outside copy");
    assert_same_tree(&inside_before, &moves.root, "inside");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rolled_back_move_gives_files_their_modes_back_and_its_journal_is_private() {
    let moves = Fixture::copy("Moves");
    let state = tempfile::Builder::new().prefix("roslyn-mcp-state-").tempdir().expect("state dir");
    let state_dir = state.path().display().to_string();
    let hold = Hold::default();
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_STATE_DIR", &state_dir), hold.env()]).await;
    let (program, gallery) = (moves.path(PROGRAM), moves.path(GALLERY));
    chmod(&program, 0o600);
    chmod(&gallery, 0o640);
    let before = tree(&moves.root);
    let journal = state.path().join("journal");

    let write = server.call("move_type_to_namespace", square_move(&moves));
    let inspect_then_kill = async {
        // The files are replaced and the write waits to update the host: its journal is held open.
        let replaced =
            eventually(Duration::from_secs(60), || async { (tree(&moves.root) != before).then_some(()) }).await;
        assert!(replaced.is_some(), "the write never replaced the files");
        assert_eq!((mode(&program), mode(&gallery)), (0o600, 0o640), "a replaced file keeps its mode");
        assert_eq!(mode(&journal), 0o700);
        let operations: Vec<_> = std::fs::read_dir(&journal).expect("journal").flatten().map(|e| e.path()).collect();
        assert_eq!(operations.len(), 1, "{operations:?}");
        assert_eq!(mode(&operations[0]), 0o700);
        let copies: Vec<_> =
            std::fs::read_dir(&operations[0]).expect("operation").flatten().map(|e| e.path()).collect();
        assert!(copies.iter().any(|c| c.extension().is_some_and(|e| e == "orig")), "{copies:?}");
        for copy in &copies {
            assert_eq!(mode(copy), 0o600, "{} is readable by others", copy.display());
        }
        let status = server.workspace_status(&moves.path("Moves.sln")).await.expect("loaded");
        kill9(status["hostPid"].as_u64().expect("host pid") as u32);
        hold.release();
    };
    let (outcome, ()) = tokio::join!(write, inspect_then_kill);
    assert!(outcome.is_error, "{:?}", outcome.value);
    assert_eq!(outcome.value["error"]["details"]["rolledBack"], json!(true), "{:?}", outcome.value);
    assert_same_tree(&before, &moves.root, "after the rollback");
    assert_eq!((mode(&program), mode(&gallery)), (0o600, 0o640), "restored files keep their modes");
    server.stop().await;
}
