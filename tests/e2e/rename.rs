//! rename_symbol on the Rename and MultiTarget fixtures (their FIXTURE.md give every position): each rename
//! leaves a solution that `dotnet build` compiles, with find_references giving the same places under the new
//! name; conflicts are refused before anything is written; undo restores every byte.

use crate::support::{Client, Fixture, Server, assert_same_tree, dotnet_build_errors, reference_lines, shared, tree};
use serde_json::{Value, json};
use std::time::Duration;

const INVOICE: &str = "Core/Models/Invoice.cs";
const FORMATTER: &str = "Core/Services/Formatter.cs";
const PRICING: &str = "Core/Services/IPricing.cs";
const AMOUNT: &str = "Core/Traps/Amount.cs";

async fn rename(server: &Client, file: &str, line: u32, column: u32, new_name: &str, options: Value) -> Value {
    let mut arguments = json!({"filePath": file, "line": line, "column": column, "newName": new_name});
    for (key, value) in options.as_object().expect("options") {
        arguments[key] = value.clone();
    }
    server.ok("rename_symbol", arguments).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_type_used_in_three_projects_is_renamed_with_its_file_through_a_previewed_plan() {
    let fixture = Fixture::copy("Rename");
    let server = Server::start(&fixture.root, &[]).await;
    let invoice = fixture.file(INVOICE);
    let bill = fixture.file("Core/Models/Bill.cs");
    let before_places = reference_lines(&server, &invoice, 4, 14).await;
    let before = tree(&fixture.root);

    let preview = rename(&server, &invoice, 4, 14, "Bill", json!({"preview": true})).await;
    assert_eq!(preview["symbol"]["fullyQualifiedName"], json!("Rename.Core.Models.Invoice"));
    assert_eq!(preview["symbol"]["newFullyQualifiedName"], json!("Rename.Core.Models.Bill"));
    assert_eq!(preview["summary"]["references"], json!(11), "{preview}");
    assert_eq!(preview["totalEdits"], json!(11));
    assert_eq!(preview["filesModified"], json!(4), "Invoice.cs (as Bill.cs), IPricing.cs, InvoiceStore.cs, Program.cs");
    assert!(preview["warnings"].as_array().expect("warnings").contains(&json!("Renamed Invoice.cs to Bill.cs")));
    assert_same_tree(&before, &fixture.root, "a preview writes nothing");
    // The host logs what each step of the plan took, for an operator asking why a large rename is slow.
    let steps = "rename of Invoice planned (11 places, 5 file edits): ";
    assert!(server.logs(steps, Duration::from_secs(10)).await, "no step times in {}", server.log.display());
    let log = std::fs::read_to_string(&server.log).expect("log");
    let line = log.lines().find(|line| line.contains(steps)).expect("the steps' line");
    for step in
        ["(symbol", ", places", ", declared conflicts", ", renamer", ", compile check", ", binding check", ", edits"]
    {
        assert!(line.contains(&format!("{step} ")), "{step} missing: {line}");
    }

    let applied = server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    assert_eq!(applied["tool"], json!("rename_symbol"));
    assert_eq!(applied["changes"]["filesCreated"], json!([bill]));
    assert_eq!(applied["changes"]["filesDeleted"], json!([invoice]));
    assert!(!fixture.path(INVOICE).exists());
    let renamed: Vec<_> = before_places
        .iter()
        .map(|(file, line)| (if *file == invoice { bill.clone() } else { file.clone() }, *line))
        .collect();
    let mut renamed = renamed;
    renamed.sort();
    assert_eq!(reference_lines(&server, &bill, 4, 14).await, renamed, "the same places under the new name");
    assert!(std::fs::read_to_string(fixture.path("App/Program.cs")).expect("read").contains("new Bill(10m)"));
    assert_eq!(dotnet_build_errors(&fixture.path("Rename.sln")).await, 0);

    server.ok("undo", json!({"operationId": applied["operationId"]})).await;
    // The build left bin/ and obj/ behind, which the tree leaves out.
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn members_overloads_parameters_and_locals_rename_with_everything_bound_to_them() {
    let fixture = Fixture::copy("Rename");
    let server = Server::start(&fixture.root, &[]).await;
    let (formatter, pricing) = (fixture.file(FORMATTER), fixture.file(PRICING));
    let program = fixture.file("App/Program.cs");

    // An interface member: its two implementations and the call through the interface too.
    let before = reference_lines(&server, &pricing, 7, 13).await;
    let renamed = rename(&server, &pricing, 7, 13, "CostOf", json!({})).await;
    assert_eq!(renamed["totalEdits"], json!(4));
    assert_eq!(reference_lines(&server, &pricing, 7, 13).await, before);
    assert!(std::fs::read_to_string(&program).expect("read").contains("CostOf("));

    // One overload alone, then all of them.
    let renamed = rename(&server, &formatter, 7, 26, "FormatAmount", json!({})).await;
    assert_eq!(renamed["totalEdits"], json!(2), "Format(decimal) and its one call");
    let text = std::fs::read_to_string(&formatter).expect("read");
    assert_eq!(text.matches("FormatAmount(").count(), 2, "{text}");
    assert_eq!(text.matches("Format(").count(), 4, "the other overloads stay:\n{text}");
    let renamed = rename(&server, &formatter, 5, 26, "Render", json!({"renameOverloads": true})).await;
    assert_eq!(renamed["totalEdits"], json!(4), "Format(int), Format(string, int) and their calls");
    assert!(
        renamed["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .any(|w| w.as_str().is_some_and(|w| w.contains("overload")))
    );

    // A parameter, passed by name in another project; then a local.
    let before = reference_lines(&server, &formatter, 17, 57).await;
    assert_eq!(before.len(), 6, "{before:?}");
    let renamed = rename(&server, &formatter, 17, 57, "multiplier", json!({})).await;
    assert_eq!(renamed["symbol"]["kind"], json!("Parameter"));
    assert_eq!(reference_lines(&server, &formatter, 17, 57).await, before);
    assert!(std::fs::read_to_string(&program).expect("read").contains("multiplier: 2m"));
    let before = reference_lines(&server, &formatter, 19, 13).await;
    rename(&server, &formatter, 19, 13, "scaled", json!({})).await;
    assert_eq!(reference_lines(&server, &formatter, 19, 13).await, before);

    assert_eq!(dotnet_build_errors(&fixture.path("Rename.sln")).await, 0);
    let history = server.ok("list_operations", json!({})).await;
    assert_eq!(history["operations"].as_array().expect("operations").len(), 5, "{history}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn clashes_shadowing_metadata_symbols_and_non_identifiers_are_refused_before_anything_is_written() {
    let (fixture, server) = shared::session("Rename").await;
    let before = tree(&fixture.root);
    let refusal = |file: &str, line: u32, column: u32, name: &str| json!({"filePath": fixture.file(file), "line": line, "column": column, "newName": name});
    let conflict_at = |error: &Value, file: &str, line: u64, column: u64| {
        let conflicts = error["details"]["conflicts"].as_array().expect("conflicts");
        assert!(
            conflicts.iter().any(|c| c["file"] == json!(fixture.file(file))
                && c["line"] == json!(line)
                && c["column"] == json!(column)),
            "{file}:{line}:{column} not among {conflicts:?}"
        );
    };
    let error = server.fails("rename_symbol", refusal("Core/Traps/Totals.cs", 7, 16, "Total"), "NAME_COLLISION").await;
    conflict_at(&error, "Core/Traps/Totals.cs", 5, 16);
    let error = server.fails("rename_symbol", refusal("Core/Traps/Counter.cs", 7, 13, "limit"), "NAME_COLLISION").await;
    conflict_at(&error, "Core/Traps/Counter.cs", 5, 37);
    let error = server.fails("rename_symbol", refusal("Core/Traps/Labeler.cs", 9, 16, "name"), "NAME_COLLISION").await;
    conflict_at(&error, "Core/Traps/Labeler.cs", 10, 31);
    server.fails("rename_symbol", refusal("App/Program.cs", 18, 21, "Print"), "SYMBOL_NOT_IN_SOURCE").await;
    // An override or implementation of a referenced assembly's member has that member's name: refused at
    // once, naming the member, rather than computed and refused for the errors it would leave.
    let error = server.fails("rename_symbol", refusal(AMOUNT, 9, 26, "Same"), "SYMBOL_NOT_IN_SOURCE").await;
    assert_eq!(error["details"]["member"], json!("object.Equals(object)"), "{error}");
    assert!(error["message"].as_str().expect("message").contains("overrides object.Equals(object)"), "{error}");
    let error = server.fails("rename_symbol", refusal(AMOUNT, 13, 17, "Release"), "SYMBOL_NOT_IN_SOURCE").await;
    assert_eq!(error["details"]["member"], json!("System.IDisposable.Dispose()"), "{error}");
    let preview = server
        .ok(
            "rename_symbol",
            json!({"preview": true, "newName": "Total", "filePath": fixture.file(AMOUNT), "line": 7, "column": 20}),
        )
        .await;
    assert!(preview["planId"].is_string(), "the class's own member renames: {preview}");
    server.fails("rename_symbol", refusal(INVOICE, 4, 14, "class"), "INVALID_SYMBOL_NAME").await;
    server.fails("rename_symbol", refusal(INVOICE, 4, 14, "1Bill"), "INVALID_SYMBOL_NAME").await;
    server.fails("rename_symbol", refusal(INVOICE, 4, 14, "Big Bill"), "INVALID_SYMBOL_NAME").await;
    assert_same_tree(&before, &fixture.root, "refusals write nothing");
    let history = server.ok("list_operations", json!({})).await;
    assert_eq!(history["operations"], json!([]));
}

#[tokio::test(flavor = "multi_thread")]
async fn comments_and_strings_are_renamed_only_when_asked() {
    let (fixture, server) = shared::session("Rename").await;
    let invoice = fixture.file(INVOICE);
    let plain = rename(&server, &invoice, 4, 14, "Bill", json!({"preview": true, "renameFile": false})).await;
    assert_eq!(plain["totalEdits"], json!(11));
    let all = rename(
        &server,
        &invoice,
        4,
        14,
        "Bill",
        json!({"preview": true, "renameFile": false, "renameInComments": true, "renameInStrings": true}),
    )
    .await;
    assert_eq!(all["totalEdits"], json!(15), "4 more: two comments and two strings");
    assert_eq!(all["summary"]["filesCreated"], json!(0), "renameFile: false keeps the file's name");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_is_not_renamed_over_one_that_exists() {
    let fixture = Fixture::copy("Rename");
    // Bill.cs is taken (by another type) before the service starts: the class is renamed, its file is not.
    let taken = "namespace Rename.Core.Models;\n\npublic class Ledger { }\n";
    std::fs::write(fixture.path("Core/Models/Bill.cs"), taken).expect("write Bill.cs");
    let server = Server::start(&fixture.root, &[]).await;
    let renamed = rename(&server, &fixture.file(INVOICE), 4, 14, "Bill", json!({})).await;
    assert!(
        renamed["warnings"]
            .as_array()
            .expect("warnings")
            .contains(&json!("Did not rename Invoice.cs: Bill.cs already exists")),
        "{renamed}"
    );
    assert_eq!(renamed["changes"]["filesCreated"], json!([]));
    assert!(std::fs::read_to_string(fixture.path(INVOICE)).expect("Invoice.cs stays").contains("public class Bill"));
    assert_eq!(std::fs::read_to_string(fixture.path("Core/Models/Bill.cs")).expect("Bill.cs"), taken);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_multi_targeted_type_is_renamed_once_per_place_including_code_of_one_target() {
    let fixture = Fixture::copy("MultiTarget");
    let server = Server::start(&fixture.root, &[]).await;
    let shapes = fixture.file("Shapes.cs");
    let renamed = rename(&server, &shapes, 3, 14, "Disc", json!({"renameFile": false})).await;
    assert_eq!(renamed["totalEdits"], json!(8), "Drawing.cs 4, Framed.cs 3 (2 only in net9.0), Shapes.cs 1");
    let framed = std::fs::read_to_string(fixture.path("Framed.cs")).expect("read");
    assert!(framed.contains("public static Disc Legacy() => new Disc { Radius = 9 };"), "{framed}");
    assert!(!framed.contains("Circle"), "{framed}");
    assert_eq!(dotnet_build_errors(&fixture.path("Multi.csproj")).await, 0, "both target frameworks build");
    server.stop().await;
}
