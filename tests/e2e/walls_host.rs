//! Hostile input against the Roslyn host: a snippet or a file nested deep enough to overflow a stack is
//! answered and the host lives on; a request that kills the host anyway is not sent to its successor; a
//! crash's trace does not flood the log; a host that stops answering is reported, not called healthy.

use crate::support::{Fixture, Server, eventually};
use serde_json::{Value, json};
use std::time::Duration;

/// Alpha with a method body to insert snippets into, at the start of its `return` line.
fn alpha_with_a_method() -> (Fixture, String, u32, u32) {
    let alpha = Fixture::copy("tiny/Alpha");
    let source = "namespace Alpha;\n\npublic class AlphaThing\n{\n    public int Value => 1;\n\n    public int Run()\n    {\n        return Value;\n    }\n}\n";
    std::fs::write(alpha.path("Alpha.cs"), source).expect("write Alpha.cs");
    let file = alpha.file("Alpha.cs");
    (alpha, file, 9, 9)
}

/// `var f = () => () => ... => 0;`, `depth` lambdas deep.
fn nested_lambdas(depth: usize) -> String {
    format!("var f = {}0;\n", "() => ".repeat(depth))
}

/// `var b = !!!...!true;`, `depth` negations deep: the deepest tree that fits under the snippet cap.
fn nested_negations(depth: usize) -> String {
    format!("var b = {}true;\n", "!".repeat(depth))
}

async fn host_pid(server: &Server, solution: &std::path::Path) -> u64 {
    let status = server.workspace_status(solution).await.expect("the solution is loaded");
    status["hostPid"].as_u64().unwrap_or_else(|| panic!("no hostPid in {status}"))
}

/// The call is answered: a result, or a refusal naming the nesting limit. Never a dead host.
fn answered_or_refused_for_depth(tool: &str, outcome: &crate::support::Outcome) {
    if outcome.is_error {
        let error = &outcome.value["error"];
        assert_eq!(error["code"], json!("INVALID_PARAMETER"), "{tool}: {error}");
        assert!(error["message"].as_str().unwrap_or_default().contains("nest"), "{tool}: {error}");
        assert!(error["details"]["limit"].as_u64().is_some(), "{tool}: {error}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_snippet_nested_thousands_deep_is_refused_and_the_host_lives_on() {
    let (alpha, file, line, column) = alpha_with_a_method();
    let solution = alpha.path("Alpha.csproj");
    let server = Server::start(&alpha.root, &[]).await;
    let definition = json!({"filePath": file, "line": 3, "column": 14});
    let before = server.ok("find_symbol_definition", definition.clone()).await;
    let pid = host_pid(&server, &solution).await;

    for code in [nested_lambdas(5_000), nested_negations(50_000)] {
        let refused = server
            .fails(
                "analyze_code_block",
                json!({"filePath": file, "line": line, "column": column, "code": code}),
                "INVALID_PARAMETER",
            )
            .await;
        assert!(refused["message"].as_str().unwrap_or_default().contains("nest"), "{refused}");
        assert_eq!(refused["details"]["parameter"], json!("code"), "{refused}");
        assert!(refused["details"]["depth"].as_u64() > refused["details"]["limit"].as_u64(), "{refused}");
    }
    assert_eq!(host_pid(&server, &solution).await, pid, "the host was restarted: log {}", server.log.display());

    // Ordinary nesting is analysed as before.
    let shallow = server
        .ok("analyze_code_block", json!({"filePath": file, "line": line, "column": column, "code": nested_lambdas(40)}))
        .await;
    assert_eq!(shallow["compiles"], json!(true), "{shallow}");
    assert_eq!(server.ok("find_symbol_definition", definition).await, before);
    assert_eq!(host_pid(&server, &solution).await, pid);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_source_file_nested_thousands_deep_never_kills_the_host() {
    let (alpha, file, _, _) = alpha_with_a_method();
    let deep = format!(
        "namespace Alpha;\n\npublic static class Deep\n{{\n    public static int Parentheses() => {}0{};\n    public static bool Negations() => {}true;\n}}\n",
        "(".repeat(5_000),
        ")".repeat(5_000),
        "!".repeat(10_000)
    );
    std::fs::write(alpha.path("Deep.cs"), deep).expect("write Deep.cs");
    let deep_file = alpha.file("Deep.cs");
    let solution = alpha.path("Alpha.csproj");
    let server = Server::start(&alpha.root, &[]).await;
    let definition = json!({"filePath": file, "line": 3, "column": 14});
    let before = server.ok("find_symbol_definition", definition.clone()).await;
    let pid = host_pid(&server, &solution).await;

    let calls: [(&str, Value); 4] = [
        ("get_compilation_diagnostics", json!({"filePath": deep_file})),
        ("get_compilation_diagnostics", json!({"solutionPath": solution})),
        ("get_document_symbols", json!({"filePath": deep_file})),
        ("find_references", json!({"filePath": file, "line": 3, "column": 14})),
    ];
    for (tool, arguments) in calls {
        let outcome = server.call(tool, arguments).await;
        answered_or_refused_for_depth(tool, &outcome);
        assert_eq!(host_pid(&server, &solution).await, pid, "{tool} restarted the host: log {}", server.log.display());
    }
    assert_eq!(server.ok("find_symbol_definition", definition).await, before);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_that_killed_the_host_is_not_sent_again_and_its_trace_is_cut_short() {
    let (alpha, file, line, column) = alpha_with_a_method();
    let solution = alpha.path("Alpha.csproj");
    // The fault knob: a snippet containing this text makes the host print a 100,000-line trace and die.
    let server = Server::start_with_env(&alpha.root, &[("ROSLYN_MCP_FAULT_CRASH_ON_CODE", "KILL_THE_HOST")]).await;
    let definition = json!({"filePath": file, "line": 3, "column": 14});
    let before = server.ok("find_symbol_definition", definition.clone()).await;
    let first = host_pid(&server, &solution).await;

    let killer = json!({"filePath": file, "line": line, "column": column, "code": "var KILL_THE_HOST = 1;"});
    let error = server.fails("analyze_code_block", killer, "ROSLYN_ERROR").await;
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("died while answering") && message.contains("not retried"), "{error}");
    assert_eq!(error["details"]["retried"], json!(false), "{error}");

    // The next call gets a new host; the killing request was sent to the first one only.
    assert_eq!(server.ok("find_symbol_definition", definition).await, before);
    let status = server.workspace_status(&solution).await.expect("Alpha is loaded");
    assert_eq!((status["state"].clone(), status["hostRestarts"].clone()), (json!("Ready"), json!(1)), "{status}");
    assert_ne!(status["hostPid"].as_u64(), Some(first));
    let log = std::fs::read_to_string(&server.log).expect("read the log");
    assert_eq!(log.matches("fault: crashing on request").count(), 1, "log: {}", server.log.display());

    // 100,000 trace lines (about 6 MB) arrive as their first lines and a count.
    assert!(log.contains("more lines omitted"), "log: {}", server.log.display());
    assert!(log.matches("at RoslynMcp.Host.Fault").count() <= 200, "log: {}", server.log.display());
    assert!(log.len() < 1 << 20, "the log holds {} bytes: {}", log.len(), server.log.display());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_host_is_reported_unresponsive_until_it_continues() {
    let (alpha, file, _, _) = alpha_with_a_method();
    let solution = alpha.path("Alpha.csproj");
    let server = Server::start(&alpha.root, &[]).await;
    let definition = json!({"filePath": file, "line": 3, "column": 14});
    let before = server.ok("find_symbol_definition", definition.clone()).await;
    let pid = host_pid(&server, &solution).await;

    signal(pid, "-STOP");
    let stopped = eventually(Duration::from_secs(60), || async {
        let diagnose = server.ok("diagnose", json!({})).await;
        let state = diagnose["workspaces"][0]["state"].clone();
        (state == json!("Unresponsive")).then_some(diagnose)
    })
    .await;
    signal(pid, "-CONT");
    let stopped = stopped.expect("diagnose never reported the stopped host as unresponsive");
    assert_eq!(stopped["healthy"], json!(false), "{stopped}");
    assert_eq!(stopped["workspaces"][0]["hostPid"].as_u64(), Some(pid), "{stopped}");
    assert!(stopped["errors"].to_string().contains("does not answer"), "{stopped}");

    let resumed = eventually(Duration::from_secs(60), || async {
        let diagnose = server.ok("diagnose", json!({})).await;
        (diagnose["workspaces"][0]["state"] == json!("Ready")).then_some(diagnose)
    })
    .await
    .expect("diagnose never reported the continued host as ready");
    assert_eq!(resumed["healthy"], json!(true), "{resumed}");
    assert_eq!(server.ok("find_symbol_definition", definition).await, before);
    assert_eq!(host_pid(&server, &solution).await, pid);
    server.stop().await;
}

fn signal(pid: u64, which: &str) {
    let status = std::process::Command::new("kill").args([which, &pid.to_string()]).status().expect("kill");
    assert!(status.success(), "kill {which} {pid}");
}
