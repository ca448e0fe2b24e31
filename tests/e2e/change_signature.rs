//! change_signature on the Signature fixture (its FIXTURE.md gives every position): a reorder, rename and
//! addition reach the override in another project, the calls of both target frameworks, named arguments and
//! `<param>` tags; the result builds, find_references finds the same calls, and undo restores every byte.
//! Each refusal writes nothing.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, reference_lines, shared, tree};
use serde_json::{Value, json};

const PRICING: &str = "Lib/Pricing.cs";
const SHIPPING: &str = "Lib/Shipping.cs";

fn change(file: &str, line: u32, column: u32, parameters: Value) -> Value {
    json!({"filePath": file, "line": line, "column": column, "parameters": parameters})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reorder_rename_and_addition_reach_every_call_override_and_framework_and_undo_to_the_byte() {
    let fixture = Fixture::copy("Signature");
    let server = Server::start(&fixture.root, &[]).await;
    let pricing = fixture.file(PRICING);
    let before_places = reference_lines(&server, &pricing, 10, 28).await;
    let before = tree(&fixture.root);
    let parameters = json!([
        {"name": "unitPrice", "newName": "price"},
        {"name": "quantity"},
        {"name": "label", "newName": "caption"},
        {"name": "currency", "add": {"type": "string", "defaultValue": "\"EUR\""}},
    ]);

    let mut arguments = change(&pricing, 10, 28, parameters);
    arguments["preview"] = json!(true);
    let preview = server.ok("change_signature", arguments).await;
    assert_eq!(preview["signature"], json!("Signature.Lib.Pricing.Price(int, decimal, string)"), "{preview}");
    assert_eq!(preview["newSignature"], json!("Signature.Lib.Pricing.Price(decimal, int, string, string)"));
    assert_eq!(preview["declarations"], json!(2), "Pricing.Price and Discounted.Price");
    assert_eq!(preview["filesModified"], json!(3));
    assert_same_tree(&before, &fixture.root, "a preview writes nothing");

    let applied = server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    assert_eq!(applied["tool"], json!("change_signature"));
    let text = std::fs::read_to_string(fixture.path(PRICING)).expect("read");
    assert!(text.contains("Price(2m, quantity, caption: \"twice\");"), "net10.0's branch: {text}");
    assert!(text.contains("Price(2m, quantity);"), "net9.0's branch: {text}");
    assert!(text.contains("/// <param name=\"price\">The price of one.</param>"), "{text}");
    let program = std::fs::read_to_string(fixture.path("App/Program.cs")).expect("read");
    assert!(program.contains("pricing.Price(price: 5m, quantity: 2, caption: \"named\")"), "{program}");
    // The added parameter's <param> tag is a line more above the declaration.
    let shifted: Vec<_> = before_places
        .iter()
        .map(|(file, line)| (file.clone(), if *file == pricing && *line >= 10 { line + 1 } else { *line }))
        .collect();
    assert_eq!(reference_lines(&server, &pricing, 11, 28).await, shifted, "the same declarations and calls");
    assert_eq!(dotnet_build_errors(&fixture.path("Signature.slnx")).await, 0);

    server.ok("undo", json!({"operationId": applied["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn uses_side_effects_rebinding_clashes_and_method_groups_are_refused_before_anything_is_written() {
    let (fixture, server) = shared::session("Signature").await;
    let shipping = fixture.file(SHIPPING);
    let before = tree(&fixture.root);

    let error = server
        .fails("change_signature", change(&shipping, 12, 20, json!([{"name": "weight"}])), "PARAMETER_IN_USE")
        .await;
    assert_eq!(error["details"]["uses"][0]["line"], json!(12), "{error}");
    let swapped = json!([{"name": "weight"}, {"name": "zone"}]);
    let error = server.fails("change_signature", change(&shipping, 5, 13, swapped), "EVALUATION_ORDER_CHANGED").await;
    assert_eq!(error["details"]["calls"][0]["line"], json!(18), "Rush() passes NextZone() and Weigh(): {error}");
    let retyped = json!([{"name": "value", "newType": "double"}]);
    let error = server
        .fails("change_signature", change(&fixture.file("Lib/Printer.cs"), 5, 26, retyped), "BINDING_CHANGED")
        .await;
    assert_eq!(error["details"]["file"], json!(fixture.file("Lib/Printer.cs")), "Show's call would take Print(long)");
    let clash = json!([{"name": "label"}, {"name": "total", "add": {"type": "decimal", "defaultValue": "0m"}}, {"name": "quantities"}]);
    server.fails("change_signature", change(&fixture.file(PRICING), 21, 20, clash), "NAME_COLLISION").await;
    let grown = json!([{"name": "zone"}, {"name": "weight"}, {"name": "express", "add": {"type": "bool", "defaultValue": "false"}}]);
    // `Func<string, int, decimal> cost = shipping.Cost` in App/Program.cs could not take the grown method.
    let error = server.fails("change_signature", change(&shipping, 5, 13, grown), "BINDING_CHANGED").await;
    assert_eq!(error["details"]["delegate"], json!("System.Func<string, int, decimal>"), "{error}");
    assert_eq!(
        (error["details"]["file"].clone(), error["details"]["line"].clone()),
        (json!(fixture.file("App/Program.cs")), json!(19))
    );
    // Renaming the parameters leaves the delegate conversion as it was: only the preview's plan, nothing written.
    let renamed = json!([{"name": "zone", "newName": "area"}, {"name": "weight"}]);
    let mut preview = change(&shipping, 5, 13, renamed);
    preview["preview"] = json!(true);
    server.ok("change_signature", preview).await;
    let keyword = json!([{"name": "zone", "newName": "class"}, {"name": "weight"}]);
    server.fails("change_signature", change(&shipping, 5, 13, keyword), "INVALID_SYMBOL_NAME").await;
    let unknown = json!([{"name": "zone"}, {"name": "height"}]);
    server.fails("change_signature", change(&shipping, 5, 13, unknown), "INVALID_PARAMETER").await;

    assert_same_tree(&before, &fixture.root, "refusals write nothing");
    assert_eq!(server.ok("list_operations", json!({})).await["operations"], json!([]));
}
