//! A bridge never storms: whatever holds the HTTP port, however the daemon fails at start, and whoever
//! else runs a daemon on the machine, a bridge starts at most a bounded number of daemons and its
//! session is served by its own user's daemon or ends with one clear error.

use crate::support::daemon::{StateDir, signal};
use crate::support::other_user::{OtherUser, uid_of};
use crate::support::{SLOTS, eventually, tool_count};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// The log lines of daemons the fault knob made exit at start.
const EXITED_AT_START: &str = "exiting at start (ROSLYN_MCP_FAULT_EXIT_AT_START)";

#[tokio::test(flavor = "multi_thread")]
async fn a_bridge_is_served_when_its_http_port_is_squatted_and_a_person_is_told_who_holds_it() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let squatter = std::net::TcpListener::bind("127.0.0.1:0").expect("squat a port");
    let address = squatter.local_addr().expect("address").to_string();
    let state = StateDir::default();

    let client = state.bridge_env(Path::new("/"), &[("ROSLYN_MCP_HTTP", &address)]).await;
    assert_eq!(client.tools().await.len(), tool_count(), "the session is served over the socket");
    let diagnose = client.ok("diagnose", json!({})).await;
    let error = diagnose["http"]["error"].as_str().expect("diagnose says why HTTP is not served");
    assert!(error.contains(&format!("cannot listen on {address}")), "{error}");
    assert!(error.contains(&format!("held by pid {}", std::process::id())), "the holder is named: {error}");
    assert_eq!(diagnose["http"]["address"], json!(null));
    assert_eq!(state.info().expect("daemon.json")["http"], json!(null), "daemon.json says HTTP is not served");
    let log = std::fs::read_to_string(state.log()).unwrap_or_default();
    assert!(log.contains("serving the bridges' socket only"), "{log}");
    assert_eq!(state.daemons().len(), 1, "exactly one daemon was started");
    let second = state.bridge_env(Path::new("/"), &[("ROSLYN_MCP_HTTP", &address)]).await;
    assert_eq!(second.tools().await.len(), tool_count());
    assert_eq!(state.daemons().len(), 1, "a second bridge joins the same daemon");
    second.close().await;
    client.close().await;
    state.terminate().await;

    // A daemon started by a person fails loudly on a taken address, naming what holds it.
    let by_hand = StateDir::default();
    let status = by_hand.serve(&["--http", &address], &[]).wait().expect("serve exits");
    assert!(!status.success());
    let log = by_hand.serve_log();
    assert!(log.contains(&format!("cannot listen on {address}")), "{log}");
    assert!(log.contains(&format!("held by pid {}", std::process::id())), "{log}");
    assert!(by_hand.info().is_none(), "nothing was announced");
    drop(squatter);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_daemon_that_exits_at_once_is_tried_a_bounded_number_of_times_then_one_clear_error() {
    let state = StateDir::default();
    let mut bridge = state.bridge_process(Path::new("/"), &[("ROSLYN_MCP_FAULT_EXIT_AT_START", "1")]);
    let bridge = bridge
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the bridge");
    // Bounded: the bridge must end by itself (the limit only keeps a broken build from hanging CI).
    let output = tokio::time::timeout(Duration::from_secs(120), bridge.wait_with_output())
        .await
        .expect("the bridge gave up by itself")
        .expect("bridge output");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("exited at start 3 times"), "{stderr}");
    assert!(stderr.contains(&state.log().display().to_string()), "the error names the daemon's log: {stderr}");
    assert!(stderr.contains(EXITED_AT_START), "the daemon's last words: {stderr}");
    assert!(output.stdout.is_empty(), "nothing but MCP on stdout");
    let log = std::fs::read_to_string(state.log()).expect("daemon log");
    assert_eq!(log.matches(EXITED_AT_START).count(), 3, "three daemons started, no storm:\n{log}");
    assert!(state.daemons().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn bridges_starting_at_once_against_a_squatted_port_end_on_one_daemon() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let squatter = std::net::TcpListener::bind("127.0.0.1:0").expect("squat a port");
    let address = squatter.local_addr().expect("address").to_string();
    let state = StateDir::default();
    let env = [("ROSLYN_MCP_HTTP", address.as_str())];
    let clients = futures::future::join_all((0..4).map(|_| state.bridge_env(Path::new("/"), &env))).await;
    for client in &clients {
        assert_eq!(client.tools().await.len(), tool_count());
    }
    let one = eventually(Duration::from_secs(10), || async { (state.daemons().len() == 1).then_some(()) }).await;
    assert!(one.is_some(), "one daemon serves: {:?}", state.daemons());
    for client in clients {
        client.close().await;
    }
    state.terminate().await;
}

/// Two users on one machine, each with a state folder and bridges: each is answered by a daemon of its
/// own, the second's daemon serving its socket although the first holds the HTTP port, and neither can
/// reach the other's socket. The second user is uid 65534 when the tests run as root.
#[tokio::test(flavor = "multi_thread")]
async fn two_users_each_get_their_own_daemon_and_cannot_reach_the_other() {
    let _slots = SLOTS.acquire_many(2).await.expect("slots");
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("free port").local_addr().expect("address");
    let address = port.to_string();
    let env = [("ROSLYN_MCP_HTTP", address.as_str())];
    let first = StateDir::default();
    let first_client = first.bridge_env(Path::new("/"), &env).await;
    let first_daemon = first.daemon_pid().await;
    assert_eq!(first.info().expect("daemon.json")["http"], json!(address), "the first binds the port");

    let Some(other) = OtherUser::new() else {
        // Two state folders of one user still each get their own daemon.
        let second = StateDir::default();
        let client = second.bridge_env(Path::new("/"), &env).await;
        assert_ne!(second.daemon_pid().await, first_daemon);
        let http = client.ok("diagnose", json!({})).await["http"].clone();
        assert!(http["error"].as_str().is_some_and(|e| e.contains("cannot listen")), "{http}");
        client.close().await;
        first_client.close().await;
        return;
    };
    let second = StateDir::default();
    other.own(second.path());
    let mut command = other.command(env!("CARGO_BIN_EXE_roslyn-mcp"));
    command.arg("stdio").current_dir("/").env("ROSLYN_MCP_STATE_DIR", second.path()).env("ROSLYN_MCP_HTTP", &address);
    let second_client = second.bridge_command(crate::support::daemon::Agent::default(), command).await;
    let diagnose = second_client.ok("diagnose", json!({})).await;
    assert!(diagnose["http"]["error"].as_str().is_some_and(|e| e.contains("cannot listen")), "{diagnose}");
    let second_daemon = second.daemon_pid().await;
    assert_ne!(second_daemon, first_daemon);
    assert_eq!(uid_of(second_daemon), Some(OtherUser::UID), "the second user's daemon runs as that user");
    assert_eq!(uid_of(first_daemon), Some(0));

    // The second user aims a bridge at the first user's state folder: it reaches no daemon and can
    // start none there.
    let mut intruder = other.command(env!("CARGO_BIN_EXE_roslyn-mcp"));
    intruder.arg("stdio").current_dir("/").env("ROSLYN_MCP_STATE_DIR", first.path());
    let refused = intruder.stdin(std::process::Stdio::null()).output().await.expect("intruding bridge");
    assert!(!refused.status.success(), "{}", String::from_utf8_lossy(&refused.stderr));
    assert!(refused.stdout.is_empty());
    assert_eq!(first.daemons(), vec![first_daemon], "no daemon was started in the first user's folder");
    // And the socket itself refuses the other uid.
    let socket = first.path().join("run/daemon.sock");
    let probe = other
        .command("/usr/bin/python3")
        .args(["-c", "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])"])
        .arg(&socket)
        .output()
        .await
        .expect("probe");
    let refused = String::from_utf8_lossy(&probe.stderr);
    assert!(refused.contains("PermissionError"), "another uid reached the first user's socket: {refused}");

    second_client.close().await;
    first_client.close().await;
    signal(second_daemon, "-TERM");
    first.terminate().await;
}
