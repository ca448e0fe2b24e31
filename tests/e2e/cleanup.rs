//! format_document, find_replace and remove_unused as users call them: on private copies of the Textual and
//! Unused fixtures (their FIXTURE.md), previewed, applied, built with `dotnet build`, and undone to the byte;
//! and cleanups that change nothing (on the Usings fixture), which write nothing and record no operation.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, tree};
use serde_json::{Value, json};

/// The Textual fixture without its FIXTURE.md, which names the methods too and is no part of the solution.
fn textual() -> Fixture {
    let fixture = Fixture::copy("Textual");
    std::fs::remove_file(fixture.path("FIXTURE.md")).expect("remove FIXTURE.md");
    fixture
}

async fn undo(server: &Server, applied: &Value) {
    server.ok("undo", json!({"operationId": applied["operationId"]})).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn formatting_then_a_regex_replacement_build_and_are_undone_to_the_byte() {
    let fixture = textual();
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let customers = "Textual/Customers/CustomerService.cs";

    // Lines 9-11 alone: the local is fixed, Count stays as it is.
    let lines = server
        .ok(
            "format_document",
            json!({"filePath": fixture.file(customers), "startLine": 9, "endLine": 11, "preview": true}),
        )
        .await;
    assert_eq!(lines["summary"]["filesModified"], json!(1), "{lines}");
    let diff = lines["pendingChanges"][0]["diff"].as_str().expect("a diff");
    assert!(diff.contains("+        var name = \"Customer \" + id;"), "{diff}");
    assert!(!diff.contains("+    public int Count()"), "only the lines asked for: {diff}");

    let formatted = server.ok("format_document", json!({"project": "Textual"})).await;
    assert_eq!(formatted["documentsFormatted"], json!(4));
    assert_eq!(formatted["filesChanged"], json!(2), "the two badly formatted files; the others are left alone");
    let text = fixture.read(customers);
    assert!(text.contains("    public int Count()\n    {\n        return 0;\n    }\n"), "{text}");
    assert!(fixture.read("Textual/Orders/OrderService.cs").contains("(decimal) id * 2"), ".editorconfig's own options");
    let again = server.ok("format_document", json!({"preview": true})).await;
    assert_eq!(again["pendingChanges"], json!([]), "formatted already: {again}");

    let preview = server
        .ok(
            "find_replace",
            json!({"pattern": r"Get(\w+)Async", "replacement": "Fetch$1Async", "regex": true,
                "includeOtherFiles": true, "preview": true}),
        )
        .await;
    assert_eq!(preview["matchCount"], json!(10), "{preview}");
    assert_eq!(preview["summary"]["filesModified"], json!(5));
    let readme = preview["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .find(|m| m["location"]["filePath"] == json!(fixture.file("README.md")))
        .expect("README.md is searched")
        .clone();
    assert_eq!(readme["text"], json!("GetOrderAsync"));
    assert_eq!(readme["replacement"], json!("FetchOrderAsync"));
    let replaced = server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    assert!(fixture.read("README.md").contains("`OrderService.FetchOrderAsync` returns an order"));
    assert!(fixture.read("notes.txt").starts_with('\u{feff}'), "the byte order mark stays");
    assert!(!fixture.read("Textual/Reports/ReportBuilder.cs").contains("GetOrderAsync"));
    assert_eq!(dotnet_build_errors(&fixture.path("Textual.sln")).await, 0, "formatted and renamed, it builds");

    undo(&server, &replaced).await;
    undo(&server, &formatted).await;
    assert_same_tree(&before, &fixture.root, "undoing both restores every byte");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn replacements_that_break_the_build_or_run_away_are_refused_and_nothing_changes() {
    let fixture = textual();
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let refused = server
        .fails(
            "find_replace",
            json!({"pattern": "Task<Order> GetOrderAsync(", "replacement": "Task<Order> LoadOrderAsync("}),
            "COMPILATION_ERROR",
        )
        .await;
    assert!(refused["message"].as_str().expect("message").contains("CS1061"), "{refused}");
    server
        .fails(
            "find_replace",
            json!({"pattern": r"Get(\w+Async", "replacement": "x", "regex": true}),
            "INVALID_PARAMETER",
        )
        .await;
    // Catastrophic backtracking on the 60 `=` divider line: the match timeout stops it.
    server
        .fails("find_replace", json!({"pattern": "(=+)+#", "replacement": "x", "regex": true}), "INVALID_PARAMETER")
        .await;
    server
        .fails(
            "find_replace",
            json!({"pattern": "x", "replacement": "y", "include": "{a,b}/*.cs"}),
            "INVALID_PARAMETER",
        )
        .await;
    server
        .fails("find_replace", json!({"pattern": "x", "replacement": "y", "project": "Nope"}), "PROJECT_NOT_FOUND")
        .await;
    server.fails("find_replace", json!({"pattern": "", "replacement": "y"}), "INVALID_PARAMETER").await;
    server.fails("format_document", json!({"startLine": 3, "endLine": 4}), "MISSING_REQUIRED_PARAM").await;
    let customers = fixture.file("Textual/Customers/CustomerService.cs");
    server
        .fails("format_document", json!({"filePath": customers, "startLine": 9, "endLine": 99}), "INVALID_LINE_NUMBER")
        .await;
    server
        .fails("format_document", json!({"filePath": customers, "startLine": 9, "endLine": 3}), "INVALID_LINE_NUMBER")
        .await;
    // A link in the solution's folder to a file elsewhere is never searched, so never written.
    let outside = tempfile::tempdir().expect("temp dir");
    let secret = outside.path().join("secret.md");
    std::fs::write(&secret, "GetOrderAsync\n").expect("write");
    std::os::unix::fs::symlink(&secret, fixture.path("linked.md")).expect("symlink");
    let linked = server
        .ok(
            "find_replace",
            json!({"pattern": "GetOrderAsync", "replacement": "x", "includeOtherFiles": true,
            "include": "*.md", "preview": true}),
        )
        .await;
    assert_eq!(linked["matchCount"], json!(1), "README.md only: {linked}");
    let skipped = format!("Skipped {}: a symbolic link", fixture.file("linked.md"));
    assert!(linked["warnings"].as_array().expect("warnings").contains(&json!(skipped)), "{linked}");
    std::fs::remove_file(fixture.path("linked.md")).expect("remove the link");
    let none = server.ok("find_replace", json!({"pattern": "NoSuchText", "replacement": "x", "preview": true})).await;
    assert_eq!(none["matchCount"], json!(0));
    assert_eq!(none["pendingChanges"], json!([]));
    assert_same_tree(&before, &fixture.root, "refusals write nothing");
    server.stop().await;
}

/// The names removed_unused lists with `rule`, sorted.
fn removed(answer: &Value, rule: Option<&str>) -> Vec<String> {
    let items = answer["removed"].as_array().unwrap_or_else(|| panic!("no removed in {answer}"));
    assert_eq!(answer["removedCount"], json!(items.len()), "{answer}");
    let mut names: Vec<String> = items
        .iter()
        .filter(|i| rule.is_none_or(|r| i["rule"] == json!(r)))
        .map(|i| i["name"].as_str().expect("name").to_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread")]
async fn remove_unused_keeps_public_api_and_every_trap_builds_and_is_undone_to_the_byte() {
    let fixture = Fixture::copy("Unused");
    std::fs::remove_file(fixture.path("FIXTURE.md")).expect("remove FIXTURE.md");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let generated = fixture.read("Lib/Generated.g.cs");

    let members = server.ok("remove_unused", json!({"project": "Lib", "kinds": ["members"], "preview": true})).await;
    assert_eq!(removed(&members, None), ["UnusedHelper", "UnusedProperty", "lastCount", "unusedField"], "{members}");
    assert_same_tree(&before, &fixture.root, "a preview writes nothing");

    let all = server.ok("remove_unused", json!({"solutionPath": fixture.file("Unused.sln")})).await;
    assert_eq!(all["removedCount"], json!(12), "{all}");
    assert_eq!(removed(&all, Some("IDE0060")), ["attempt"]);
    let inventory = fixture.read("Lib/Inventory.cs");
    assert!(
        inventory.starts_with("using System;\nusing System.Collections.Generic;\n\nnamespace Lib;\n"),
        "{inventory}"
    );
    assert!(inventory.contains("items.Add(Normalize(item));"), "the argument went with the parameter: {inventory}");
    for kept in ["Retired()", "Summary()", "AddAll(", "Label()", "Unreferenced()"] {
        assert!(inventory.contains(kept), "{kept} is kept: {inventory}");
    }
    let clock = fixture.read("Multi/Clock.cs");
    assert!(clock.contains("Format(") && !clock.contains("Stale("), "net9.0 still calls Format: {clock}");
    assert_eq!(fixture.read("Lib/Generated.g.cs"), generated, "generated code is never touched");
    assert_eq!(dotnet_build_errors(&fixture.path("Unused.sln")).await, 0, "with everything removed it builds");

    let again = server.ok("remove_unused", json!({"preview": true})).await;
    assert_eq!(again["removedCount"], json!(0), "nothing is left to remove: {again}");
    let public = server.ok("remove_unused", json!({"kinds": ["members"], "includePublic": true})).await;
    assert_eq!(removed(&public, None), ["Unreferenced"], "{public}");
    assert_eq!(removed(&public, Some("unreferenced")), ["Unreferenced"]);

    undo(&server, &public).await;
    undo(&server, &all).await;
    assert_same_tree(&before, &fixture.root, "undoing both restores every byte");
    server.stop().await;
}

/// Asserts a write's answer says it changed nothing: success, `changed: false`, no operation, no file.
fn unchanged(tool: &str, answer: &Value) {
    assert_eq!(answer["success"], json!(true), "{tool}: {answer}");
    assert_eq!(answer["changed"], json!(false), "{tool}: {answer}");
    assert!(answer.get("operationId").is_none(), "{tool}: no operation: {answer}");
    assert_eq!(answer["checksums"], json!({}), "{tool}: {answer}");
    assert!(answer.get("verification").is_none(), "{tool}: nothing to verify: {answer}");
}

#[tokio::test(flavor = "multi_thread")]
async fn writes_that_change_nothing_record_no_operation_and_keep_the_last_one_undoable() {
    let fixture = Fixture::copy("Usings");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);

    // A real write first: it changes a file and is the operation to undo.
    let real = server.ok("organize_usings", json!({"filePath": fixture.file("Tidy/Unused.cs")})).await;
    assert_eq!(real["changed"], json!(true), "{real}");
    let operation = real["operationId"].as_str().unwrap_or_else(|| panic!("no operationId: {real}")).to_owned();
    let written = tree(&fixture.root);

    // Then writes that change nothing, each three times: a replacement that matches nothing, and the usings of
    // a file organized already.
    let nothing = json!({"pattern": "NoSuchTextAnywhere", "replacement": "x"});
    let organized = json!({"filePath": fixture.file("Tidy/Organized.cs")});
    for _ in 0..3 {
        unchanged("find_replace", &server.ok("find_replace", nothing.clone()).await);
        unchanged("organize_usings", &server.ok("organize_usings", organized.clone()).await);
    }
    // verify: "tests" with nothing written runs no tests.
    let verified = json!({"filePath": fixture.file("Tidy/Organized.cs"), "verify": "tests"});
    unchanged("organize_usings", &server.ok("organize_usings", verified).await);
    // Kept by a preview, then applied: the same answer, and the plan stays kept (nothing was written).
    let mut previewed = nothing.clone();
    previewed["preview"] = json!(true);
    let preview = server.ok("find_replace", previewed).await;
    assert_eq!(preview["pendingChanges"], json!([]), "{preview}");
    let plan = json!({"planId": preview["planId"]});
    for _ in 0..2 {
        let applied = server.ok("apply_plan", plan.clone()).await;
        unchanged("apply_plan", &applied);
        assert_eq!(applied["planId"], preview["planId"]);
    }
    assert_same_tree(&written, &fixture.root, "writes that change nothing write nothing");

    // None is in the history: the real write is still the latest operation, and undo reaches it.
    let listed = server.ok("list_operations", json!({})).await;
    let operations = listed["operations"].as_array().unwrap_or_else(|| panic!("no operations: {listed}"));
    assert_eq!(operations.len(), 1, "only the real write is recorded: {listed}");
    assert_eq!(operations[0]["operationId"], json!(operation), "{listed}");
    assert_eq!(operations[0]["canUndo"], json!(true), "{listed}");
    server.ok("undo", json!({"operationId": operation})).await;
    assert_same_tree(&before, &fixture.root, "undoing the real write restores every byte");
    server.stop().await;
}
