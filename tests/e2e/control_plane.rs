//! The daemon's own answers under load: its Roslyn hosts (and every process they start) run below its CPU
//! priority, and an HTTP answer is one JSON body unless something must come before it.

use crate::support::daemon::{StateDir, host_pids, signal};
use crate::support::raw_session::{RawSession, content_type, events};
use crate::support::{ANSWER_AS_A_WHOLE, Fixture, SLOTS, eventually, group_members};
use serde_json::{Value, json};
use std::time::Duration;

/// The nice value of every thread of `pid` (a thread keeps what its process had when it was made).
fn thread_nice_values(pid: u32) -> Vec<i32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("threads");
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("stat")).ok())
        // Fields after the command's closing parenthesis start at the state (3rd); nice is the 19th.
        .filter_map(|stat| stat.rsplit_once(") ")?.1.split(' ').nth(16)?.parse().ok())
        .collect()
}

/// The nice values of a daemon's loaded host (its threads, and the MSBuild processes it started) and of
/// its spare host, once Shop is loaded in a daemon started with `env`.
async fn nice_values(env: &[(&str, &str)]) -> (i32, Vec<i32>) {
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let mut daemon = state.serve(&[], env);
    let client = state.http_client(None).await;
    client.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;
    let diagnose = client.ok("diagnose", json!({})).await;
    let mut hosts = host_pids(&diagnose);
    assert_eq!(hosts.len(), 1, "{diagnose}");
    // The next spare starts once the warm-up is over and the calls pause.
    let spare = eventually(Duration::from_secs(60), || async {
        client.ok("diagnose", json!({})).await["spareHost"]["hostPid"].as_u64()
    })
    .await
    .expect("a spare host");
    hosts.push(spare as u32);
    let nice = thread_nice_values(state.daemon_pid().await)[0];
    let values = hosts.iter().flat_map(|&host| group_members(host).into_iter().flat_map(thread_nice_values)).collect();
    client.close().await;
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
    (nice, values)
}

#[tokio::test(flavor = "multi_thread")]
async fn roslyn_hosts_run_below_the_daemons_cpu_priority_unless_told_not_to() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let (daemon, hosts) = nice_values(&[("ROSLYN_MCP_SPARE_HOST", "true")]).await;
    // A loaded host has its main thread, the runtime's and Roslyn's, and its MSBuild build host.
    assert!(hosts.len() > 10, "{hosts:?}");
    let expected = (daemon + 10).min(19);
    assert!(hosts.iter().all(|&nice| nice == expected), "daemon at {daemon}, hosts' threads at {hosts:?}");

    let (daemon, hosts) = nice_values(&[("ROSLYN_MCP_SPARE_HOST", "true"), ("ROSLYN_MCP_HOST_NICE", "0")]).await;
    assert!(hosts.iter().all(|&nice| nice == daemon), "daemon at {daemon}, hosts' threads at {hosts:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_http_answer_is_one_json_body_unless_progress_or_a_long_wait_comes_first() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    // A workspace's start waits while this file exists.
    let hold = state.path().join("hold-workspace-starts");
    let env = [("ROSLYN_MCP_FAULT_HOLD_WORKSPACE_START", hold.to_str().expect("utf-8")), ANSWER_AS_A_WHOLE];
    let mut daemon = state.serve(&[], &env);
    let session = RawSession::open(&state).await;

    // A quick answer: the whole body is the JSON-RPC response.
    let response = session.call(1, "diagnose", json!({})).await;
    assert_eq!(content_type(&response), "application/json");
    let answer: Value = response.json().await.expect("JSON body");
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["structuredContent"]["healthy"], true, "{answer}");

    // A load held past the wait for a JSON answer: the stream starts (keep-alives and progress can reach the
    // client) and the answer follows on it once the load goes on.
    std::fs::write(&hold, "").expect("hold workspace starts");
    let load = session.call(2, "initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()}));
    let response = tokio::time::timeout(Duration::from_secs(60), load).await.expect("headers while the load is held");
    assert_eq!(content_type(&response), "text/event-stream");
    std::fs::remove_file(&hold).expect("release workspace starts");
    let messages = events(&response.text().await.expect("body"));
    let answer = messages.last().expect("an answer");
    assert_eq!(answer["id"], 2, "{messages:?}");
    assert_eq!(answer["result"]["structuredContent"]["primarySolution"]["path"], json!(shop.file("Shop.sln")));

    // Progress asked for: the stream starts at once, the notifications come first, then the answer.
    let other = Fixture::copy("tiny/Beta");
    let arguments = json!({"workingDirectory": other.root.display().to_string()});
    let response = session.call_with_progress(3, "initialize_workspace", arguments).await;
    assert_eq!(content_type(&response), "text/event-stream");
    let messages = events(&response.text().await.expect("body"));
    let (answer, before) = messages.split_last().expect("messages");
    assert_eq!(answer["id"], 3, "{messages:?}");
    assert!(!before.is_empty(), "progress before the answer: {messages:?}");
    assert!(before.iter().all(|m| m["method"] == "notifications/progress" && m["params"]["progressToken"] == "p3"));
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}
