//! Edits on disk reach the host through the file watcher: the next calls see them.

use crate::support::{Fixture, Server, eventually, sites};
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn edited_added_and_removed_files_are_reflected() {
    let shop = Fixture::copy("Shop");
    let server = Server::start(&shop.root, &[]).await;
    let program = shop.file("src/Shop.App/Program.cs");
    server.ok("get_type_at_position", json!({"filePath": program, "line": 15, "column": 13})).await;

    // Edit: a new local of a new type on line 16 (blank before).
    let source = std::fs::read_to_string(&program).expect("read Program.cs");
    let edited = source.replacen(
        "\n\n            var names",
        "\n            var stamp = new System.Text.StringBuilder();\n            var names",
        1,
    );
    std::fs::write(&program, edited).expect("edit Program.cs");
    let stamp = eventually(Duration::from_secs(15), || async {
        let outcome = server.call("get_type_at_position", json!({"filePath": program, "line": 16, "column": 17})).await;
        (!outcome.is_error && outcome.value["fullTypeName"] == json!("System.Text.StringBuilder"))
            .then_some(outcome.value)
    })
    .await;
    assert!(stamp.is_some(), "the edit was not seen");

    // Add: a new file in Shop.Core, used from nowhere yet, is found.
    let added = shop.path("src/Shop.Core/Models/Invoice.cs");
    std::fs::write(
        &added,
        "namespace Shop.Core.Models;\n\npublic class Invoice\n{\n    public Customer? Payer { get; set; }\n}\n",
    )
    .expect("add Invoice.cs");
    let invoice = added.display().to_string();
    let payer = eventually(Duration::from_secs(15), || async {
        let outcome = server.call("get_type_at_position", json!({"filePath": invoice, "line": 5, "column": 22})).await;
        (!outcome.is_error).then_some(outcome.value)
    })
    .await
    .expect("the new file was not seen");
    assert_eq!(payer["fullTypeName"], json!("Shop.Core.Models.Customer"));
    let customer = shop.file("src/Shop.Core/Models/Customer.cs");
    let references = server.ok("find_references", json!({"filePath": customer, "line": 6, "column": 14})).await;
    assert!(sites(&shop, &references["references"]).contains(&("src/Shop.Core/Models/Invoice.cs".to_owned(), 5, 12)));

    // Remove: its uses disappear.
    std::fs::remove_file(&added).expect("remove Invoice.cs");
    let gone = eventually(Duration::from_secs(15), || async {
        let references = server.ok("find_references", json!({"filePath": customer, "line": 6, "column": 14})).await;
        (references["totalCount"] == json!(9)).then_some(())
    })
    .await;
    assert!(gone.is_some(), "the removed file still counts");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_changed_project_file_reloads_its_project() {
    let beta = Fixture::copy("tiny/Beta");
    let source = beta.path("Beta.cs");
    let mut text = std::fs::read_to_string(&source).expect("read Beta.cs");
    text.push_str("\n#if EXTRA\npublic class ExtraThing { }\n#endif\n");
    std::fs::write(&source, &text).expect("write Beta.cs");
    let (line, column) = beta.position_of("Beta.cs", "ExtraThing", 0);
    let question = json!({"filePath": beta.file("Beta.cs"), "line": line, "column": column});

    let server = Server::start(&beta.root, &[]).await;
    // Inside an inactive #if block there is no symbol.
    server.fails("get_type_at_position", question.clone(), "SYMBOL_NOT_FOUND").await;

    let project = beta.path("Beta.csproj");
    let csproj = std::fs::read_to_string(&project).expect("read Beta.csproj");
    let defined = csproj.replacen(
        "</Project>",
        "  <PropertyGroup>\n    <DefineConstants>$(DefineConstants);EXTRA</DefineConstants>\n  </PropertyGroup>\n</Project>",
        1,
    );
    std::fs::write(&project, defined).expect("edit Beta.csproj");
    let extra = eventually(Duration::from_secs(30), || async {
        let outcome = server.call("get_type_at_position", question.clone()).await;
        (!outcome.is_error).then_some(outcome.value)
    })
    .await
    .expect("the project file change was not applied");
    assert_eq!(extra["fullTypeName"], json!("Beta.ExtraThing"));
    server.stop().await;
}
