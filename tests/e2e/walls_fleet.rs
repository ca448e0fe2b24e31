//! Walls of a daemon in a fleet: unknown sessions, duplicated headers, and a token children never see.

use crate::support::daemon::{StateDir, host_pids};
use crate::support::raw_session::RawSession;
use crate::support::stateless::{self, result_of};
use crate::support::{Fixture, SLOTS, children, eventually};
use reqwest::header::{AUTHORIZATION, HOST, HeaderMap, HeaderValue};
use serde_json::json;
use std::time::Duration;

/// A stateless call naming no solution must be refused as one, whatever session id it carries.
fn assert_names_no_solution(status: u16, body: &str, case: &str) {
    assert_eq!(status, 200, "{case}: {body}");
    let refused = result_of(body);
    assert_eq!(refused["isError"], json!(true), "{case}: {refused}");
    assert_eq!(refused["structuredContent"]["error"]["code"], json!("MISSING_REQUIRED_PARAM"), "{case}: {refused}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_made_up_session_is_not_found_and_a_request_without_one_never_loads_the_daemons_folder() {
    // The daemon's own folder holds a solution: nothing may stand in for the one a request does not name.
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut daemon = state
        .serve_command(&["--spare-host", "false"], &[])
        .current_dir(&shop.root)
        .spawn()
        .expect("spawn roslyn-mcp serve");
    let url = format!("{}/mcp", state.base_url().await);
    let token = state.token().expect("a token");
    let graph = |session: Option<&str>| {
        let request = stateless::request(&url, &token, "get_project_graph", json!({}), None);
        stateless::send(match session {
            Some(id) => request.header("Mcp-Session-Id", id),
            None => request,
        })
    };

    let (status, body) = graph(Some("0123456789abcdef0123456789abcdef")).await;
    assert_eq!(status, 404, "a made-up session: {body}");
    let (status, body) = graph(None).await;
    assert_names_no_solution(status, &body, "no session");
    // A real session's id does not make a 2026-07-28 request a call of that session.
    let session = RawSession::open(&state).await;
    let (status, body) = graph(Some(session.id())).await;
    assert_names_no_solution(status, &body, "another session's id");
    let (status, body) = graph(Some(&format!("{}x", session.id()))).await;
    assert_eq!(status, 404, "a session id one character off: {body}");

    let client = state.http_client(Some(&token)).await;
    let diagnose = client.ok("diagnose", json!({})).await;
    assert_eq!(diagnose["workspaces"], json!([]), "nothing loaded: {diagnose}");
    let daemon_pid = state.daemon_pid().await;
    let hosts: Vec<u32> =
        children(daemon_pid).into_iter().filter(|&pid| roslyn_host::has_argument(pid, "--socket")).collect();
    assert!(hosts.is_empty(), "no host started: {hosts:?}");
    state.terminate().await;
    daemon.wait().expect("the daemon exits");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_host_or_authorization_header_is_refused() {
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let base = state.base_url().await;
    let address = base.strip_prefix("http://").expect("http url").to_owned();
    let bearer = format!("Bearer {}", state.token().expect("a token"));
    let get = |path: &str, hosts: &[&str], tokens: &[&str]| {
        let mut headers = HeaderMap::new();
        for (name, values) in [(HOST, hosts), (AUTHORIZATION, tokens)] {
            for value in values {
                headers.append(name.clone(), HeaderValue::from_str(value).expect("header value"));
            }
        }
        let request = reqwest::Client::new().get(format!("{base}{path}")).headers(headers);
        async move {
            let response = request.send().await.expect("GET");
            (response.status().as_u16(), response.text().await.expect("body"))
        }
    };

    assert_eq!(get("/metrics", &[&address], &[&bearer]).await.0, 200, "one of each");
    // The proxy may route and authorize by one copy and the daemon read the other.
    for path in ["/metrics", "/healthz"] {
        let (status, body) = get(path, &[&address, "evil.example"], &[&bearer]).await;
        assert_eq!(status, 400, "{path}, Host good then evil: {body}");
        assert!(body.contains("host"), "{body}");
    }
    for tokens in [[bearer.as_str(), "Bearer guessed"], ["Bearer guessed", bearer.as_str()]] {
        let (status, body) = get("/metrics", &[&address], &tokens).await;
        assert_eq!(status, 400, "{tokens:?}: {body}");
        assert!(body.contains("authorization"), "{body}");
    }
    state.terminate().await;
    daemon.wait().expect("the daemon exits");
}

/// The daemon's descendants that have a token variable in their environment, with the variable.
fn holding_the_token(pid: u32) -> Vec<(u32, String)> {
    children(pid)
        .into_iter()
        .flat_map(|child| {
            let environ = std::fs::read(format!("/proc/{child}/environ")).unwrap_or_default();
            let own = environ
                .split(|b| *b == 0)
                .filter(|v| v.starts_with(b"ROSLYN_MCP_TOKEN"))
                .map(|v| (child, String::from_utf8_lossy(v).into_owned()));
            own.collect::<Vec<_>>().into_iter().chain(holding_the_token(child))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_test_run_and_the_hosts_never_see_the_daemons_token() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let leaky = Fixture::copy("Leaky");
    let state = StateDir::default();
    let secret = "fleet-token-0f3c9a7d5e21b846";
    let token_file = state.path().join("fleet-token");
    std::fs::write(&token_file, secret).expect("token file");
    let token_file = token_file.display().to_string();
    let env = [
        ("ROSLYN_MCP_TOKEN", secret),
        ("ROSLYN_MCP_TOKEN_FILE", token_file.as_str()),
        ("ROSLYN_MCP_SPARE_HOST", "true"),
    ];
    let mut daemon = state.serve(&[], &env);
    let client = state.http_client(Some(secret)).await;

    let test = "Leaky.Tests.EnvironmentTests.ShowsTheToken";
    let run = client.ok("run_tests", json!({"solutionPath": leaky.file("Leaky.slnx"), "tests": [test]})).await;
    let failed = run["results"].as_array().expect("results").iter().find(|r| r["test"] == test).expect("its result");
    assert_eq!(failed["outcome"], json!("failed"), "{run}");
    let message = failed["message"].as_str().expect("a message");
    assert!(message.contains("token=[] file=[]"), "the test read the token's variables: {message}");
    assert!(!run.to_string().contains(secret), "{run}");

    // The solution's host and the spare beside it run the projects' MSBuild code: neither holds the token.
    let daemon_pid = state.daemon_pid().await;
    let diagnose = eventually(Duration::from_secs(60), || async {
        let diagnose = client.ok("diagnose", json!({})).await;
        diagnose["spareHost"]["hostPid"].is_u64().then_some(diagnose)
    })
    .await
    .expect("a spare host");
    let mut hosts = host_pids(&diagnose);
    hosts.extend(diagnose["spareHost"]["hostPid"].as_u64().map(|p| p as u32));
    assert_eq!(hosts.len(), 2, "{diagnose}");
    for host in &hosts {
        let environ = std::fs::read(format!("/proc/{host}/environ")).expect("the host's environment");
        assert!(environ.split(|b| *b == 0).any(|v| v.starts_with(b"DOTNET_NOLOGO=")), "readable: {host}");
        assert!(!environ.windows(secret.len()).any(|w| w == secret.as_bytes()), "host {host}");
    }
    let leaks = holding_the_token(daemon_pid);
    assert_eq!(leaks, Vec::<(u32, String)>::new(), "processes the daemon started");
    state.terminate().await;
    daemon.wait().expect("the daemon exits");
}
