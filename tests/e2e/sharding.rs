//! Several daemons behind one address: `deploy/haproxy/haproxy.cfg` run by a real HAProxy in front of three
//! daemons on loopback (the configuration's addresses swapped for free ports, one bearer token for all), and 30
//! clients of MCP 2026-07-28 over three solutions. Each solution is loaded by exactly one daemon, every answer
//! is the right solution's, and when the daemon holding a solution is stopped, that solution's next call is
//! served by another daemon, which loads it (their diagnose and /metrics say so). A job's and a task's id name
//! the daemon that owns them, and the proxy sends get_job and tasks/get there. Needs `haproxy` (CI installs it and sets
//! ROSLYN_MCP_REQUIRE_HAPROXY=1; elsewhere the test says it was skipped).

use crate::long_calls::{answer_of, request};
use crate::support::daemon::{StateDir, get};
use crate::support::haproxy::{self, Proxy};
use crate::support::stateless::{call, result_of};
use crate::support::{ANSWER_AS_A_WHOLE, Fixture, eventually};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::process::Child;
use std::time::Duration;

const TOKEN: &str = "shared-e2e-token";

#[tokio::test(flavor = "multi_thread")]
async fn three_daemons_behind_haproxy_each_serve_their_solutions_and_take_over_a_stopped_ones() {
    if without_haproxy() {
        return;
    }
    let fixtures = [Fixture::copy("tiny/Alpha"), Fixture::copy("tiny/Beta"), Fixture::copy("tiny/Gamma")];
    let solutions = [fixtures[0].file("Alpha.csproj"), fixtures[1].file("Beta.csproj"), fixtures[2].file("Gamma.slnx")];
    let states = [StateDir::default(), StateDir::default(), StateDir::default()];
    let (mut daemons, proxy) = fleet(&states, |_| vec![(ANSWER_AS_A_WHOLE.0, ANSWER_AS_A_WHOLE.1.to_owned())]).await;
    let url = proxy.url("/mcp");

    // 30 clients, 10 per solution, 3 calls each, all at once.
    let clients = (0..30).map(|client| {
        let (url, solution, expected) = (url.clone(), solutions[client % 3].clone(), NAMES[client % 3]);
        tokio::spawn(async move {
            for _ in 0..3 {
                assert_eq!(found(&url, &solution).await, expected);
            }
        })
    });
    for client in clients {
        client.await.expect("a client");
    }
    let held = holders(&states).await;
    for solution in &solutions {
        assert_eq!(held.get(solution).map(Vec::len), Some(1), "{solution} loaded by exactly one daemon: {held:?}");
    }
    let mut loaded = 0;
    for state in &states {
        let (status, metrics) = get(&format!("{}/metrics", state.base_url().await), Some(TOKEN)).await;
        assert_eq!(status, 200);
        let line = metrics.lines().find(|l| l.starts_with("roslyn_mcp_solutions_loaded ")).expect("the gauge");
        loaded += line.rsplit(' ').next().and_then(|v| v.parse::<u32>().ok()).expect("a count");
    }
    assert_eq!(loaded, 3, "the daemons' /metrics count each solution once");

    // Stop the daemon holding Alpha: its next call goes to another daemon, which loads it.
    let stopped = held[&solutions[0]][0];
    states[stopped].terminate().await;
    let _ = daemons[stopped].wait();
    let moved = eventually(Duration::from_secs(60), || async {
        let (status, body) = call(&url, TOKEN, "search_symbols", query(&solutions[0]), None).await;
        (status == 200 && names_in(&result_of(&body)) == NAMES[0]).then_some(())
    })
    .await;
    assert!(moved.is_some(), "Alpha is served again once its daemon is down");
    let held = holders(&states).await;
    let now = &held[&solutions[0]];
    assert_eq!(now.len(), 1, "{held:?}");
    assert_ne!(now[0], stopped);
    for solution in &solutions[1..] {
        assert_eq!(found(&url, solution).await, NAMES[solutions.iter().position(|s| s == solution).expect("known")]);
    }

    for (index, state) in states.iter().enumerate() {
        if index != stopped {
            state.terminate().await;
            let _ = daemons[index].wait();
        }
    }
}

/// Whether haproxy is missing here, said once (CI sets ROSLYN_MCP_REQUIRE_HAPROXY=1, where that fails).
fn without_haproxy() -> bool {
    if haproxy::installed() {
        return false;
    }
    assert!(std::env::var_os("ROSLYN_MCP_REQUIRE_HAPROXY").is_none(), "haproxy is required here");
    eprintln!("skipped: haproxy is not installed (apt-get install haproxy)");
    true
}

/// A daemon for each of `states` sharing the fleet's token, with `env(index)` besides, behind HAProxy run with
/// the deploy configuration, once the proxy answers /healthz.
async fn fleet(states: &[StateDir], env: impl Fn(usize) -> Vec<(&'static str, String)>) -> (Vec<Child>, Proxy) {
    let daemons = states
        .iter()
        .enumerate()
        .map(|(index, state)| {
            let extra = env(index);
            let mut all: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
            all.push(("ROSLYN_MCP_TOKEN", TOKEN));
            state.serve(&[], &all)
        })
        .collect();
    let mut addresses = Vec::new();
    for state in states {
        addresses.push(state.base_url().await.trim_start_matches("http://").to_owned());
    }
    let behind: Vec<&str> = addresses.iter().map(String::as_str).collect();
    let proxy = Proxy::start(&behind, states[0].path(), std::process::Stdio::inherit());
    let health = proxy.url("/healthz");
    let up = eventually(Duration::from_secs(30), || async {
        reqwest::get(&health).await.ok().filter(|r| r.status().is_success()).map(|_| ())
    })
    .await;
    assert!(up.is_some(), "the proxy answers /healthz");
    (daemons, proxy)
}

/// The type each tiny fixture declares.
const NAMES: [&str; 3] = ["AlphaThing", "BetaThing", "GammaThing"];

fn query(solution: &str) -> Value {
    json!({"query": "Thing", "solutionPath": solution})
}

/// The names search_symbols finds for "Thing" in `solution`, through the proxy.
async fn found(url: &str, solution: &str) -> String {
    let (status, body) = call(url, TOKEN, "search_symbols", query(solution), None).await;
    assert_eq!(status, 200, "{body}");
    names_in(&result_of(&body))
}

fn names_in(result: &Value) -> String {
    let symbols = result["structuredContent"]["symbols"].as_array().cloned().unwrap_or_default();
    let mut names: Vec<String> = symbols.iter().filter_map(|s| s["name"].as_str().map(str::to_owned)).collect();
    names.sort();
    names.join(",")
}

/// Each loaded solution, with the daemons (by index) whose diagnose lists it.
async fn holders(states: &[StateDir]) -> BTreeMap<String, Vec<usize>> {
    let mut held: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, state) in states.iter().enumerate() {
        if state.info().and_then(|i| i["pid"].as_u64()).is_none_or(|pid| !crate::support::alive(pid as u32)) {
            continue;
        }
        let url = format!("{}/mcp", state.base_url().await);
        let (status, body) = call(&url, TOKEN, "diagnose", json!({}), None).await;
        assert_eq!(status, 200, "{body}");
        let diagnose = result_of(&body)["structuredContent"].clone();
        for workspace in diagnose["workspaces"].as_array().into_iter().flatten() {
            if let Some(solution) = workspace["solutionPath"].as_str() {
                held.entry(solution.to_owned()).or_default().push(index);
            }
        }
    }
    held
}

#[tokio::test(flavor = "multi_thread")]
async fn a_job_and_a_task_are_asked_for_through_haproxy_at_the_daemon_that_owns_them() {
    if without_haproxy() {
        return;
    }
    let fixture = Fixture::copy("tiny/Alpha");
    let solution = fixture.file("Alpha.csproj");
    let states = [StateDir::default(), StateDir::default(), StateDir::default()];
    // The fault knob: a workspace's start waits while it exists, so the first call outlasts the 1 s bound.
    let hold = states[0].path().join("hold-start");
    std::fs::write(&hold, "").expect("knob");
    let hold_path = hold.to_str().expect("utf-8");
    let (mut daemons, proxy) = fleet(&states, |index| {
        vec![
            ("ROSLYN_MCP_INSTANCE", format!("daemon{}", index + 1)),
            ("ROSLYN_MCP_ANSWER_WITHIN_SECS", "1".to_owned()),
            ("ROSLYN_MCP_FAULT_HOLD_WORKSPACE_START", hold_path.to_owned()),
        ]
    })
    .await;
    let url = proxy.url("/mcp");

    let search = json!({"name": "search_symbols", "arguments": query(&solution)});
    let job = answer_of(request(&url, TOKEN, "tools/call", "search_symbols", search.clone(), false)).await;
    // The solution is loading: LOADING, naming the job that answers the call.
    let loading = job["result"]["structuredContent"]["error"].clone();
    assert_eq!(loading["code"], "LOADING", "{job}");
    let job = loading["details"]["jobId"].as_str().unwrap_or_else(|| panic!("a job: {job}")).to_owned();
    let task = answer_of(request(&url, TOKEN, "tools/call", "search_symbols", search, true)).await;
    let task = task["result"]["taskId"].as_str().unwrap_or_else(|| panic!("a task: {task}")).to_owned();
    let owner = job.split('.').next().expect("an instance name");
    assert!(owner.starts_with("daemon") && task.starts_with(owner), "{job} {task}: both on the solution's daemon");

    // Asked ten times each while they work: the proxy's round robin would send two in three elsewhere.
    for _ in 0..10 {
        let params = json!({"name": "get_job", "arguments": {"jobId": job, "waitSeconds": 0}});
        let polled = answer_of(request(&url, TOKEN, "tools/call", "get_job", params, false)).await;
        assert_eq!(polled["result"]["structuredContent"]["status"], "running", "{polled}");
        let polled = answer_of(request(&url, TOKEN, "tasks/get", &task, json!({"taskId": task}), true)).await;
        assert_eq!(polled["result"]["status"], "working", "{polled}");
    }
    std::fs::remove_file(&hold).expect("release the start");
    let answered = eventually(Duration::from_secs(60), || async {
        let params = json!({"name": "get_job", "arguments": {"jobId": job}});
        let polled = answer_of(request(&url, TOKEN, "tools/call", "get_job", params, false)).await;
        (polled["result"]["structuredContent"]["status"] != "running").then(|| polled["result"].clone())
    })
    .await
    .expect("the job ended");
    assert_eq!(names_in(&answered), NAMES[0], "{answered}");
    let completed = eventually(Duration::from_secs(60), || async {
        let polled = answer_of(request(&url, TOKEN, "tasks/get", &task, json!({"taskId": task}), true)).await;
        (polled["result"]["status"] == "completed").then(|| polled["result"]["result"].clone())
    })
    .await
    .expect("the task completed");
    assert_eq!(names_in(&completed), NAMES[0], "{completed}");

    for (state, daemon) in states.iter().zip(&mut daemons) {
        state.terminate().await;
        let _ = daemon.wait();
    }
}
