//! Test runs a hostile client cannot turn against the service or what lies outside its roots.
//!
//! A test project a solution lists from outside the session's roots is never built, run or reported (its test
//! would write a marker and return a file from outside in its failure message); a session whose roots hold no
//! solution cannot make the service load, restore or test one elsewhere; a service killed (or an embedded one
//! closed) while tests run leaves no process, compiler server, pipe or results folder behind, and a verifying
//! write cut off before its verdict is rolled back at the next start.

use crate::support::daemon::{Agent, StateDir};
use crate::support::{
    Client, Fixture, SLOTS, alive, assert_same_tree, children, eventually, group_members, kill9, processes_mentioning,
    tree,
};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Every file under `dir` named `name`.
fn found_under(dir: &Path, name: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == name) {
                found.push(path.display().to_string());
            }
        }
    }
    found
}

fn ids(answer: &Value, list: &str, field: &str) -> Vec<String> {
    answer[list].as_array().expect(list).iter().map(|item| item[field].as_str().expect(field).to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_test_project_listed_from_outside_the_roots_is_never_built_run_or_reported() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Outside");
    let (ws, elsewhere) = (fixture.path("ws"), fixture.path("elsewhere"));
    let state = StateDir::default();
    let client = state.bridge_with(Agent::default(), &ws).await;
    let (line, column) = fixture.position_of("ws/Lib/Greeter.cs", "Hello", 0);
    let at = json!({"filePath": fixture.file("ws/Lib/Greeter.cs"), "line": line, "column": column});

    let found = client.ok("find_tests", at.clone()).await;
    assert_eq!(ids(&found, "tests", "id"), ["Inside.Tests.GreeterTests.GreetsByName"], "{found}");
    assert_eq!(ids(&found, "projects", "name"), ["Inside.Tests"], "{found}");
    assert!(found["omittedOutsideRoots"].as_u64().is_some_and(|n| n >= 1), "{found}");

    let run = client.ok("run_tests", at).await;
    assert_eq!(run["projects"], json!(["Inside.Tests"]), "{run}");
    assert_eq!(ids(&run, "results", "test"), ["Inside.Tests.GreeterTests.GreetsByName"], "{run}");
    assert!(run["omittedOutsideRoots"].as_u64().is_some_and(|n| n >= 1), "{run}");
    // Named by id, the outside test is left out the same way, counted with its project.
    let named = client.ok("run_tests", json!({"tests": ["Evil.Tests.EvilTests.LeaksWhatItCan"]})).await;
    assert_eq!((named["projects"].clone(), named["results"].clone()), (json!([]), json!([])), "{named}");
    assert_eq!(named["omittedOutsideRoots"], 2, "{named}");
    for answer in [&found, &run, &named] {
        assert!(!answer.to_string().contains("outside-secret"), "a file from outside came back: {answer}");
    }
    assert!(found_under(&elsewhere, "evil.marker").is_empty(), "the outside test ran");
    // Loading the solution gives it an empty `bin/` and its `obj/` (MSBuild's design-time build), never a build.
    assert!(found_under(&elsewhere, "Evil.Tests.dll").is_empty(), "the outside project was built in place");
    let copies = found_under(&state.path().join("test-runs"), "Evil.Tests.csproj");
    assert!(copies.is_empty(), "the run's copy reached outside the roots: {copies:?}");
}

/// A test project in a git repository, opened as the solution, referencing a library outside the repository by
/// an absolute path: its build would build the library where it lies, writing `bin/` and `obj/` outside the
/// roots. The run leaves the project out and names the library, and nothing is built outside.
#[tokio::test(flavor = "multi_thread")]
async fn a_test_project_referencing_a_library_outside_the_repository_is_left_out_naming_it() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Outside");
    let repo = fixture.path("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("a repository");
    std::fs::copy(fixture.path("ws/Directory.Build.props"), repo.join("Directory.Build.props")).expect("props");
    std::fs::rename(fixture.path("ws/Inside.Tests"), repo.join("Inside.Tests")).expect("move the tests");
    let project = repo.join("Inside.Tests/Inside.Tests.csproj");
    let library = fixture.file("ws/Lib/Lib.csproj");
    let text = std::fs::read_to_string(&project).expect("read").replace("../Lib/Lib.csproj", &library);
    std::fs::write(&project, text).expect("reference by absolute path");
    let state = StateDir::default();
    let client = state.bridge_with(Agent::with_roots(&[&repo]), &repo).await;

    let solution = project.display().to_string();
    let run = client.ok("run_tests", json!({"solutionPath": solution, "project": "Inside.Tests"})).await;
    assert_eq!((run["projects"].clone(), run["results"].clone()), (json!([]), json!([])), "{run}");
    let not_followed = run["notFollowed"].as_array().expect("notFollowed");
    let named = not_followed.iter().find(|n| n["reason"] == "referenceOutsideRoots").expect("the library named");
    assert_eq!(named["paths"], json!([library]), "{run}");
    assert!(found_under(&fixture.path("ws/Lib"), "Lib.dll").is_empty(), "the library was built where it lies");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_whose_roots_hold_no_solution_cannot_load_or_test_one_elsewhere() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::unrestored("Outside");
    let empty = Fixture::empty("EmptyRoot");
    std::fs::create_dir_all(&empty.root).expect("empty root");
    let state = StateDir::default();
    let client = state.bridge_with(Agent::with_roots(&[&empty.root]), &empty.root).await;
    let solution = fixture.file("ws/Ws.slnx");

    let calls = [
        ("run_tests", json!({"solutionPath": solution, "project": "Inside.Tests"})),
        ("get_project_graph", json!({"solutionPath": solution})),
        ("initialize_workspace", json!({"workingDirectory": fixture.file("ws/Lib")})),
    ];
    for (tool, arguments) in calls {
        let refused = client.fails(tool, arguments, "SOURCE_NOT_IN_WORKSPACE").await;
        assert!(!refused.to_string().contains("outside-secret"), "{refused}");
    }
    // Nothing of the solution ran: no workspace, no restore, no design-time build, no test build.
    assert_eq!(client.workspace_status(&fixture.path("ws/Ws.slnx")).await, None);
    for project in ["ws/Lib", "ws/Inside.Tests", "elsewhere/Evil.Tests"] {
        assert!(!fixture.path(project).join("obj").exists(), "{project} was restored or built");
    }
    assert!(!state.path().join("test-runs").read_dir().is_ok_and(|mut d| d.next().is_some()), "a run began");
}

/// Entries of `dir` named `prefix*`.
fn entries_named(dir: &Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|name| name.starts_with(prefix))
        .collect()
}

/// The sockets of the compiler server of the service `pid`: Roslyn binds `/tmp/<pipe name>` on Unix
/// (NamedPipeUtil, whatever TMPDIR says).
fn compiler_pipes(pid: u32) -> Vec<String> {
    entries_named(Path::new("/tmp"), &format!("roslyn-mcp-{pid}-"))
}

/// The results folders `<state>/test-runs/<solution>/run-<pid>-*` of the service `pid`.
fn results_of(state: &Path, pid: u32) -> Vec<PathBuf> {
    let prefix = format!("run-{pid}-");
    std::fs::read_dir(state.join("test-runs"))
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|solution| std::fs::read_dir(solution.path()).into_iter().flatten().flatten())
        .filter(|run| run.file_name().to_str().is_some_and(|n| n.starts_with(&prefix)))
        .map(|run| run.path())
        .collect()
}

/// Waits (generously) until `left` reports nothing; panics with what is left.
async fn none_left(what: &str, left: impl Fn() -> Vec<String>) {
    let gone = eventually(Duration::from_secs(30), || async { left().is_empty().then_some(()) });
    assert!(gone.await.is_some(), "{what} left: {:?}", left());
}

/// A copy of Tested served by a daemon under `state`, its fault knob set: DiscountTests.HangsWhenAsked waits
/// while the knob exists, so a run that reaches it never ends. The fixture, the client and the knob.
async fn hanging(state: &StateDir) -> (Fixture, Client<Agent>, PathBuf) {
    let fixture = Fixture::copy("Tested");
    let client = state.bridge(&fixture.root).await;
    let knob = fixture.path("Pricing.NunitTests/hang.fault");
    std::fs::write(&knob, "").expect("knob");
    (fixture, client, knob)
}

/// Calls `tool` in the background and waits until its run's NUnit tests are running: the call, and the run
/// folder its processes mention.
async fn testing(
    client: &Client<Agent>,
    state: &StateDir,
    tool: &'static str,
    arguments: Value,
) -> (tokio::task::JoinHandle<Result<CallToolResult, rmcp::ServiceError>>, String) {
    let arguments = arguments.as_object().cloned().expect("object");
    let peer = client.peer().clone();
    let call =
        tokio::spawn(async move { peer.call_tool(CallToolRequestParams::new(tool).with_arguments(arguments)).await });
    let artifacts = state.path().join("test-runs").display().to_string();
    let started = eventually(Duration::from_secs(300), || async {
        processes_mentioning(&artifacts).iter().any(|p| p.contains("Pricing.NunitTests.dll")).then_some(())
    });
    assert!(started.await.is_some(), "the NUnit tests never started; log: {}", state.log().display());
    (call, artifacts)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_daemon_killed_while_a_write_verifies_leaves_no_run_and_its_next_start_rolls_the_write_back() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let state = StateDir::default();
    let (fixture, client, knob) = hanging(&state).await;
    let before = tree(&fixture.root);

    // A body edit of Faults.HangWhenAsked: its tests (the hanging one among them) verify it.
    let arguments = json!({"pattern": "Thread.Sleep(100);", "replacement": "Thread.Sleep(50);", "verify": "tests"});
    let (write, artifacts) = testing(&client, &state, "find_replace", arguments).await;
    assert!(fixture.read("Pricing/Faults.cs").contains("Thread.Sleep(50);"), "the write is on disk while it verifies");

    let daemon = state.daemon_pid().await;
    let server = format!("-pipename:roslyn-mcp-{daemon}-");
    // What the attack must leave nothing of: the run's processes, its compiler server and pipe, its results.
    assert_eq!(processes_mentioning(&server).len(), 1, "the run's build started the compiler server");
    assert_eq!(compiler_pipes(daemon).len(), 1, "the compiler server's pipe");
    assert_eq!(results_of(state.path(), daemon).len(), 1, "the run's results folder");
    kill9(daemon);
    let _ = write.await;
    drop(client);

    none_left("the run's processes", || processes_mentioning(&artifacts)).await;
    none_left("the compiler server", || processes_mentioning(&server)).await;

    // The next daemon rolls the write back before it serves, says why, and sweeps the killed run's results.
    let next = state.bridge(&fixture.root).await;
    let restarted = eventually(Duration::from_secs(30), || async {
        let pid = state.info().and_then(|i| i["pid"].as_u64())?;
        (pid as u32 != daemon).then_some(())
    });
    assert!(restarted.await.is_some(), "no new daemon published itself");
    assert_same_tree(&before, &fixture.root, "the write cut off before its verdict is rolled back");
    let original = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/Tested/Pricing/Faults.cs");
    assert!(
        std::fs::read(fixture.path("Pricing/Faults.cs")).expect("read") == std::fs::read(original).expect("read"),
        "Faults.cs is the fixture's own again"
    );
    let listed = next.ok("list_operations", json!({})).await;
    let operation = &listed["operations"][0];
    assert_eq!(operation["state"], "Undone", "{listed}");
    assert_eq!(operation["verification"]["interrupted"], true, "{listed}");
    // A killed daemon not yet reaped is a zombie: gone all the same (its /proc entry named if this fails).
    let zombie = std::fs::read_to_string(format!("/proc/{daemon}/stat")).unwrap_or_default();
    assert_eq!(
        results_of(state.path(), daemon),
        Vec::<PathBuf>::new(),
        "the killed run's results; the killed daemon's /proc/{daemon}/stat: {zombie:?}"
    );
    // Checked last, so that the assertions above still speak when it fails: the guardian removes the socket,
    // the next start's sweep at the latest.
    none_left("the compiler server's pipe", || compiler_pipes(daemon)).await;

    std::fs::remove_file(&knob).expect("remove the knob");
    next.close().await;
    state.terminate().await;
}

/// A daemon killed together with its guardian leaves its test run going (nobody is left to end it): the next
/// start ends it, by the service's pid every process of the run carries.
#[tokio::test(flavor = "multi_thread")]
async fn a_run_left_by_a_daemon_killed_with_its_guardian_is_ended_by_the_next_start() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let state = StateDir::default();
    let (fixture, client, knob) = hanging(&state).await;
    let arguments = json!({"tests": ["Pricing.NunitTests.DiscountTests.HangsWhenAsked"]});
    let (run, artifacts) = testing(&client, &state, "run_tests", arguments).await;

    let daemon = state.daemon_pid().await;
    let guardian = children(daemon).into_iter().find(|pid| {
        std::fs::read(format!("/proc/{pid}/cmdline"))
            .is_ok_and(|cmdline| cmdline.split(|b| *b == 0).any(|arg| arg == b"guard"))
    });
    kill9(guardian.expect("the daemon's guardian"));
    kill9(daemon);
    let _ = run.await;
    drop(client);
    assert!(!processes_mentioning(&artifacts).is_empty(), "with nobody left to end it, the run goes on");

    let next = state.bridge(&fixture.root).await;
    none_left("the run's processes", || processes_mentioning(&artifacts)).await;
    std::fs::remove_file(&knob).expect("remove the knob");
    next.close().await;
    state.terminate().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_embedded_session_closed_after_run_tests_leaves_no_compiler_server_pipe_or_rehearsal() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    // The spare host left on: it rehearses a load in a folder of its own, which must not outlive it.
    let log = state.path().join("embedded.log");
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"));
    command
        .args(["stdio", "--embedded"])
        .current_dir(&fixture.root)
        .env("ROSLYN_MCP_STATE_DIR", state.path())
        .env("ROSLYN_MCP_LOG", "info,rmcp=warn");
    let stderr = std::fs::File::create(&log).expect("log file");
    let transport = TokioChildProcess::builder(command).stderr(stderr).spawn().expect("spawn embedded").0;
    let pid = transport.id().expect("embedded pid");
    let client = crate::support::Client::new(().serve(transport).await.expect("MCP initialize"), log);

    let run = client.ok("run_tests", json!({"tests": ["Pricing.XunitTests.CartTests.CountsWhatWasAdded"]})).await;
    assert_eq!(run["summary"]["passed"], 1, "{run}");
    let server = format!("-pipename:roslyn-mcp-{pid}-");
    assert_eq!(processes_mentioning(&server).len(), 1, "the run's build started the compiler server");
    assert_eq!(compiler_pipes(pid).len(), 1, "the compiler server's pipe");
    // Its children: its hosts (the solution's and the spare) and its guardian.
    let hosts = children(pid);
    assert!(!hosts.is_empty(), "the session has children");
    let rehearsals = format!("roslyn-mcp-rehearsal-{pid}-");

    client.close().await;
    let exited = eventually(Duration::from_secs(60), || async { (!alive(pid)).then_some(()) });
    assert!(exited.await.is_some(), "the embedded service {pid} did not exit when its session closed");
    none_left("the compiler server", || processes_mentioning(&server)).await;
    for host in hosts {
        let members = || group_members(host).into_iter().map(|p| p.to_string()).collect();
        none_left(&format!("host {host}'s processes"), members).await;
    }
    let temp = std::env::temp_dir();
    none_left("a rehearsal folder", || entries_named(&temp, &rehearsals)).await;
    // Last, so that the assertions above still speak when it fails.
    none_left("the compiler server's pipe", || compiler_pipes(pid)).await;
}
