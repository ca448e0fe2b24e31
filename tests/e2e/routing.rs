//! 2026-07-28 routing headers (SEP-2243): every tool that takes `solutionPath` marks it `x-mcp-header:
//! SolutionPath`, so clients mirror it into `Mcp-Param-SolutionPath` for a proxy to route on; the daemon refuses
//! a request whose header does not say what its body does, as the revision requires, so a proxy and the daemon
//! can never disagree on the solution a call is for. A request without a session names its solution: nothing
//! another call set (a session's default) nor the daemon's folder stands in for it.

use crate::support::Fixture;
use crate::support::daemon::StateDir;
use crate::support::stateless::{self, result_of};
use base64::Engine;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn the_solution_header_is_declared_and_must_say_what_the_body_says() {
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let url = format!("{}/mcp", state.base_url().await);
    let token = state.token().expect("a token");

    let client = state.http_client(Some(&token)).await;
    let tools = client.tools().await;
    let declaring: Vec<&str> = tools
        .iter()
        .filter(|t| t.input_schema.get("properties").and_then(|p| p.get("solutionPath")).is_some())
        .map(|t| t.name.as_ref())
        .collect();
    assert!(declaring.len() > 30, "{declaring:?}");
    for tool in &tools {
        if let Some(solution) = tool.input_schema.get("properties").and_then(|p| p.get("solutionPath")) {
            assert_eq!(solution["x-mcp-header"], json!("SolutionPath"), "{}", tool.name);
        }
    }

    let solution = shop.file("Shop.sln");
    // Loaded first by a client that follows a load's job, so that the calls below, which do not, find it
    // loaded however busy the machine is.
    client.ok("get_project_graph", json!({"solutionPath": solution})).await;
    let call = |arguments: Value, header: Option<String>| {
        let (url, token) = (url.clone(), token.clone());
        async move { stateless::call(&url, &token, "get_project_graph", arguments, Some(header)).await }
    };

    let named = json!({"solutionPath": solution});
    let other = shop.file("Other.sln");
    for (header, case) in [(Some(other), "another solution"), (None, "no header")] {
        let (status, body) = call(named.clone(), header).await;
        assert_eq!(status, 400, "{case}: {body}");
        assert!(body.contains("-32020"), "{case}: HeaderMismatch: {body}");
    }
    let encoded = format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(&solution));
    for header in [solution.clone(), encoded] {
        let (status, body) = call(named.clone(), Some(header)).await;
        assert_eq!(status, 200, "{body}");
        let result = result_of(&body);
        assert_eq!(result["isError"], json!(false), "{result}");
        assert_eq!(result["structuredContent"]["totalCount"], json!(3), "{result}");
    }

    // A session's default (set by initialize_workspace) serves that session, and no request without one.
    client.ok("initialize_workspace", json!({"workingDirectory": shop.root})).await;
    assert_eq!(client.ok("get_project_graph", json!({})).await["totalCount"], json!(3));
    let (status, body) = call(json!({}), None).await;
    assert_eq!(status, 200, "{body}");
    let refused = result_of(&body);
    assert_eq!(refused["isError"], json!(true), "{refused}");
    assert_eq!(refused["structuredContent"]["error"]["code"], json!("MISSING_REQUIRED_PARAM"), "{refused}");
    assert!(refused["structuredContent"]["error"]["suggestions"].to_string().contains("solutionPath"), "{refused}");
    state.terminate().await;
    daemon.wait().expect("the daemon exits");
}
