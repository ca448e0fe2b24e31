//! The daemon shared by many sessions: bridges that start it (and race to), Streamable HTTP with its
//! security rules, sessions with their own workspace and roots, progress, and what a crash or SIGTERM
//! leaves behind.

use crate::support::daemon::{Agent, StateDir, get, host_pids, signal};
use crate::support::hold::Hold;
use crate::support::{ANSWER_AS_A_WHOLE, Fixture, SLOTS, Server, eventually, group_members, tool_count, tree};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

const PROGRAM: &str = "src/Shop.App/Program.cs";

#[tokio::test(flavor = "multi_thread")]
async fn racing_bridges_start_one_daemon_whose_answers_match_an_embedded_session() {
    // One slot for the daemon; the embedded service below takes the other.
    let _slot = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    // Four clients launched at once: each bridge finds no daemon and starts one; one wins the lock.
    let clients = futures::future::join_all((0..4).map(|_| state.bridge(&shop.root))).await;
    let daemon = state.daemon_pid().await;
    let serving = eventually(Duration::from_secs(10), || async {
        let live = state.daemons();
        (live == vec![daemon]).then_some(live)
    })
    .await;
    assert!(serving.is_some(), "one daemon serves the folder: {:?} (published {daemon})", state.daemons());

    // Relative to each bridge's working directory, as in the client's own process.
    for client in &clients {
        let init = client.ok("initialize_workspace", json!({})).await;
        assert_eq!(init["primarySolution"]["path"], json!(shop.file("Shop.sln")));
    }
    let (line, column) = shop.position_of(PROGRAM, "names =", 0);
    let position = json!({"filePath": PROGRAM, "line": line, "column": column});
    let through_daemon = clients[0].ok("get_type_at_position", position.clone()).await;
    let diagnose = clients[3].ok("diagnose", json!({})).await;
    assert_eq!(diagnose["workspaces"].as_array().expect("workspaces").len(), 1, "loaded once: {diagnose}");
    let hosts = host_pids(&diagnose);

    let embedded = Server::start(&shop.root, &[]).await;
    embedded.ok("initialize_workspace", json!({})).await;
    assert_eq!(embedded.ok("get_type_at_position", position.clone()).await, through_daemon);
    let references = json!({"filePath": PROGRAM, "line": line, "column": column + 1});
    assert_eq!(
        embedded.ok("find_references", references.clone()).await["references"],
        clients[1].ok("find_references", references).await["references"]
    );
    assert_eq!(embedded.tools().await, clients[2].tools().await, "the same tools either way");
    embedded.stop().await;

    for client in clients {
        client.close().await;
    }
    // SIGTERM: the daemon withdraws, its hosts exit, and nothing of it is left.
    state.terminate().await;
    assert!(state.info().is_none(), "daemon.json is removed");
    assert!(!state.path().join("run/daemon.sock").exists(), "the socket is removed");
    for host in hosts {
        let gone = eventually(Duration::from_secs(10), || async { group_members(host).is_empty().then_some(()) }).await;
        assert!(gone.is_some(), "host {host} outlived the daemon");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_daemon_leaves_no_host_and_the_next_bridge_starts_a_new_one() {
    let _slots = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let client = state.bridge(&shop.root).await;
    client.ok("initialize_workspace", json!({})).await;
    let hosts = host_pids(&client.ok("diagnose", json!({})).await);
    assert_eq!(hosts.len(), 1);
    let first = state.daemon_pid().await;
    signal(first, "-KILL");
    for host in &hosts {
        let gone =
            eventually(Duration::from_secs(10), || async { group_members(*host).is_empty().then_some(()) }).await;
        assert!(gone.is_some(), "host {host} survived its daemon: {:?}", group_members(*host));
    }
    drop(client);

    let next = state.bridge(&shop.root).await;
    let init = next.ok("initialize_workspace", json!({})).await;
    assert_eq!(init["primarySolution"]["path"], json!(shop.file("Shop.sln")));
    let second = state.daemon_pid().await;
    assert_ne!(second, first, "a new daemon serves");
    assert_eq!(state.daemons(), vec![second]);
    next.close().await;
    state.terminate().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_during_a_write_lets_it_finish_or_roll_back_before_the_hosts_exit() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let moves = Fixture::copy("Moves");
    let state = StateDir::default();
    // The write holds its files replaced, the host not told, until released.
    let hold = Hold::default();
    let mut daemon = state.serve(&[], &[hold.env()]);
    let writer = state.http_client(None).await;
    let watcher = state.http_client(None).await;
    writer.ok("initialize_workspace", json!({"workingDirectory": moves.root.display().to_string()})).await;
    let hosts = host_pids(&writer.ok("diagnose", json!({})).await);
    let before = tree(&moves.root);
    let (sketch, canvas) =
        (moves.file("src/Moves.Legacy/Drawing/Sketch.cs"), moves.file("src/Moves.Legacy/Drawing/Canvas.cs"));
    let arguments = json!({"sourceFile": sketch, "symbolName": "Sketch", "targetFile": canvas});
    let mut params = rmcp::model::CallToolRequestParams::new("move_type_to_file");
    params.arguments = arguments.as_object().cloned();
    let write = writer.peer().call_tool(params);
    let stop = async {
        // SIGTERM once the files are replaced and the host has yet to hear of them.
        let replaced = eventually(Duration::from_secs(30), || async {
            let diagnose = watcher.ok("diagnose", json!({})).await;
            let locked = diagnose["workspaces"][0]["writeLocked"] == json!(true);
            let moved = std::fs::read_to_string(&canvas).is_ok_and(|c| c.contains("class Sketch"));
            (locked && moved).then_some(())
        })
        .await;
        assert!(replaced.is_some(), "the write replaced its files; log:\n{}", state.serve_log());
        signal(daemon.id(), "-TERM");
        // The daemon is stopping; the write it waits for goes on.
        let stopping = eventually(Duration::from_secs(30), || async {
            state.serve_log().contains("signal received").then_some(())
        })
        .await;
        hold.release();
        assert!(stopping.is_some(), "the daemon did not begin to stop; log:\n{}", state.serve_log());
    };
    // The answer may be lost with the session; the files tell what happened.
    let (_, ()) = tokio::join!(tokio::time::timeout(Duration::from_secs(10), write), stop);
    assert!(daemon.wait().expect("exit").success(), "{}", state.serve_log());
    let after = tree(&moves.root);
    let finished = !moves.path("src/Moves.Legacy/Drawing/Sketch.cs").exists()
        && std::fs::read_to_string(&canvas).expect("canvas").contains("class Sketch");
    assert!(finished || after == before, "the move is whole or undone, never half-applied");
    let journal = std::fs::read_dir(state.path().join("journal")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(journal, 0, "no write is left in the journal");
    for host in hosts {
        let gone = eventually(Duration::from_secs(5), || async { group_members(host).is_empty().then_some(()) }).await;
        assert!(gone.is_some(), "host {host} outlived the daemon");
    }
}

/// A raw MCP initialize POST: the status it gets.
async fn initialize_status(url: &str, token: Option<&str>, origin: Option<&str>) -> u16 {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "curl", "version": "1"}}})
            .to_string(),
        );
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    request.send().await.expect("POST").status().as_u16()
}

#[tokio::test(flavor = "multi_thread")]
async fn http_refuses_foreign_origins_and_requests_without_the_token() {
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[("ROSLYN_MCP_TOKEN", "s3cret")]);
    let base = state.base_url().await;
    let mcp = format!("{base}/mcp");
    let port = base.rsplit(':').next().expect("port").to_owned();

    assert_eq!(initialize_status(&mcp, None, None).await, 401, "no token");
    assert_eq!(initialize_status(&mcp, Some("wrong"), None).await, 401, "a wrong token");
    assert_eq!(initialize_status(&mcp, Some("s3cret"), Some("https://evil.example")).await, 403, "a foreign Origin");
    assert_eq!(initialize_status(&mcp, Some("s3cret"), Some("http://localhost.evil.example")).await, 403);
    assert_eq!(initialize_status(&mcp, Some("s3cret"), None).await, 200, "no Origin: an SDK client or curl");
    let local = format!("http://localhost:{port}");
    assert_eq!(initialize_status(&mcp, Some("s3cret"), Some(&local)).await, 200, "a page of this machine");

    assert_eq!(get(&format!("{base}/healthz"), None).await.0, 200, "health needs no token");
    assert_eq!(get(&format!("{base}/metrics"), None).await.0, 401, "metrics need the token");
    let (status, metrics) = get(&format!("{base}/metrics"), Some("s3cret")).await;
    assert_eq!(status, 200);
    assert!(metrics.contains("roslyn_mcp_sessions_open"), "{metrics}");

    // An SDK client with the token works.
    let client = state.http_client(Some("s3cret")).await;
    assert_eq!(client.tools().await.len(), tool_count());
    client.close().await;

    // One daemon per state folder.
    let second = state.serve(&["--http", "127.0.0.1:0"], &[]).wait().expect("second daemon");
    assert!(!second.success());
    assert!(state.serve_log().contains("another roslyn-mcp daemon serves"), "{}", state.serve_log());
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("daemon exit").success(), "a clean exit on SIGTERM: {}", state.serve_log());

    // Nothing beyond loopback without a token.
    let exposed = StateDir::default();
    let refused =
        exposed.serve(&["--http", "0.0.0.0:0", "--http-open-to-local-users"], &[]).wait().expect("exposed daemon");
    assert!(!refused.success());
    assert!(exposed.serve_log().contains("without a token"), "{}", exposed.serve_log());
    assert!(exposed.info().is_none(), "nothing was served");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_session_has_its_own_workspace_and_roots_and_leaves_nothing_behind() {
    let _slots = SLOTS.acquire_many(2).await.expect("slots");
    let shop = Fixture::copy("Shop");
    let moves = Fixture::copy("Moves");
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let base = state.base_url().await;

    // Roots only: the first root's solution is the session's default workspace.
    let on_shop = state.http_client_with(Agent::with_roots(&[&shop.root]), None).await;
    let on_moves = state.bridge_with(Agent::with_roots(&[&moves.root]), Path::new("/")).await;
    let (line, column) = shop.position_of(PROGRAM, "names =", 0);
    let typed = on_shop.ok("get_type_at_position", json!({"filePath": PROGRAM, "line": line, "column": column})).await;
    assert_eq!(typed["resolvedFromSolution"], json!(shop.file("Shop.sln")));
    let symbols = on_moves.ok("get_document_symbols", json!({"filePath": "src/Moves.Core/Models/Shapes.cs"})).await;
    assert!(symbols["symbols"].as_array().is_some_and(|s| !s.is_empty()), "{symbols}");

    // Roots gate paths: the other session's solution is out of reach.
    on_shop
        .fails(
            "get_document_symbols",
            json!({"filePath": moves.file("src/Moves.Core/Models/Shapes.cs")}),
            "SOURCE_NOT_IN_WORKSPACE",
        )
        .await;
    on_moves
        .fails(
            "initialize_workspace",
            json!({"workingDirectory": shop.root.display().to_string()}),
            "SOURCE_NOT_IN_WORKSPACE",
        )
        .await;

    // initialize_workspace sets one session's default, not the other's.
    let plain = state.http_client(None).await;
    plain.ok("initialize_workspace", json!({"workingDirectory": moves.root.display().to_string()})).await;
    plain.ok("get_document_symbols", json!({"filePath": "src/Moves.Core/Models/Shapes.cs"})).await;
    on_shop
        .fails("get_document_symbols", json!({"filePath": "src/Moves.Core/Models/Shapes.cs"}), "SOURCE_FILE_NOT_FOUND")
        .await;

    let diagnose = plain.ok("diagnose", json!({})).await;
    assert_eq!(diagnose["workspaces"].as_array().expect("workspaces").len(), 2, "two solutions, shared: {diagnose}");
    let open = |text: &str| {
        metric(text, "roslyn_mcp_sessions_open{transport=\"http\"}")
            + metric(text, "roslyn_mcp_sessions_open{transport=\"socket\"}")
    };
    let token = state.token();
    let metrics = || async { get(&format!("{base}/metrics"), token.as_deref()).await.1 };
    assert_eq!(open(&metrics().await), 3.0);

    for client in [on_shop, plain] {
        client.close().await;
    }
    on_moves.close().await;
    let closed = eventually(Duration::from_secs(20), || async { (open(&metrics().await) == 0.0).then_some(()) }).await;
    assert!(closed.is_some(), "every session closed: {}", metrics().await);
    assert_eq!(get(&format!("{base}/healthz"), None).await.0, 200);
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}

#[tokio::test(flavor = "multi_thread")]
async fn loading_a_solution_reports_progress_when_asked() {
    let _slots = SLOTS.acquire().await.expect("slot");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let agent = Agent::default();
    let client = state.bridge_command(agent.clone(), state.bridge_process(&shop.root, &[ANSWER_AS_A_WHOLE])).await;
    let mut params = rmcp::model::CallToolRequestParams::new("initialize_workspace");
    params.arguments = Some(serde_json::Map::new());
    let mut meta = rmcp::model::RequestMetaObject::default();
    meta.set_progress_token(rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(1)));
    params.meta = Some(meta);
    let result = client.peer().call_tool(params).await.expect("initialize_workspace");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let seen = eventually(Duration::from_secs(5), || async {
        let progress = agent.progress.lock().expect("progress").clone();
        progress.iter().any(|p| p.message.as_deref().is_some_and(|m| m.starts_with("Loaded "))).then_some(progress)
    })
    .await
    .expect("progress notifications");
    let messages: Vec<String> = seen.iter().filter_map(|p| p.message.clone()).collect();
    // Loading, how many projects the host has opened while it loads (each second), then Loaded.
    let loaded = messages.iter().position(|m| m.starts_with("Loaded ")).expect("Loaded");
    assert!(loaded >= 1 && messages[..loaded].iter().all(|m| m.starts_with("Loading ")), "{messages:?}");
    assert!(seen.windows(2).all(|w| w[0].progress < w[1].progress), "progress only grows: {seen:?}");
    // rmcp's client numbers the tokens it sends itself; every notification carries the request's.
    assert!(seen.iter().all(|p| p.progress_token == seen[0].progress_token), "{seen:?}");

    // Solution-wide diagnostics say what they compile (rmcp's client asks for progress on every call).
    client.ok("get_compilation_diagnostics", json!({})).await;
    let last = agent.progress.lock().expect("progress").last().cloned().expect("a notification");
    assert_eq!(last.message, Some(format!("Compiling the solution {}", shop.file("Shop.sln"))));
    client.close().await;
    state.terminate().await;
}

/// The value of one sample line of a Prometheus text page (0 when absent).
pub fn metric(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series).and_then(|rest| rest.trim().split(' ').next()?.parse().ok()))
        .unwrap_or(0.0)
}

/// A load runs as a task its workspace owns, never in a mailbox: while one is held, another solution's reads
/// and diagnose answer, and SIGTERM cuts the held load off (its host killed, nothing started again) rather
/// than waiting for it until the drain time runs out.
#[tokio::test(flavor = "multi_thread")]
async fn sigterm_cuts_off_a_held_load_that_held_up_no_other_solution() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let beta = Fixture::copy("tiny/Beta");
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    let release = beta.path("release-loads");
    std::fs::write(&release, "").expect("loads pass");
    let hold = release.display().to_string();
    let mut daemon = state.serve(&[], &[("ROSLYN_MCP_FAULT_HOLD_LOAD", &hold)]);
    let client = state.http_client(None).await;
    let read = json!({"filePath": beta.file("Beta.cs"), "line": 3, "column": 14});
    let before = client.ok("find_symbol_definition", read.clone()).await;

    std::fs::remove_file(&release).expect("hold loads from now on");
    let loading = {
        let mut params = rmcp::model::CallToolRequestParams::new("initialize_workspace");
        params.arguments = json!({"workingDirectory": shop.root.display().to_string()}).as_object().cloned();
        let peer = client.peer().clone();
        tokio::spawn(async move { peer.call_tool(params).await })
    };
    let solution = json!(shop.file("Shop.sln"));
    let held = eventually(Duration::from_secs(60), || async {
        let diagnose = client.ok("diagnose", json!({})).await;
        let workspaces = diagnose["workspaces"].as_array().cloned().unwrap_or_default();
        workspaces.iter().any(|w| w["solutionPath"] == solution && w["state"] == json!("Loading")).then_some(())
    })
    .await;
    assert!(held.is_some(), "diagnose never showed Shop's held load; log:\n{}", state.serve_log());
    for _ in 0..5 {
        assert_eq!(client.ok("find_symbol_definition", read.clone()).await, before);
    }
    assert!(!loading.is_finished(), "Shop's load finished while held");
    let hosts: Vec<u32> = crate::support::children(daemon.id());
    assert!(hosts.len() >= 2, "Beta's host and Shop's: {hosts:?}");

    signal(daemon.id(), "-TERM");
    let status = tokio::task::spawn_blocking(move || daemon.wait()).await.expect("join").expect("wait");
    assert!(status.success(), "{status}");
    let log = state.serve_log();
    assert!(!log.contains("work still under way after the drain time"), "the stop waited for the held load:\n{log}");
    assert_eq!(log.matches("opening solution").count(), 2, "nothing opened again while stopping:\n{log}");
    for host in hosts {
        let gone = eventually(Duration::from_secs(5), || async { group_members(host).is_empty().then_some(()) }).await;
        assert!(gone.is_some(), "host {host} left processes behind: {:?}", group_members(host));
    }
}
