//! get_compilation_diagnostics on a clean and a broken fixture (positions from Broken/FIXTURE.md).

use crate::support::{diagnostics, shared};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_broken_fixture_reports_exactly_its_error_and_warning() {
    let (broken, server) = shared::session("Broken").await;
    let file = broken.file("Broken.cs");

    let solution =
        server.ok("get_compilation_diagnostics", json!({"solutionPath": broken.file("Broken.csproj")})).await;
    assert_eq!(solution["scope"], json!("solution"));
    assert_eq!((solution["errorCount"].clone(), solution["warningCount"].clone()), (json!(1), json!(1)));
    assert_eq!((solution["fileCount"].clone(), solution["nextCursor"].clone()), (json!(1), json!(null)));
    assert_eq!(solution["files"][0]["filePath"], json!(file));
    let found: Vec<(String, String, u64, u64, u64)> = diagnostics(&solution)
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let at = &d["location"];
            (
                d["code"].as_str().expect("code").to_owned(),
                d["severity"].as_str().expect("severity").to_owned(),
                at["line"].as_u64().expect("line"),
                at["column"].as_u64().expect("column"),
                at["endColumn"].as_u64().expect("endColumn"),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("CS0168".to_owned(), "warning".to_owned(), 7, 13, 19),
            ("CS0029".to_owned(), "error".to_owned(), 8, 21, 28),
        ]
    );
    assert_eq!(diagnostics(&solution)[1]["location"]["filePath"], json!(file));

    let errors_only = server.ok("get_compilation_diagnostics", json!({"filePath": file, "minSeverity": "error"})).await;
    assert_eq!(errors_only["scope"], json!("file"));
    assert_eq!(errors_only["totalCount"], json!(1));
    assert_eq!(diagnostics(&errors_only)[0]["code"], json!("CS0029"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_shop_fixture_compiles_without_errors_or_warnings() {
    let (shop, server) = shared::session("Shop").await;
    let all = server.ok("get_compilation_diagnostics", json!({"solutionPath": shop.file("Shop.sln")})).await;
    assert_eq!((all["errorCount"].clone(), all["warningCount"].clone()), (json!(0), json!(0)), "{all}");
}
