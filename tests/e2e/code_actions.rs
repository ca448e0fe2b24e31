//! get_code_actions and apply_code_action as users call them, on private copies of the Actions fixture (its
//! FIXTURE.md): Roslyn's refactorings and fixes listed at a place, applied by id, built with `dotnet build`,
//! and each undone to the byte; stale, unknown and build-breaking actions refused with nothing written.

use crate::support::{Fixture, Server, assert_same_tree, diagnostics, dotnet_build_errors, tree};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const PRICING: &str = "Actions.Core/Pricing.cs";
const ORDER: &str = "Actions.Core/Order.cs";
const CUSTOMER: &str = "Actions.Core/Customer.cs";
const COUNTERS: &str = "Actions.Core/Counters.cs";
const REPORT: &str = "Actions.Fixes/Report.cs";
const SHAPES: &str = "Actions.Fixes/Shapes.cs";

fn fixture() -> Fixture {
    let fixture = Fixture::copy("Actions");
    std::fs::remove_file(fixture.path("FIXTURE.md")).expect("remove FIXTURE.md");
    fixture
}

/// The actions at a place (a position, or a selection to `end`).
async fn actions(
    server: &Server,
    fixture: &Fixture,
    file: &str,
    at: (u32, u32),
    end: Option<(u32, u32)>,
) -> Vec<Value> {
    let mut arguments = json!({"filePath": fixture.file(file), "line": at.0, "column": at.1});
    if let Some((line, column)) = end {
        arguments["endLine"] = json!(line);
        arguments["endColumn"] = json!(column);
    }
    let listed = server.ok("get_code_actions", arguments).await;
    let actions = listed["actions"].as_array().expect("actions").clone();
    assert_eq!(listed["count"], json!(actions.len()), "{listed}");
    actions
}

fn titled<'a>(actions: &'a [Value], title: &str) -> &'a Value {
    actions.iter().find(|a| a["title"] == json!(title)).unwrap_or_else(|| panic!("no {title:?} in {actions:#?}"))
}

/// Applies the action titled `title` at the place with `extra` arguments; returns the answer and the tree
/// as it was just before.
async fn apply(
    server: &Server,
    fixture: &Fixture,
    place: (&str, (u32, u32), Option<(u32, u32)>),
    title: &str,
    extra: Value,
) -> (Value, BTreeMap<String, Vec<u8>>) {
    let (file, at, end) = place;
    let listed = actions(server, fixture, file, at, end).await;
    let mut arguments = json!({"id": titled(&listed, title)["id"]});
    arguments.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
    let before = tree(&fixture.root);
    (server.ok("apply_code_action", arguments).await, before)
}

#[tokio::test(flavor = "multi_thread")]
async fn seven_code_actions_are_applied_build_and_are_each_undone_to_the_byte() {
    let fixture = fixture();
    let server = Server::start(&fixture.root, &[]).await;
    let original = tree(&fixture.root);
    let mut applied = Vec::new();

    let (extracted, before) =
        apply(&server, &fixture, (PRICING, (8, 21), Some((8, 30))), "Extract method", json!({})).await;
    assert_eq!(extracted["action"], json!("Extract method"), "{extracted}");
    assert_eq!(extracted["provider"], json!("ExtractMethodCodeRefactoringProvider"));
    assert!(fixture.read(PRICING).contains("var total = GetTotal(net, tax);"));
    applied.push((extracted, before));

    let (inlined, before) =
        apply(&server, &fixture, (PRICING, (8, 13), None), "Inline temporary variable", json!({})).await;
    assert!(fixture.read(PRICING).contains("        return GetTotal(net, tax);\n"), "{inlined}");
    applied.push((inlined, before));

    let options =
        json!({"options": {"extractInterface": {"interfaceName": "IShippable", "members": ["Ship", "Describe"]}}});
    let (interface, before) = apply(&server, &fixture, (ORDER, (3, 14), None), "Extract interface...", options).await;
    assert_eq!(interface["summary"]["filesCreated"], json!(1), "{interface}");
    let created = fixture.read("Actions.Core/IShippable.cs");
    assert!(created.contains("public interface IShippable") && created.contains("void Ship();"), "{created}");
    assert!(!created.contains("Amount"), "only the members asked for: {created}");
    assert!(fixture.read(ORDER).contains("public class Order : IShippable"));
    applied.push((interface, before));

    let (constructor, before) = apply(
        &server,
        &fixture,
        (CUSTOMER, (5, 1), Some((6, 30))),
        "Generate constructor 'Customer(string name, int age)'",
        json!({}),
    )
    .await;
    assert!(fixture.read(CUSTOMER).contains("        this.age = age;\n"), "{constructor}");
    applied.push((constructor, before));

    let (readonly, before) =
        apply(&server, &fixture, (COUNTERS, (5, 17), None), "Add readonly modifier", json!({"fixAll": "project"}))
            .await;
    assert_eq!(readonly["action"], json!("Add readonly modifier (fix all in project)"), "{readonly}");
    assert_eq!(readonly["fixAll"], json!("project"));
    let counters = fixture.read(COUNTERS);
    assert!(counters.contains("private readonly int start") && counters.contains("private readonly int count"));
    assert_eq!(dotnet_build_errors(&fixture.path("Actions.Core/Actions.Core.csproj")).await, 0, "Actions.Core builds");
    applied.push((readonly, before));

    let listed = actions(&server, &fixture, REPORT, (9, 24), None).await;
    let import = titled(&listed, "using System.Text;");
    assert_eq!(import["kind"], json!("fix"));
    assert_eq!(import["diagnostic"]["code"], json!("CS0246"), "{import}");
    let (using, before) = apply(&server, &fixture, (REPORT, (9, 24), None), "using System.Text;", json!({})).await;
    assert!(fixture.read(REPORT).starts_with("using System.Text;\nusing Actions.Core;\n"), "{using}");
    applied.push((using, before));

    let (implemented, before) =
        apply(&server, &fixture, (SHAPES, (10, 23), None), "Implement interface", json!({})).await;
    assert!(fixture.read(SHAPES).contains("public double Area()"), "{implemented}");
    applied.push((implemented, before));
    assert_eq!(dotnet_build_errors(&fixture.path("Actions.sln")).await, 0, "with both fixes the solution builds");

    for (answer, before) in applied.iter().rev() {
        server.ok("undo", json!({"operationId": answer["operationId"]})).await;
        assert_same_tree(before, &fixture.root, &format!("undo of {}", answer["action"]));
    }
    assert_same_tree(&original, &fixture.root, "every action undone");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn stale_unknown_and_build_breaking_actions_are_refused_and_nothing_changes() {
    let fixture = fixture();
    let server = Server::start(&fixture.root, &[]).await;
    let original = tree(&fixture.root);

    let at_order = actions(&server, &fixture, ORDER, (3, 14), None).await;
    let extract = titled(&at_order, "Extract interface...");
    assert_eq!(
        extract["options"]["extractInterface"],
        json!({"interfaceName": "IOrder", "fileName": "IOrder.cs", "sameFile": false,
            "members": ["Id", "Amount", "Ship", "Describe"]}),
        "the dialog's defaults"
    );
    let id = extract["id"].clone();
    let again = actions(&server, &fixture, ORDER, (3, 14), None).await;
    assert_eq!(titled(&again, "Extract interface...")["id"], id, "the same action on the same state has the same id");
    assert!(
        !at_order.iter().any(|a| a["title"].as_str().is_some_and(|t| t.starts_with("Generate overrides"))),
        "an action that needs its dialog is not listed"
    );

    // The SDK's analyzers ship their fixes: CA1822 (raised to a warning by .editorconfig) has Make static.
    let at_ship = actions(&server, &fixture, ORDER, (9, 17), None).await;
    let make_static =
        at_ship.iter().find(|a| a["diagnostic"]["code"] == json!("CA1822")).expect("a fix of CA1822").clone();
    let preview = server.ok("apply_code_action", json!({"id": make_static["id"], "preview": true})).await;
    let changed = preview["pendingChanges"][0]["diff"].as_str().expect("a diff");
    assert!(changed.contains("+    public static void Ship()"), "{changed}");

    let clash = json!({"id": id, "options": {"extractInterface": {"interfaceName": "Customer", "fileName": "CustomerContract.cs"}}});
    let refused = server.fails("apply_code_action", clash, "COMPILATION_ERROR").await;
    assert!(refused["message"].as_str().expect("message").contains("CS0101"), "{refused}");
    let escape = json!({"id": id, "options": {"extractInterface": {"fileName": "../IOrder.cs"}}});
    server.fails("apply_code_action", escape, "INVALID_TARGET_PATH").await;
    let members = json!({"id": id, "options": {"extractInterface": {"members": ["Cancel"]}}});
    server.fails("apply_code_action", members, "INVALID_PARAMETER").await;
    server.fails("apply_code_action", json!({"id": "sha256:0000"}), "CODE_ACTION_NOT_FOUND").await;

    let at_pricing = actions(&server, &fixture, PRICING, (8, 13), None).await;
    let inline = titled(&at_pricing, "Inline temporary variable")["id"].clone();
    server.fails("apply_code_action", json!({"id": inline, "fixAll": "project"}), "INVALID_PARAMETER").await;
    server
        .fails("apply_code_action", json!({"id": inline, "options": {"extractInterface": {}}}), "INVALID_PARAMETER")
        .await;
    assert_same_tree(&original, &fixture.root, "refusals write nothing");

    // Any write moves the solution on: an id listed before it is stale.
    let preview = server.ok("apply_code_action", json!({"id": inline, "preview": true})).await;
    assert_eq!(preview["pendingChanges"].as_array().expect("changes").len(), 1, "{preview}");
    assert_same_tree(&original, &fixture.root, "a preview writes nothing");
    server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    server.fails("apply_code_action", json!({"id": id}), "CODE_ACTION_STALE").await;

    let analyzed = server
        .ok("get_compilation_diagnostics", json!({"filePath": fixture.file(COUNTERS), "includeAnalyzers": true}))
        .await;
    let all = diagnostics(&analyzed);
    let readonly: Vec<&Value> =
        all.as_array().expect("diagnostics").iter().filter(|d| d["code"] == json!("IDE0044")).collect();
    assert_eq!(readonly.len(), 2, "{analyzed}");
    assert!(
        readonly.iter().all(
            |d| d["severity"] == json!("warning") && d["source"] == json!("Microsoft.CodeAnalysis.CSharp.Features")
        )
    );
    server.stop().await;
}
