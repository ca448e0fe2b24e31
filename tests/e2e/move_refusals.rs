//! Every refusal of the move tools carries its catalog code, details and suggestions, and leaves every file
//! byte-identical.

use crate::support::{Fixture, Server, assert_same_tree, tree};
use serde_json::{Value, json};

const SHAPES: &str = "src/Moves.Core/Models/Shapes.cs";

#[tokio::test(flavor = "multi_thread")]
async fn every_refusal_has_its_code_and_changes_no_byte() {
    let moves = Fixture::copy("Moves");
    // A C# file inside the solution folder that no project compiles.
    std::fs::write(moves.path("Stray.cs"), "public class Stray { }\n").expect("stray file");
    let outside = tempfile::Builder::new().prefix("roslyn-mcp-outside-").tempdir().expect("temp dir");
    std::fs::write(outside.path().join("Elsewhere.cs"), "public class Elsewhere { }\n").expect("outside file");
    // Every refusal is the host's answer, not the write deadline's, however busy the machine is.
    let server = Server::start_with_env(&moves.root, &[("ROSLYN_MCP_WRITE_TIMEOUT_SECS", "120")]).await;
    let before = tree(&moves.root);
    let shapes = moves.file(SHAPES);
    let to_file = |symbol: &str, source: &str, target: &str| json!({"sourceFile": moves.file(source), "symbolName": symbol, "targetFile": moves.file(target)});
    let to_namespace = |symbol: &str, source: &str, namespace: &str| json!({"sourceFile": moves.file(source), "symbolName": symbol, "targetNamespace": namespace});

    let cases: Vec<(&str, Value, &str)> = vec![
        // Malformed input.
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Bad-Name", "targetFile": moves.file("X.cs")}),
            "INVALID_SYMBOL_NAME",
        ),
        ("move_type_to_namespace", to_namespace("Square", SHAPES, "Moves..Core"), "INVALID_NAMESPACE"),
        (
            "move_type_to_file",
            json!({"sourceFile": moves.file("Moves.sln"), "symbolName": "Square", "targetFile": moves.file("X.cs")}),
            "INVALID_SOURCE_PATH",
        ),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": moves.file("Square.txt")}),
            "INVALID_TARGET_PATH",
        ),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": "src/../../x.cs"}),
            "INVALID_TARGET_PATH",
        ),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "line": 0, "targetFile": moves.file("X.cs")}),
            "INVALID_LINE_NUMBER",
        ),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "line": 9999, "targetFile": moves.file("X.cs")}),
            "INVALID_LINE_NUMBER",
        ),
        ("move_type_to_file", json!({"sourceFile": shapes, "symbolName": "Square"}), "MISSING_REQUIRED_PARAM"),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": moves.file("X.cs"), "force": true}),
            "INVALID_PARAMETER",
        ),
        // Files.
        ("move_type_to_file", to_file("Square", "src/Moves.Core/Models/Nope.cs", "X.cs"), "SOURCE_FILE_NOT_FOUND"),
        ("move_type_to_file", to_file("Stray", "Stray.cs", "src/Moves.Core/Stray.cs"), "SOURCE_NOT_IN_WORKSPACE"),
        (
            "move_type_to_file",
            json!({"sourceFile": outside.path().join("Elsewhere.cs"), "symbolName": "Elsewhere", "targetFile": moves.file("E.cs"), "solutionPath": moves.file("Moves.sln")}),
            "SOURCE_NOT_IN_WORKSPACE",
        ),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": outside.path().join("Square.cs")}),
            "INVALID_TARGET_PATH",
        ),
        (
            "move_type_to_file",
            json!({"sourceFile": shapes, "symbolName": "Square", "targetFile": moves.file("src/Moves.Core/Models/Square.cs"), "createTargetFile": false}),
            "INVALID_TARGET_PATH",
        ),
        // Symbols.
        (
            "move_type_to_file",
            to_file("Formatter", "src/Moves.Core/Services/Formatters.cs", "src/Moves.Core/Services/F.cs"),
            "SYMBOL_AMBIGUOUS",
        ),
        (
            "move_type_to_file",
            to_file("Sum", "src/Moves.Core/Services/AreaCalculator.cs", "src/Moves.Core/Sum.cs"),
            "SYMBOL_NOT_MOVEABLE",
        ),
        (
            "move_type_to_file",
            to_file("_precision", "src/Moves.Core/Services/AreaCalculator.cs", "src/Moves.Core/P.cs"),
            "SYMBOL_NOT_MOVEABLE",
        ),
        (
            "move_type_to_namespace",
            to_namespace("Widget", "src/Moves.Core/Models/Widget.cs", "Moves.Core.Parts"),
            "SYMBOL_NOT_MOVEABLE",
        ),
        (
            "move_type_to_file",
            to_file("Options", "src/Moves.Core/Services/AreaCalculator.cs", "src/Moves.Core/Options.cs"),
            "SYMBOL_IS_NESTED",
        ),
        // Semantics.
        ("move_type_to_namespace", to_namespace("Circle", SHAPES, "Moves.Legacy.Drawing"), "NAME_COLLISION"),
        ("move_type_to_file", to_file("Circle", SHAPES, SHAPES), "SAME_LOCATION"),
        ("move_type_to_namespace", to_namespace("Circle", SHAPES, "Moves.Core.Models"), "SAME_NAMESPACE"),
        (
            "move_type_to_file",
            to_file("KeyHolder", "src/Moves.Core/Services/Secrets.cs", "src/Moves.Core/Services/KeyHolder.cs"),
            "BREAKS_ACCESSIBILITY",
        ),
        (
            "move_type_to_file",
            to_file("Style", "src/Moves.Legacy/Text/Label.cs", "src/Moves.Core/Style.cs"),
            "BREAKS_ACCESSIBILITY",
        ),
        ("move_type_to_file", to_file("Circle", SHAPES, "src/Moves.Legacy/Circle.cs"), "CIRCULAR_REFERENCE"),
        ("move_type_to_file", to_file("Circle", SHAPES, "src/Moves.Tools/Circle.cs"), "COMPILATION_ERROR"),
    ];
    for (tool, arguments, code) in cases {
        let error = server.fails(tool, arguments.clone(), code).await;
        assert!(!error["message"].as_str().unwrap_or_default().is_empty(), "{code}: a message");
        assert_same_tree(&before, &moves.root, &format!("after {code} for {arguments}"));
    }

    // The examples of seed 000 §2.3, in substance.
    let misspelled = server.fails("move_type_to_file", to_file("Sqaure", SHAPES, "src/X.cs"), "SYMBOL_NOT_FOUND").await;
    assert_eq!(misspelled["details"]["nearbySymbols"][0], json!("Square"), "{misspelled}");
    assert!(misspelled["suggestions"].as_array().expect("suggestions").contains(&json!("Did you mean Square?")));
    let method = server
        .fails(
            "move_type_to_file",
            to_file("Sum", "src/Moves.Core/Services/AreaCalculator.cs", "src/S.cs"),
            "SYMBOL_NOT_MOVEABLE",
        )
        .await;
    assert_eq!(method["details"]["symbolKind"], json!("Method"));
    assert_eq!(method["details"]["containingType"], json!("Moves.Core.Services.AreaCalculator"), "{method}");
    assert!(
        method["suggestions"]
            .as_array()
            .expect("suggestions")
            .contains(&json!("Move the containing type AreaCalculator instead"))
    );
    let collision = server
        .fails("move_type_to_namespace", to_namespace("Circle", SHAPES, "Moves.Legacy.Drawing"), "NAME_COLLISION")
        .await;
    assert_eq!(collision["details"]["targetNamespace"], json!("Moves.Legacy.Drawing"));
    let broken = server
        .fails("move_type_to_file", to_file("Circle", SHAPES, "src/Moves.Tools/Circle.cs"), "COMPILATION_ERROR")
        .await;
    assert!(broken["details"]["errors"].as_array().is_some_and(|e| !e.is_empty()), "names the new errors: {broken}");
    let ambiguous = server
        .fails(
            "move_type_to_file",
            to_file("Formatter", "src/Moves.Core/Services/Formatters.cs", "src/F.cs"),
            "SYMBOL_AMBIGUOUS",
        )
        .await;
    assert_eq!(ambiguous["details"]["candidates"].as_array().map(Vec::len), Some(2), "{ambiguous}");
    // With the line, the same name is no longer ambiguous.
    let chosen = json!({"sourceFile": moves.file("src/Moves.Core/Services/Formatters.cs"), "symbolName": "Formatter", "line": 10,
        "targetFile": moves.file("src/Moves.Core/Services/FormatterV2.cs"), "preview": true});
    let preview = server.ok("move_type_to_file", chosen).await;
    assert_eq!(preview["symbol"]["fullyQualifiedName"], json!("Moves.Core.Services.V2.Formatter"));
    assert_same_tree(&before, &moves.root, "after the refusals and a preview");
    server.stop().await;
}
