//! The contract of every list: deterministic bytes, pages that add up to the whole, cursors bound to the
//! request and the solution's state, hard caps that fail rather than cut, and bad input refused by code.

use crate::support::{Client, Fixture, Server, eventually, shared};
use serde_json::{Value, json};
use std::time::Duration;

const PROGRAM: &str = "src/Shop.App/Program.cs";
const CUSTOMER: &str = "src/Shop.Core/Models/Customer.cs";

/// One call of every list tool on the Shop fixture, with the field holding its list.
fn list_calls(shop: &Fixture) -> Vec<(&'static str, Value, &'static str)> {
    let program = shop.file(PROGRAM);
    let solution = shop.file("Shop.sln");
    let (line, column) = shop.position_of(PROGRAM, "found =", 0);
    vec![
        ("find_references", json!({"filePath": shop.file(CUSTOMER), "line": 6, "column": 14}), "references"),
        ("get_available_members", json!({"filePath": program, "line": line, "column": column}), "members"),
        (
            "find_implementations",
            json!({"typeName": "Shop.Core.Services.IGreeter", "solutionPath": solution}),
            "implementations",
        ),
        (
            "get_call_hierarchy",
            json!({"filePath": shop.file("src/Shop.Core/Services/PriceCalculator.cs"), "line": 23, "column": 31}),
            "calls",
        ),
        ("get_document_symbols", json!({"filePath": program}), "symbols"),
        ("search_symbols", json!({"query": "e", "solutionPath": solution}), "symbols"),
        ("get_compilation_diagnostics", json!({"solutionPath": solution, "minSeverity": "hidden"}), "files"),
    ]
}

/// Every page of a call, following nextCursor.
async fn all_pages(server: &Client, tool: &str, arguments: &Value, field: &str, page_size: u64) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut pages = 0;
    let mut cursor = Value::Null;
    loop {
        let mut arguments = arguments.clone();
        arguments["pageSize"] = json!(page_size);
        if !cursor.is_null() {
            arguments["cursor"] = cursor;
        }
        let page = server.ok(tool, arguments).await;
        let list = page[field].as_array().expect("list");
        assert!(list.len() as u64 <= page_size, "{tool}: page of {} over {page_size}", list.len());
        items.extend(list.iter().cloned());
        pages += 1;
        cursor = page["nextCursor"].clone();
        if cursor.is_null() {
            return (items, pages);
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_list_is_deterministic_and_its_pages_add_up_to_the_whole() {
    let (shop, server) = shared::session("Shop").await;
    for (tool, arguments, field) in list_calls(shop) {
        let first = server.ok(tool, arguments.clone()).await;
        let second = server.ok(tool, arguments.clone()).await;
        assert_eq!(first.to_string(), second.to_string(), "{tool}: two answers differ");
        let whole = first[field].as_array().expect("list").clone();
        assert!(!whole.is_empty(), "{tool}: nothing to page through");
        assert!(first["nextCursor"].is_null(), "{tool}: the default page holds the fixture's list");
        let (paged, pages) = all_pages(&server, tool, &arguments, field, 2).await;
        assert_eq!(paged, whole, "{tool}: pages differ from the whole");
        assert_eq!(pages, whole.len().div_ceil(2), "{tool}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cursors_are_bound_to_their_request_and_to_the_solution_state() {
    let shop = Fixture::copy("Shop");
    let server = Server::start_with_env(&shop.root, &[("ROSLYN_MCP_CURSOR_TTL_SECS", "3")]).await;
    let references = json!({"filePath": shop.file(CUSTOMER), "line": 6, "column": 14, "pageSize": 2});
    let first = server.ok("find_references", references.clone()).await;
    let cursor = first["nextCursor"].as_str().expect("a next page").to_owned();

    // Forged, truncated, or another request's cursor.
    let with = |arguments: &Value, cursor: &str| {
        let mut arguments = arguments.clone();
        arguments["cursor"] = json!(cursor);
        arguments
    };
    server.fails("find_references", with(&references, "not-a-cursor"), "CURSOR_INVALID").await;
    server.fails("find_references", with(&references, &cursor[..cursor.len() / 2]), "CURSOR_INVALID").await;
    let other = json!({"filePath": shop.file(CUSTOMER), "line": 6, "column": 14, "includeDeclaration": true});
    server.fails("find_references", with(&other, &cursor), "CURSOR_INVALID").await;
    let search = json!({"query": "Customer", "solutionPath": shop.file("Shop.sln")});
    server.fails("search_symbols", with(&search, &cursor), "CURSOR_INVALID").await;
    // The page size may change between pages.
    let mut bigger = with(&references, &cursor);
    bigger["pageSize"] = json!(100);
    assert_eq!(server.ok("find_references", bigger).await["references"].as_array().map(Vec::len), Some(7));

    // Past its time to live the retained result is gone.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    server.fails("find_references", with(&references, &cursor), "CURSOR_EXPIRED").await;

    // An edit between pages: the next page would mix two states.
    let first = server.ok("find_references", references.clone()).await;
    let cursor = first["nextCursor"].as_str().expect("a next page").to_owned();
    let version = server.workspace_status(&shop.path("Shop.sln")).await.expect("loaded")["workspaceVersion"].clone();
    let customer = shop.path(CUSTOMER);
    let text = std::fs::read_to_string(&customer).expect("read") + "// edited\n";
    std::fs::write(&customer, text).expect("edit");
    let changed = eventually(Duration::from_secs(20), || async {
        let status = server.workspace_status(&shop.path("Shop.sln")).await?;
        (status["workspaceVersion"] != version).then_some(())
    })
    .await;
    assert!(changed.is_some(), "the host never saw the edit");
    let stale = server.fails("find_references", with(&references, &cursor), "CURSOR_STALE").await;
    assert!(!stale["suggestions"].as_array().expect("suggestions").is_empty());
    // Asking afresh pages through the new state.
    let fresh = server.ok("find_references", references).await;
    assert_eq!(fresh["totalCount"], json!(9));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn hard_caps_fail_deterministically_and_the_service_goes_on() {
    let shop = Fixture::copy("Shop");
    let env = [
        ("ROSLYN_MCP_MAX_PAGE_SIZE", "5"),
        ("ROSLYN_MCP_MAX_ITEMS", "2"),
        ("ROSLYN_MCP_MAX_TOTAL_ITEMS", "8"),
        ("ROSLYN_MCP_MAX_RESPONSE_BYTES", "3000"),
    ];
    let server = Server::start_with_env(&shop.root, &env).await;
    let calculator = shop.file("src/Shop.Core/Services/PriceCalculator.cs");

    // A page never holds more than the cap, whatever the client asks.
    let symbols = server.ok("get_document_symbols", json!({"filePath": calculator, "pageSize": 50})).await;
    assert_eq!((symbols["symbols"].as_array().map(Vec::len), symbols["totalCount"].clone()), (Some(5), json!(6)));
    assert!(symbols["nextCursor"].is_string());

    // Customer has 9 references: over the total cap of 8, an error rather than a cut list.
    let total = server
        .fails("find_references", json!({"filePath": shop.file(CUSTOMER), "line": 6, "column": 14}), "CAP_EXCEEDED")
        .await;
    assert_eq!((total["details"]["cap"].clone(), total["details"]["actual"].clone()), (json!("totalItems"), json!(9)));

    // Three overloads in a list that is not paged, over the item cap of 2.
    let items = server
        .fails("get_method_overloads", json!({"filePath": calculator, "line": 11, "column": 24}), "CAP_EXCEEDED")
        .await;
    assert_eq!(items["details"]["cap"], json!("items"));

    // Customer's seven instance members, with signatures and documentation, take more than 3000 bytes.
    let (line, column) = shop.position_of(PROGRAM, "found =", 0);
    let bytes = server
        .fails(
            "get_available_members",
            json!({"filePath": shop.file(PROGRAM), "line": line, "column": column, "includeStatic": false}),
            "CAP_EXCEEDED",
        )
        .await;
    assert_eq!(bytes["details"]["cap"], json!("responseBytes"));
    assert!(bytes["details"]["actual"].as_u64().expect("size") > 3000);

    // The same question twice fails the same way, and the service answers on.
    let again = server
        .fails("find_references", json!({"filePath": shop.file(CUSTOMER), "line": 6, "column": 14}), "CAP_EXCEEDED")
        .await;
    assert_eq!(again, total);
    let definition =
        server.ok("find_symbol_definition", json!({"filePath": calculator, "line": 23, "column": 31})).await;
    assert_eq!(definition["symbolInfo"]["name"], json!("Round"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_read_over_the_time_limit_is_cancelled_with_timeout() {
    let shop = Fixture::copy("Shop");
    let env = [("ROSLYN_MCP_REQUEST_TIMEOUT_SECS", "1"), ("ROSLYN_MCP_FAULT_READ_DELAY_MS", "5000")];
    let server = Server::start_with_env(&shop.root, &env).await;
    let arguments = json!({"query": "Customer", "solutionPath": shop.file("Shop.sln")});
    let outcome = server.call("search_symbols", arguments).await;
    assert_eq!(outcome.value["error"]["code"], json!("TIMEOUT"), "{:?}", outcome.value);
    assert!(outcome.value["error"]["message"].as_str().expect("message").contains('1'), "{:?}", outcome.value);
    // The request waited in the host for its whole limit, and the answer's timing says so.
    assert!(outcome.host_ms >= 1000.0, "a TIMEOUT answer reports {} ms in the host", outcome.host_ms);
    let diagnose = server.ok("diagnose", json!({})).await;
    assert_eq!(diagnose["workspaces"][0]["state"], json!("Ready"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_to_the_catalog_gets_its_code_and_changes_nothing() {
    let (shop, server) = shared::session("Shop").await;
    let program = shop.file(PROGRAM);
    let solution = shop.file("Shop.sln");
    let cases = [
        ("search_symbols", json!({"query": "   ", "solutionPath": solution}), "INVALID_PARAMETER"),
        ("search_symbols", json!({"query": 7, "solutionPath": solution}), "INVALID_PARAMETER"),
        ("search_symbols", json!({"query": "A", "bogus": true}), "INVALID_PARAMETER"),
        ("search_symbols", json!({"query": "A", "solutionPath": solution, "cursor": "%%%"}), "CURSOR_INVALID"),
        ("search_symbols", json!({"query": "A", "solutionPath": solution, "pageSize": 0}), "INVALID_PARAMETER"),
        ("search_symbols", json!({"query": "A", "solutionPath": solution, "pageSize": "ten"}), "INVALID_PARAMETER"),
        ("get_document_symbols", json!({"filePath": shop.file("src/Nope.cs")}), "SOURCE_FILE_NOT_FOUND"),
        ("get_document_symbols", json!({"filePath": program, "line": 3}), "INVALID_PARAMETER"),
        ("get_available_members", json!({"filePath": program, "line": 0, "column": 1}), "INVALID_LINE_NUMBER"),
        (
            "get_available_members",
            json!({"filePath": program, "line": 1, "column": 1, "filter": 3}),
            "INVALID_PARAMETER",
        ),
        ("get_method_overloads", json!({"filePath": program, "line": 9999, "column": 1}), "INVALID_LINE_NUMBER"),
        ("find_implementations", json!({"solutionPath": solution}), "MISSING_REQUIRED_PARAM"),
        ("find_implementations", json!({"typeName": "  ", "solutionPath": solution}), "INVALID_SYMBOL_NAME"),
        (
            "find_implementations",
            json!({"typeName": "X", "filePath": program, "line": 1, "column": 1}),
            "INVALID_PARAMETER",
        ),
        ("find_implementations", json!({"filePath": program, "line": 1}), "MISSING_REQUIRED_PARAM"),
        ("find_implementations", json!({"typeName": "Shop.Nope", "solutionPath": solution}), "SYMBOL_NOT_FOUND"),
        (
            "get_type_hierarchy",
            json!({"typeName": "Shop.Core.Models.Customer", "direction": "Sideways"}),
            "INVALID_PARAMETER",
        ),
        ("get_call_hierarchy", json!({"filePath": program, "line": 1, "column": "a"}), "INVALID_POSITION"),
        (
            "get_call_hierarchy",
            json!({"filePath": program, "line": 13, "column": 17, "direction": "Up"}),
            "INVALID_PARAMETER",
        ),
        ("find_type_definition", json!({"filePath": program, "line": 1, "column": 500}), "INVALID_POSITION"),
        (
            "analyze_code_block",
            json!({"filePath": program, "line": 13, "column": 1, "code": "  "}),
            "INVALID_PARAMETER",
        ),
        ("analyze_code_block", json!({"filePath": program, "line": 13, "column": 1}), "MISSING_REQUIRED_PARAM"),
        (
            "analyze_code_block",
            json!({"filePath": program, "line": 13, "column": 1, "code": "x".repeat(70_000)}),
            "CAP_EXCEEDED",
        ),
        ("get_compilation_diagnostics", json!({"filePath": program, "project": "Shop.App"}), "INVALID_PARAMETER"),
        ("get_compilation_diagnostics", json!({"minSeverity": "fatal", "solutionPath": solution}), "INVALID_PARAMETER"),
    ];
    let before = crate::support::tree(&shop.root);
    for (tool, arguments, code) in cases {
        server.fails(tool, arguments, code).await;
    }
    crate::support::assert_same_tree(&before, &shop.root, "bad input");
    let symbols = server.ok("get_document_symbols", json!({"filePath": program})).await;
    assert!(symbols["totalCount"].as_u64().expect("count") > 0);
}
