//! Bad input gets `isError: true` with its catalog code, and the service goes on answering.

use crate::support::{Fixture, Server, shared};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn every_bad_input_gets_its_catalog_code_and_the_service_goes_on() {
    let shop = Fixture::copy("Shop");
    let server = Server::start(&shop.root, &[]).await;
    let program = shop.file("src/Shop.App/Program.cs");
    let good = json!({"filePath": program, "line": 15, "column": 13});
    server.ok("get_type_at_position", good.clone()).await;

    let missing =
        server.fails("get_type_at_position", json!({"filePath": program, "line": 15}), "MISSING_REQUIRED_PARAM").await;
    assert_eq!(missing["details"]["field"], json!("column"));
    let unknown = server
        .fails(
            "find_references",
            json!({"filePath": program, "line": 15, "column": 13, "colour": "red"}),
            "INVALID_PARAMETER",
        )
        .await;
    assert_eq!(unknown["details"]["field"], json!("colour"));
    server
        .fails("find_symbol_definition", json!({"filePath": program, "line": 0, "column": 1}), "INVALID_LINE_NUMBER")
        .await;
    server
        .fails("find_symbol_definition", json!({"filePath": program, "line": -3, "column": 1}), "INVALID_LINE_NUMBER")
        .await;
    let past_end = server
        .fails("get_type_at_position", json!({"filePath": program, "line": 9999, "column": 1}), "INVALID_LINE_NUMBER")
        .await;
    // 36 lines of text and the empty one after the final newline, as Roslyn counts them.
    assert_eq!(past_end["details"]["lineCount"], json!(37));
    server
        .fails("get_type_at_position", json!({"filePath": program, "line": 15, "column": 500}), "INVALID_POSITION")
        .await;
    server
        .fails("get_type_at_position", json!({"filePath": program, "line": 15, "column": 0}), "INVALID_POSITION")
        .await;
    server
        .fails("get_type_at_position", json!({"filePath": program, "line": 16, "column": 1}), "SYMBOL_NOT_FOUND")
        .await;
    server
        .fails(
            "get_type_at_position",
            json!({"filePath": shop.file("src/Nope.cs"), "line": 1, "column": 1}),
            "SOURCE_FILE_NOT_FOUND",
        )
        .await;
    server
        .fails("get_type_at_position", json!({"filePath": "  ", "line": 1, "column": 1}), "INVALID_SOURCE_PATH")
        .await;
    server
        .fails(
            "find_references",
            json!({"filePath": program, "line": 15, "column": 13, "pageSize": 0}),
            "INVALID_PARAMETER",
        )
        .await;

    // A file outside the solution's folder is refused, even when it exists.
    let outside = shop.root.parent().expect("temp dir").join("Outside.cs");
    std::fs::write(&outside, "class Outside {}\n").expect("write outside file");
    let refused = server
        .fails(
            "get_type_at_position",
            json!({"filePath": outside.display().to_string(), "line": 1, "column": 7, "solutionPath": shop.file("Shop.sln")}),
            "SOURCE_NOT_IN_WORKSPACE",
        )
        .await;
    assert!(refused["message"].as_str().expect("message").contains("outside the workspace"));
    // A file inside the folder that no project compiles is not part of the solution.
    let stray = shop.path("Stray.cs");
    std::fs::write(&stray, "class Stray {}\n").expect("write stray file");
    server
        .fails(
            "get_type_at_position",
            json!({"filePath": stray.display().to_string(), "line": 1, "column": 7}),
            "SOURCE_NOT_IN_WORKSPACE",
        )
        .await;

    server.fails("diagnose", json!({"verbose": "yes"}), "INVALID_PARAMETER").await;
    server.fails("initialize_workspace", json!({"workingDirectory": "/no/such/dir"}), "SOLUTION_NOT_FOUND").await;

    // The service is still healthy after all of that.
    let answer = server.ok("get_type_at_position", good).await;
    assert_eq!(answer["fullTypeName"], json!("Shop.Core.Models.Customer"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tools_publish_strict_schemas_and_annotations() {
    let (_, server) = shared::session("Shop").await;
    let tools = server.tools().await;
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    // diagnose lists exactly the tools the service serves.
    let diagnose = server.ok("diagnose", json!({})).await;
    let mut capabilities: Vec<&str> =
        diagnose["capabilities"].as_array().expect("capabilities").iter().filter_map(Value::as_str).collect();
    capabilities.sort_unstable();
    assert_eq!(capabilities, names);
    assert_eq!(
        names,
        [
            "analyze_code_block",
            "apply_code_action",
            "apply_plan",
            "change_signature",
            "compare_public_api",
            "diagnose",
            "find_implementations",
            "find_references",
            "find_replace",
            "find_symbol_definition",
            "find_tests",
            "find_type_definition",
            "format_document",
            "get_available_members",
            "get_call_hierarchy",
            "get_code_actions",
            "get_compilation_diagnostics",
            "get_document_symbols",
            "get_job",
            "get_method_overloads",
            "get_project_graph",
            "get_public_api",
            "get_symbol_source",
            "get_type_at_position",
            "get_type_hierarchy",
            "initialize_workspace",
            "list_generated_documents",
            "list_operations",
            "move_files",
            "move_type_to_file",
            "move_type_to_namespace",
            "organize_usings",
            "read_source",
            "redo",
            "remove_unused",
            "rename_file",
            "rename_symbol",
            "run_tests",
            "safe_delete",
            "search_symbols",
            "sync_namespaces",
            "undo"
        ]
    );
    const WRITES: [&str; 16] = [
        "apply_code_action",
        "apply_plan",
        "change_signature",
        "find_replace",
        "format_document",
        "move_files",
        "move_type_to_file",
        "move_type_to_namespace",
        "organize_usings",
        "redo",
        "remove_unused",
        "rename_file",
        "rename_symbol",
        "safe_delete",
        "sync_namespaces",
        "undo",
    ];
    for tool in &tools {
        // The schemas leave `additionalProperties: false` out for weight; every tool still refuses what it does not take.
        let unknown = server.fails(&tool.name, json!({"colour": "red"}), "INVALID_PARAMETER").await;
        assert_eq!(unknown["details"]["field"], json!("colour"), "{}", tool.name);
        assert!(tool.output_schema.is_some(), "{} has no outputSchema", tool.name);
        let annotations = tool.annotations.as_ref().expect("annotations");
        let writes = WRITES.contains(&tool.name.as_ref());
        // run_tests runs the repository's code, which may do anything: neither read-only nor closed.
        let runs_code = tool.name == "run_tests";
        // get_job may stop the work of another call.
        let stops_work = tool.name == "get_job";
        assert_eq!(annotations.read_only_hint, Some(!writes && !runs_code && !stops_work), "{}", tool.name);
        let properties = tool.input_schema.get("properties").and_then(|p| p.as_object()).expect("properties");
        // Every list that can grow with the solution pages.
        if tool
            .output_schema
            .as_ref()
            .is_some_and(|s| Value::Object(s.as_ref().clone()).to_string().contains("nextCursor"))
        {
            assert!(properties.contains_key("cursor") && properties.contains_key("pageSize"), "{}", tool.name);
        }
        assert_eq!(annotations.open_world_hint, Some(runs_code), "{}", tool.name);
        if writes {
            // They transform code, lose nothing (every change is previewable and atomic) and are not repeatable.
            assert_eq!(annotations.destructive_hint, Some(false), "{}", tool.name);
            assert_eq!(annotations.idempotent_hint, Some(false), "{}", tool.name);
        }
        if tool.name.starts_with("move_type_") {
            assert_eq!(properties["symbolName"]["pattern"], json!(protocol::tools::moves::NAME_PATTERN));
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_host_or_sdk_is_reported_by_diagnose_and_by_every_call() {
    let alpha = Fixture::copy("tiny/Alpha");
    let question = json!({"filePath": alpha.file("Alpha.cs"), "line": 3, "column": 14});

    let no_host =
        Server::start_with_env(&alpha.root, &[("ROSLYN_MCP_HOST_DLL", "/nonexistent/RoslynMcp.Host.dll")]).await;
    let diagnose = no_host.ok("diagnose", json!({})).await;
    assert_eq!(diagnose["healthy"], json!(false));
    assert_eq!(diagnose["components"]["roslynAvailable"], json!(false));
    assert_eq!(diagnose["errors"][0]["code"], json!("ROSLYN_NOT_AVAILABLE"), "{diagnose}");
    assert_eq!(diagnose["capabilities"], json!(["diagnose"]));
    let refused = no_host.fails("find_symbol_definition", question.clone(), "ROSLYN_NOT_AVAILABLE").await;
    assert!(refused["message"].as_str().expect("message").contains("/nonexistent/RoslynMcp.Host.dll"));
    no_host.stop().await;

    let no_sdk =
        Server::start_with_env(&alpha.root, &[("PATH", "/nonexistent"), ("DOTNET_ROOT", "/nonexistent")]).await;
    let diagnose = no_sdk.ok("diagnose", json!({})).await;
    assert_eq!(diagnose["components"]["dotnetSdkAvailable"], json!(false));
    assert_eq!(diagnose["errors"][0]["code"], json!("SDK_NOT_FOUND"), "{diagnose}");
    no_sdk.fails("find_symbol_definition", question, "SDK_NOT_FOUND").await;
    no_sdk.stop().await;
}
