//! Calls that outlast a client's time limit, as each kind of client meets them: a test run past the answer
//! bound answers `running` with its job and goes on; another session of the same user (a bridge that
//! reconnected) collects its answer with get_job, or stops it; a client that declares the Tasks extension
//! gets a task it polls with tasks/get or stops with tasks/cancel (the MCP Inspector's CLI among them); another
//! local user can neither see nor stop either; a call waiting for its solution to load says LOADING. The fault knob (tests/fixtures/Tested: hang.fault beside a test's source) makes the run last as
//! long as the test says, without racing the clock.

use crate::support::daemon::{StateDir, signal};
use crate::support::other_user::OtherUser;
use crate::support::raw_session::{RawSession, events};
use crate::support::{Fixture, SLOTS, Server, eventually, nothing_left_running, processes_mentioning};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

const HANGS: &str = "Pricing.NunitTests.DiscountTests.HangsWhenAsked";
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// How long HangsWhenAsked lasts: `seconds`, or until the knob goes (`None`).
fn hang(fixture: &Fixture, seconds: Option<u32>) {
    let knob = fixture.path("Pricing.NunitTests/hang.fault");
    std::fs::write(knob, seconds.map(|s| s.to_string()).unwrap_or_default()).expect("knob");
}

/// Whether the NUnit test host of a run under `state` is running.
async fn testing(state: &Path) -> bool {
    let artifacts = state.join("test-runs").display().to_string();
    let started = eventually(Duration::from_secs(180), || async {
        processes_mentioning(&artifacts).iter().any(|p| p.contains("Pricing.NunitTests.dll")).then_some(())
    });
    started.await.is_some()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_past_the_answer_bound_goes_on_as_a_job_that_another_session_collects_or_stops() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    let first = state.bridge_env(&fixture.root, &[("ROSLYN_MCP_ANSWER_WITHIN_SECS", "5")]).await;
    // Loaded first (followed through its job if the load outlasts the bound): the run below waits for no load.
    first.ok("initialize_workspace", json!({"workingDirectory": fixture.root})).await;
    hang(&fixture, Some(20));
    let running = first.call_once("run_tests", json!({"tests": [HANGS]})).await;
    assert!(!running.is_error, "{}", running.value);
    let job = running.value["jobId"].as_str().expect("a job id").to_owned();
    assert_eq!((&running.value["status"], &running.value["tool"]), (&json!("running"), &json!("run_tests")));
    let message = running.value["message"].as_str().expect("message");
    assert!(message.contains("get_job") && message.contains(&job), "the agent is told how to go on: {message}");
    assert!(running.service_ms < 20_000.0, "answered before the work ended: {} ms", running.service_ms);

    // The bridge goes away and another comes (a reconnect): the work went on, and the new session gets the answer.
    first.close().await;
    let second = state.bridge(&fixture.root).await;
    let mut answer = second.call_once("get_job", json!({"jobId": job})).await;
    while answer.value["status"] == "running" {
        assert!(answer.value["progress"]["steps"].as_u64() > Some(0), "progress so far: {}", answer.value);
        answer = second.call_once("get_job", json!({"jobId": job})).await;
    }
    assert!(!answer.is_error, "{}", answer.value);
    assert_eq!(answer.value["results"][0]["test"], HANGS, "{}", answer.value);
    assert_eq!(answer.value["results"][0]["outcome"], "passed", "{}", answer.value);
    assert!(answer.service_ms >= 20_000.0, "the timing is the whole work's: {} ms", answer.service_ms);
    // Kept after the end: asked again, the same answer.
    let again = second.ok("get_job", json!({"jobId": job, "waitSeconds": 0})).await;
    assert_eq!(again, answer.value);

    // A run that would never end, stopped from get_job: its processes go, and the job says it was cancelled.
    hang(&fixture, None);
    let running = second.call_once("run_tests", json!({"tests": [HANGS]})).await;
    assert_eq!(running.value["status"], "running", "{}", running.value);
    assert!(testing(state.path()).await, "the NUnit tests never started");
    let job = running.value["jobId"].clone();
    let stopped = second.ok("get_job", json!({"jobId": job, "cancel": true})).await;
    assert_eq!(stopped["status"], "cancelled", "{stopped}");
    nothing_left_running(state.path()).await;
    second.fails("get_job", json!({"jobId": "job.0123456789abcdef0123456789abcdef"}), "JOB_NOT_FOUND").await;
    second.close().await;
    state.terminate().await;
}

/// A 2026-07-28 request (no session): its body, declaring the Tasks extension when `tasks`, and its routing
/// headers (`Mcp-Method`, `Mcp-Name`, and the arguments marked x-mcp-header mirrored).
fn message(method: &str, name: &str, params: Value, tasks: bool) -> (String, Vec<(String, String)>) {
    let capabilities = if tasks { json!({"extensions": {TASKS: {}}}) } else { json!({}) };
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "roslyn-mcp-e2e", "version": "1"}
    });
    let mut headers = vec![
        ("Accept".to_owned(), "application/json, text/event-stream".to_owned()),
        ("Content-Type".to_owned(), "application/json".to_owned()),
        ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
        ("Mcp-Method".to_owned(), method.to_owned()),
        ("Mcp-Name".to_owned(), name.to_owned()),
    ];
    for (argument, header) in [("solutionPath", "Mcp-Param-SolutionPath"), ("jobId", "Mcp-Param-JobId")] {
        if let Some(value) = params["arguments"][argument].as_str() {
            headers.push((header.to_owned(), value.to_owned()));
        }
    }
    (json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string(), headers)
}

/// [`message`] to `url` with the bearer `token` (empty: none).
pub fn request(
    url: &str,
    token: &str,
    method: &str,
    name: &str,
    params: Value,
    tasks: bool,
) -> reqwest::RequestBuilder {
    let (body, headers) = message(method, name, params, tasks);
    let mut request = reqwest::Client::new().post(url).body(body);
    if !token.is_empty() {
        request = request.bearer_auth(token);
    }
    headers.into_iter().fold(request, |request, (header, value)| request.header(header, value))
}

/// A copy of Tested served over HTTP by a daemon that answers within 5 s, its solution loaded: the fixture, the
/// daemon's folder and process, its URL and its token.
async fn served() -> (Fixture, StateDir, std::process::Child, String, String) {
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    let daemon = state.serve(&[], &[("ROSLYN_MCP_ANSWER_WITHIN_SECS", "5")]);
    let url = format!("{}/mcp", state.base_url().await);
    let token = state.token().expect("token");
    load(&url, &token, &fixture.file("Tested.slnx")).await;
    (fixture, state, daemon, url, token)
}

/// Loads `solution` with a search, followed through its job while the load outlasts the answer bound.
async fn load(url: &str, token: &str, solution: &str) -> Value {
    let search = json!({"name": "search_symbols", "arguments": {"query": "Pricer", "solutionPath": solution}});
    let mut answer =
        answer_of(request(url, token, "tools/call", "search_symbols", search, false)).await["result"].clone();
    loop {
        let content = &answer["structuredContent"];
        let job = match (&content["status"], &content["error"]["code"]) {
            (status, _) if status == "running" => content["jobId"].clone(),
            (_, code) if code == "LOADING" => content["error"]["details"]["jobId"].clone(),
            _ => return answer,
        };
        let params = json!({"name": "get_job", "arguments": {"jobId": job}});
        answer = answer_of(request(url, token, "tools/call", "get_job", params, false)).await["result"].clone();
    }
}

pub async fn answer_of(request: reqwest::RequestBuilder) -> Value {
    message_of(&request.send().await.expect("POST").text().await.expect("body"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_declaring_tasks_polls_its_task_to_the_answer_or_cancels_it_and_others_get_a_job() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let (fixture, state, mut daemon, url, token) = served().await;
    let solution = fixture.file("Tested.slnx");
    let run = |tasks: bool| {
        let params = json!({"name": "run_tests", "arguments": {"tests": [HANGS], "solutionPath": solution}});
        request(&url, &token, "tools/call", "run_tests", params, tasks)
    };
    let task_get = |id: &str| request(&url, &token, "tasks/get", id, json!({"taskId": id}), true);

    hang(&fixture, Some(15));
    let created = answer_of(run(true)).await["result"].clone();
    assert_eq!(created["resultType"], "task", "{created}");
    assert_eq!(created["status"], "working", "{created}");
    let task = created["taskId"].as_str().expect("taskId").to_owned();
    assert!(created["pollIntervalMs"].as_u64().is_some() && created["ttlMs"].as_u64().is_some(), "{created}");
    let done = eventually(Duration::from_secs(300), || async {
        let state = answer_of(task_get(&task)).await["result"].clone();
        assert_ne!(state["status"], "failed", "{state}");
        (state["status"] == "completed").then_some(state)
    })
    .await
    .expect("the task completed");
    let result = &done["result"];
    assert_eq!(result["isError"], false, "{done}");
    assert_eq!(result["structuredContent"]["results"][0]["outcome"], "passed", "{done}");
    let total = result["_meta"]["roslyn-mcp/timing"]["totalMs"].as_f64().expect("timing");
    assert!(total >= 15_000.0, "the timing is the whole work's: {total} ms");

    // Cancelled through tasks/cancel: the run's processes go.
    hang(&fixture, None);
    let created = answer_of(run(true)).await["result"].clone();
    let task = created["taskId"].as_str().expect("taskId").to_owned();
    assert!(testing(state.path()).await, "the NUnit tests never started");
    let acknowledged = answer_of(request(&url, &token, "tasks/cancel", &task, json!({"taskId": task}), true)).await;
    assert!(acknowledged.get("error").is_none(), "{acknowledged}");
    nothing_left_running(state.path()).await;
    let cancelled = eventually(Duration::from_secs(30), || async {
        let state = answer_of(task_get(&task)).await["result"].clone();
        (state["status"] == "cancelled").then_some(())
    });
    assert!(cancelled.await.is_some(), "the task says it was cancelled");

    // A client that did not declare the extension never gets a task: the same call answers with its job.
    let working = answer_of(run(false)).await["result"].clone();
    assert_eq!(working["resultType"], "complete", "{working}");
    assert_eq!(working["structuredContent"]["status"], "running", "{working}");
    let job = working["structuredContent"]["jobId"].as_str().expect("jobId");
    let params = json!({"name": "get_job", "arguments": {"jobId": job, "cancel": true}});
    let stopped = answer_of(request(&url, &token, "tools/call", "get_job", params, false));
    assert_eq!(stopped.await["result"]["structuredContent"]["status"], "cancelled");
    nothing_left_running(state.path()).await;
    state.terminate().await;
    let _ = daemon.wait();
}

/// The job caps hold for calls that reach their answer bound together (a flood of one user's requests, each a
/// session of its own, all still working at the bound): as many as the user's cap go on as jobs, the others
/// are refused with TOO_MANY_REQUESTS and their work stopped.
#[tokio::test(flavor = "multi_thread")]
async fn calls_reaching_their_answer_bound_together_become_no_more_jobs_than_the_users_cap() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    // Every read waits 10 s in the host: each call is still working when its 2 s bound passes.
    let env = [("ROSLYN_MCP_ANSWER_WITHIN_SECS", "2"), ("ROSLYN_MCP_FAULT_READ_DELAY_MS", "10000")];
    let mut daemon = state.serve(&[], &env);
    let url = format!("{}/mcp", state.base_url().await);
    let token = state.token().expect("token");
    let solution = fixture.file("Tested.slnx");
    load(&url, &token, &solution).await;
    const CAP: usize = 32;
    let flood = (0..CAP + 4).map(|n| {
        let params =
            json!({"name": "search_symbols", "arguments": {"query": format!("Pricer{n}"), "solutionPath": solution}});
        answer_of(request(&url, &token, "tools/call", "search_symbols", params, false))
    });
    let answers: Vec<Value> = futures::future::join_all(flood).await.into_iter().map(|a| a["result"].clone()).collect();
    let jobs = answers.iter().filter(|a| a["structuredContent"]["status"] == "running").count();
    let refused: Vec<&Value> =
        answers.iter().filter(|a| a["structuredContent"]["error"]["code"] == "TOO_MANY_REQUESTS").collect();
    assert_eq!((jobs, refused.len()), (CAP, 4), "{answers:?}");
    assert_eq!(refused[0]["structuredContent"]["error"]["details"]["limit"], json!(CAP), "{:?}", refused[0]);
    assert_eq!(refused[0]["structuredContent"]["error"]["details"]["stopped"], json!(true), "{:?}", refused[0]);
    state.terminate().await;
    let _ = daemon.wait();
}

#[tokio::test(flavor = "multi_thread")]
async fn another_local_user_can_neither_see_nor_stop_a_job_on_a_port_open_to_every_local_user() {
    let Some(other) = OtherUser::new() else { return };
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    let mut daemon = state.serve(&["--http-open-to-local-users"], &[("ROSLYN_MCP_ANSWER_WITHIN_SECS", "3")]);
    let url = format!("{}/mcp", state.base_url().await);
    let solution = fixture.file("Tested.slnx");
    load(&url, "", &solution).await;
    hang(&fixture, None);
    let params = json!({"name": "run_tests", "arguments": {"tests": [HANGS], "solutionPath": solution}});
    let started = answer_of(request(&url, "", "tools/call", "run_tests", params, false)).await;
    let job =
        started["result"]["structuredContent"]["jobId"].as_str().unwrap_or_else(|| panic!("{started}")).to_owned();

    // The other user asks for it, tries to stop it, and polls it as a task, with the id in hand.
    let as_other = |method: &str, name: &str, params: Value| {
        let (body, headers) = message(method, name, params, true);
        let mut curl = other.std_command("curl");
        curl.args(["-s", "-X", "POST", &url, "-d", &body]);
        for (header, value) in &headers {
            curl.args(["-H", &format!("{header}: {value}")]);
        }
        message_of(&String::from_utf8_lossy(&curl.output().expect("curl as another user").stdout))
    };
    let asked = as_other("tools/call", "get_job", json!({"name": "get_job", "arguments": {"jobId": job}}));
    assert_eq!(asked["result"]["structuredContent"]["error"]["code"], "JOB_NOT_FOUND", "{asked}");
    let stop = json!({"name": "get_job", "arguments": {"jobId": job, "cancel": true}});
    let refused = as_other("tools/call", "get_job", stop);
    assert_eq!(refused["result"]["structuredContent"]["error"]["code"], "JOB_NOT_FOUND", "{refused}");
    let polled = as_other("tasks/get", &job, json!({"taskId": job}));
    assert!(polled.get("error").is_some(), "{polled}");
    let cancelled = as_other("tasks/cancel", &job, json!({"taskId": job}));
    assert!(cancelled.get("error").is_some(), "{cancelled}");

    // Still this user's, still running: this user stops it.
    let params = json!({"name": "get_job", "arguments": {"jobId": job, "waitSeconds": 0}});
    let mine = answer_of(request(&url, "", "tools/call", "get_job", params, false)).await;
    assert_eq!(mine["result"]["structuredContent"]["status"], "running", "{mine}");
    let params = json!({"name": "get_job", "arguments": {"jobId": job, "cancel": true}});
    let stopped = answer_of(request(&url, "", "tools/call", "get_job", params, false)).await;
    assert_eq!(stopped["result"]["structuredContent"]["status"], "cancelled", "{stopped}");
    nothing_left_running(state.path()).await;
    state.terminate().await;
    let _ = daemon.wait();
}

/// A whole JSON-RPC message, whether it came as JSON or as an SSE event.
fn message_of(body: &str) -> Value {
    let json = body.lines().find_map(|l| l.strip_prefix("data:")).map_or(body, str::trim);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// tests/clients/typescript installed once for the run (its `npm install`, which takes longer than either test
/// that uses it), or `None` when npm is missing (CI sets ROSLYN_MCP_REQUIRE_NODE=1, where that fails the test).
/// The install stays under `target/tmp/typescript-client` for the next run while its package.json is the same.
fn typescript_client() -> Option<&'static Path> {
    static CLIENT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    CLIENT.get_or_init(install_typescript_client).as_deref()
}

fn install_typescript_client() -> Option<PathBuf> {
    let npm = std::process::Command::new("npm").arg("--version").output().is_ok_and(|o| o.status.success());
    if !npm {
        assert!(std::env::var_os("ROSLYN_MCP_REQUIRE_NODE").is_none(), "node and npm are required here");
        eprintln!("skipped: node and npm are not installed");
        return None;
    }
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("typescript-client");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/clients/typescript");
    let manifest = std::fs::read(source.join("package.json")).expect("the client's package.json");
    let installed = std::fs::read(folder.join("package.json")).is_ok_and(|m| m == manifest)
        && folder.join("node_modules/.bin/mcp-inspector").exists();
    if !installed {
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).expect("client folder");
        std::fs::write(folder.join("package.json"), &manifest).expect("copy package.json");
        let status = std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent"])
            .current_dir(&folder)
            .status()
            .expect("npm install");
        assert!(status.success(), "npm install of the TypeScript SDK failed");
    }
    // The script is the source's own, whatever an earlier run copied.
    std::fs::copy(source.join("long_call.mjs"), folder.join("long_call.mjs")).expect("copy the client");
    Some(folder)
}

/// The MCP Inspector's CLI of `client` calling run_tests of HANGS (`target`: the server and how to reach it);
/// its printed result.
async fn inspector(client: &Path, target: &[&str]) -> Value {
    let output = tokio::process::Command::new(client.join("node_modules/.bin/mcp-inspector"))
        .arg("--cli")
        .args(target)
        .args(["--method", "tools/call", "--tool-name", "run_tests", "--tool-arg", &format!("tests=[\"{HANGS}\"]")])
        .output()
        .await
        .expect("the inspector");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = stdout.find('{').map_or("", |at| &stdout[at..]);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_mcp_inspector_cli_polls_a_task_in_a_2026_07_28_request_and_gets_a_job_in_an_older_session() {
    let Some(client) = typescript_client() else { return };
    let _slot = SLOTS.acquire().await.expect("slot");
    let (fixture, state, mut daemon, url, token) = served().await;
    hang(&fixture, Some(15));
    // 2026-07-28: the Inspector declares the extension in the request and settles the task it gets.
    let solution = format!("solutionPath={}", fixture.file("Tested.slnx"));
    let bearer = format!("Authorization: Bearer {token}");
    let modern = ["--protocol-era", "modern", "--header", &bearer, "--tool-arg", &solution];
    let ran = inspector(client, &[&[url.as_str()][..], &modern[..]].concat()).await;
    assert_eq!(ran["structuredContent"]["results"][0]["outcome"], "passed", "{ran}");
    assert!(state.serve_log().contains("task=true"), "the call became a task: {}", state.serve_log());
    // A 2025-11-25 session that declared the extension at initialize sends a plain tools/call: a job (the
    // answer of a run, or LOADING while the solution loads), which it reads.
    let own_state = tempfile::tempdir().expect("state");
    let own_state = format!("ROSLYN_MCP_STATE_DIR={}", own_state.path().display());
    let (bin, cwd) = (env!("CARGO_BIN_EXE_roslyn-mcp"), fixture.root.to_str().expect("utf-8"));
    let legacy = ["-e", "ROSLYN_MCP_ANSWER_WITHIN_SECS=1", "-e", &own_state, "--cwd", cwd, bin, "stdio", "--embedded"];
    let working = inspector(client, &legacy).await;
    let content = &working["structuredContent"];
    let job = content["jobId"].as_str().or(content["error"]["details"]["jobId"].as_str());
    assert!(job.is_some_and(|id| id.starts_with("job.")), "a job: {working}");
    state.terminate().await;
    let _ = daemon.wait();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_typescript_sdk_client_at_its_default_timeout_gets_a_90_second_run_through_its_job() {
    let Some(client) = typescript_client() else { return };
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    hang(&fixture, Some(90));
    // The service at its defaults too: the answer bound is 45 s.
    let output = tokio::process::Command::new("node")
        .arg(client.join("long_call.mjs"))
        .args([env!("CARGO_BIN_EXE_roslyn-mcp"), fixture.root.to_str().expect("utf-8"), HANGS])
        .envs(state.env())
        .output()
        .await
        .expect("node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_str(stdout.lines().last().expect("a report")).expect("JSON report");
    assert_eq!(report["loaded"], true, "{report}");
    assert_eq!(report["first"]["status"], "running", "{report}");
    assert!(report["polls"].as_u64() >= Some(1), "{report}");
    assert_eq!(report["isError"], false, "{report}");
    assert_eq!(report["results"][0]["test"], HANGS, "{report}");
    assert_eq!(report["results"][0]["outcome"], "passed", "{report}");
    assert!(report["totalMs"].as_f64() >= Some(90_000.0), "the timing is the whole run's: {report}");
    assert_eq!(report["sdkLines"], json!([]), "the SDK logged nothing: {report}");
    nothing_left_running(state.path()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_on_a_loading_solution_says_loading_with_its_job_and_initialize_workspace_answers_its_progress() {
    let fixture = Fixture::copy("tiny/Alpha");
    let state = tempfile::tempdir().expect("state");
    // The fault knob: the host's load waits until this file exists, so the solution stays loading.
    let release = state.path().join("release-the-load");
    let env = [
        ("ROSLYN_MCP_STATE_DIR", state.path().to_str().expect("utf-8")),
        ("ROSLYN_MCP_FAULT_HOLD_LOAD", release.to_str().expect("utf-8")),
        ("ROSLYN_MCP_REQUEST_TIMEOUT_SECS", "2"),
        ("ROSLYN_MCP_ANSWER_WITHIN_SECS", "4"),
    ];
    let server = Server::start_with_env(&fixture.root, &env).await;
    let solution = fixture.file("Alpha.csproj");

    // A read waits its own limit (2 s), then says LOADING, not TIMEOUT, with the job that answers it.
    let search = json!({"query": "Thing", "solutionPath": solution});
    let loading = server.call_once("search_symbols", search).await;
    assert!(loading.is_error, "{}", loading.value);
    let error = &loading.value["error"];
    assert_eq!(error["code"], "LOADING", "{error}");
    assert_eq!(error["details"]["solutionPath"], solution, "{error}");
    let read_job = error["details"]["jobId"].as_str().expect("a job").to_owned();
    assert!(error["message"].as_str().is_some_and(|m| m.contains(&read_job)), "{error}");

    // initialize_workspace asked for the load: it answers within the bound with the job and where it stands.
    let started = server.call_once("initialize_workspace", json!({"workingDirectory": fixture.root})).await;
    assert_eq!(started.value["status"], "running", "{}", started.value);
    assert!(
        started.value["progress"]["latest"].as_str().is_some_and(|l| l.starts_with("Loading")),
        "{}",
        started.value
    );
    let load_job = started.value["jobId"].clone();
    // The load says how far it got: the host, asked while it loads, has opened none of the one project yet.
    let counted = eventually(Duration::from_secs(60), || async {
        let job = server.ok("get_job", json!({"jobId": load_job, "waitSeconds": 0})).await;
        let latest = job["progress"]["latest"].as_str().unwrap_or_default().to_owned();
        latest.ends_with("0 of 1 projects opened").then_some(())
    });
    assert!(counted.await.is_some(), "the load's progress never counted its projects");
    let loading = server.workspace_status(Path::new(&solution)).await.expect("listed");
    assert_eq!(loading["projectsLoaded"], 0, "{loading}");

    std::fs::write(&release, "").expect("release the load");
    let symbols = server.call("get_job", json!({"jobId": read_job})).await;
    let names: Vec<&str> =
        symbols.value["symbols"].as_array().expect("symbols").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["AlphaThing"], "{}", symbols.value);
    let loaded = server.call("get_job", json!({"jobId": load_job})).await;
    assert!(!loaded.is_error, "{}", loaded.value);
    assert_eq!(loaded.value["primarySolution"]["path"], solution, "{}", loaded.value);
    server.stop().await;
}

/// A whole project's write reports how far its computation has come, file by file, in progress
/// notifications (and in its job, through the same steps) before its answer.
#[tokio::test(flavor = "multi_thread")]
async fn a_whole_project_write_reports_files_done_of_files_to_do() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[crate::support::ANSWER_AS_A_WHOLE]);
    let session = RawSession::open(&state).await;
    let solution = shop.file("Shop.sln");
    let load = session.call(1, "initialize_workspace", json!({"workingDirectory": shop.root})).await;
    assert!(load.status().is_success(), "{load:?}");
    let arguments = json!({"project": "Shop.Core", "preview": true, "solutionPath": solution});
    let response = session.call_with_progress(2, "format_document", arguments).await;
    let messages = events(&response.text().await.expect("body"));
    let (answer, before) = messages.split_last().expect("messages");
    let examined = &answer["result"]["structuredContent"]["documentsFormatted"];
    let examined = examined.as_u64().unwrap_or_else(|| panic!("documents examined: {answer}"));
    let counts: Vec<&str> = before
        .iter()
        .filter_map(|m| m["params"]["message"].as_str())
        .filter(|m| m.starts_with("Computing the change: "))
        .collect();
    assert!(!counts.is_empty(), "files done of files to do before the answer: {messages:?}");
    let of_all = format!(" of {examined} files");
    assert!(counts.iter().all(|m| m.ends_with(&of_all)), "{counts:?}");
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}
