//! The host's life: restart after a crash, eviction of the least recently used solution, no orphan when
//! the service dies, diagnose answering while a solution loads, a slow start holding up no other solution,
//! and the spare host a load takes.

use crate::support::hold::Hold;
use crate::support::{Fixture, Server, alive, children, eventually, group_members, kill9, tree};
use serde_json::json;
use std::time::Duration;

fn host_pid(status: &serde_json::Value) -> u32 {
    status["hostPid"].as_u64().unwrap_or_else(|| panic!("no hostPid in {status}")) as u32
}

/// The Roslyn hosts the service process started.
fn hosts_of(service: u32) -> Vec<u32> {
    children_running(service, b"RoslynMcp.Host.dll")
}

/// The MSBuild build hosts a Roslyn host started.
fn build_hosts_of(host: u32) -> Vec<u32> {
    children_running(host, b"BuildHost.dll")
}

/// The children of `parent` with an argument ending in `dll`.
fn children_running(parent: u32, dll: &[u8]) -> Vec<u32> {
    children(parent)
        .into_iter()
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            cmdline.split(|b| *b == 0).any(|arg| arg.ends_with(dll))
        })
        .collect()
}

/// Clock ticks since boot (the kernel reports process start times in USER_HZ, 100 a second).
fn uptime_ticks() -> u64 {
    let uptime = std::fs::read_to_string("/proc/uptime").expect("/proc/uptime");
    let seconds: f64 = uptime.split_whitespace().next().and_then(|s| s.parse().ok()).expect("uptime seconds");
    (seconds * 100.0) as u64
}

/// When `pid` started, in clock ticks since boot (field 22 of its stat).
fn started_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("process stat");
    let after_name = stat.rsplit(')').next().unwrap_or_default();
    after_name.split_whitespace().nth(19).and_then(|t| t.parse().ok()).expect("start time")
}

/// The service starts a host before any load, which rehearses a load while idle and keeps nothing of it; the
/// first load takes that host, and the next spare starts once the warm-up is over and calls have paused: a
/// write that waited for the warm-up and is held past it holds the spare back until it ends.
#[tokio::test(flavor = "multi_thread")]
async fn a_load_takes_the_spare_host_and_the_next_spare_waits_for_the_warm_up_and_a_pause_in_calls() {
    let beta = Fixture::copy("tiny/Beta");
    let warm_up = beta.root.join("release-the-warm-up");
    let hold = Hold::default();
    let warm_up_hold = warm_up.display().to_string();
    let asked = [("ROSLYN_MCP_SPARE_HOST", "true"), ("ROSLYN_MCP_WARM_UP", "true")];
    let env = [("ROSLYN_MCP_FAULT_HOLD_WARMUP", warm_up_hold.as_str()), hold.env(), asked[0], asked[1]];
    let server = Server::start_with_env(&beta.root, &env).await;
    let spare = spare_rehearsed(&server).await;
    assert_eq!(ready_spare(&server).await, Some(spare), "diagnose shows the spare ready");
    let shown = server.ok("diagnose", json!({})).await["spareHost"].clone();
    assert!(shown["hostResidentBytes"].as_u64().is_some_and(|b| b > 0), "{shown}");

    let summary = server.ok("initialize_workspace", json!({"workingDirectory": beta.root.display().to_string()})).await;
    assert_eq!(summary["primarySolution"]["projectCount"], json!(1), "only Beta, nothing of the rehearsal: {summary}");
    let serving = host_pid(&server.workspace_status(&beta.path("Beta.csproj")).await.expect("Beta loaded"));
    assert_eq!(serving, spare, "the load started a host of its own instead of taking the spare");

    let before = tree(&beta.root);
    let rename = json!({"filePath": beta.file("Beta.cs"), "line": 3, "column": 14, "newName": "GammaThing"});
    let write = server.call("rename_symbol", rename);
    let held_past_the_warm_up = async {
        std::fs::write(&warm_up, "").expect("release the warm-up");
        let replaced = eventually(Duration::from_secs(60), || async { (tree(&beta.root) != before).then_some(()) });
        assert!(replaced.await.is_some(), "the rename never replaced the file");
        server.warm_up_finished(Duration::from_secs(120)).await;
        // Long enough for a spare started at the warm-up's end to show, and for a pause of calls had there been one.
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert_eq!(hosts_of(server.pid), vec![serving], "a spare host started while a write was under way");
        let diagnose = server.ok("diagnose", json!({})).await;
        assert!(diagnose.get("spareHost").is_none(), "the taken spare is still shown: {diagnose}");
        hold.release();
    };
    let (renamed, ()) = tokio::join!(write, held_past_the_warm_up);
    assert!(!renamed.is_error, "{}", renamed.value);
    let next =
        eventually(Duration::from_secs(60), || async { hosts_of(server.pid).into_iter().find(|&pid| pid != serving) })
            .await;
    assert!(next.is_some(), "no spare host started once the calls paused: {:?}", hosts_of(server.pid));
    let shown = eventually(Duration::from_secs(60), || ready_spare(&server)).await;
    assert_eq!(shown, next, "diagnose shows the next spare");
    let question = json!({"filePath": beta.file("Beta.cs"), "line": 3, "column": 14});
    let definition = server.ok("find_symbol_definition", question).await;
    assert_eq!(definition["symbolInfo"]["name"], json!("GammaThing"), "{definition}");
    server.stop().await;
}

/// The spare host diagnose shows ready, if any.
async fn ready_spare(server: &Server) -> Option<u32> {
    let shown = server.ok("diagnose", json!({})).await["spareHost"].clone();
    let pid = shown["hostPid"].as_u64().map(|pid| pid as u32);
    pid.filter(|_| shown["state"] == json!("ready"))
}

/// The spare host, once it has logged its rehearsed load and that load's build host has exited.
async fn spare_rehearsed(server: &Server) -> u32 {
    let spare = eventually(Duration::from_secs(60), || async { hosts_of(server.pid).first().copied() }).await;
    let spare = spare.expect("the service starts a spare host before any load");
    assert!(server.logs("load rehearsed", Duration::from_secs(120)).await, "the spare host never rehearsed a load");
    let gone = eventually(Duration::from_secs(60), || async { build_hosts_of(spare).is_empty().then_some(()) }).await;
    assert!(gone.is_some(), "the rehearsal's build host stayed: {:?}", build_hosts_of(spare));
    spare
}

/// A spare that dies while idle (killed, out of memory) is replaced before a load needs it, and the load takes
/// the replacement.
#[tokio::test(flavor = "multi_thread")]
async fn an_idle_spare_that_dies_is_replaced_before_a_load_needs_it() {
    let beta = Fixture::copy("tiny/Beta");
    let server = Server::start(&beta.root, &["--spare-host", "true"]).await;
    let first = eventually(Duration::from_secs(60), || ready_spare(&server)).await.expect("a ready spare");
    kill9(first);
    let replaced =
        eventually(Duration::from_secs(60), || async { ready_spare(&server).await.filter(|&pid| pid != first) }).await;
    let second =
        replaced.unwrap_or_else(|| panic!("the dead spare {first} was not replaced: {:?}", hosts_of(server.pid)));
    assert_eq!(hosts_of(server.pid), vec![second], "the dead spare left something behind");

    server.ok("initialize_workspace", json!({"workingDirectory": beta.root.display().to_string()})).await;
    let serving = host_pid(&server.workspace_status(&beta.path("Beta.csproj")).await.expect("Beta loaded"));
    assert_eq!(serving, second, "the load did not take the replacement");
    server.stop().await;
}

/// Spares that keep dying while idle are replaced three times in a row, then no more until a load: a spare
/// that cannot live (a broken install, a memory limit) never becomes a loop of starts. The load still works.
#[tokio::test(flavor = "multi_thread")]
async fn spares_that_keep_dying_are_not_restarted_in_a_loop() {
    let beta = Fixture::copy("tiny/Beta");
    let server = Server::start(&beta.root, &["--spare-host", "true"]).await;
    let mut killed = Vec::new();
    for _ in 0..4 {
        let next = eventually(Duration::from_secs(60), || async {
            ready_spare(&server).await.filter(|pid| !killed.contains(pid))
        })
        .await;
        let pid = next.unwrap_or_else(|| panic!("no spare after {} were killed", killed.len()));
        kill9(pid);
        killed.push(pid);
    }
    // Long enough for a fifth to have started, had the fourth loss been replaced like the others.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(hosts_of(server.pid), Vec::<u32>::new(), "a spare started after {killed:?} died");
    let diagnose = server.ok("diagnose", json!({})).await;
    assert!(diagnose.get("spareHost").is_none(), "{diagnose}");
    server.ok("initialize_workspace", json!({"workingDirectory": beta.root.display().to_string()})).await;
    server.stop().await;
}

/// `--spare-host false`: the load starts its own host, and no other host is started.
#[tokio::test(flavor = "multi_thread")]
async fn without_a_spare_the_load_starts_its_own_host_and_no_other() {
    let beta = Fixture::copy("tiny/Beta");
    let server = Server::start(&beta.root, &["--spare-host", "false", "--warm-up", "true"]).await;
    let asked = uptime_ticks();
    server.ok("initialize_workspace", json!({"workingDirectory": beta.root.display().to_string()})).await;
    server.warm_up_finished(Duration::from_secs(120)).await;
    let serving = host_pid(&server.workspace_status(&beta.path("Beta.csproj")).await.expect("Beta loaded"));
    assert!(started_ticks(serving) >= asked, "the host serving the load was started before the load was asked for");
    assert_eq!(hosts_of(server.pid), vec![serving]);
    let diagnose = server.ok("diagnose", json!({})).await;
    assert!(diagnose.get("spareHost").is_none(), "no spare is shown: {diagnose}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_host_is_restarted_by_the_next_call_and_diagnose_shows_it() {
    let alpha = Fixture::copy("tiny/Alpha");
    let server = Server::start(&alpha.root, &[]).await;
    let file = alpha.file("Alpha.cs");
    let solution = alpha.path("Alpha.csproj");
    let question = json!({"filePath": file, "line": 3, "column": 14});
    let before = server.ok("find_symbol_definition", question.clone()).await;

    let status = server.workspace_status(&solution).await.expect("Alpha is loaded");
    assert_eq!((status["state"].clone(), status["hostRestarts"].clone()), (json!("Ready"), json!(0)));
    let first = host_pid(&status);
    kill9(first);
    // A request sent to a host that dies under it is not sent again; this one goes once the death is seen.
    let seen = eventually(Duration::from_secs(20), || async {
        let status = server.workspace_status(&solution).await?;
        (status["state"] == json!("Restarting")).then_some(status)
    })
    .await;
    let seen = seen.expect("the killed host was never noticed");
    assert_eq!(seen["hostRestarts"], json!(1), "counted before the next call restarts it: {seen}");

    let after = server.ok("find_symbol_definition", question).await;
    assert_eq!(after, before);
    let status = server.workspace_status(&solution).await.expect("Alpha is loaded");
    assert_eq!((status["state"].clone(), status["hostRestarts"].clone()), (json!("Ready"), json!(1)), "{status}");
    assert_ne!(host_pid(&status), first);
    let diagnose = server.ok("diagnose", json!({})).await;
    assert!(diagnose["warnings"].to_string().contains("restarted 1 time"), "{diagnose}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_third_solution_evicts_the_least_recently_used_and_its_host_exits() {
    let alpha = Fixture::copy("tiny/Alpha");
    let beta = Fixture::copy("tiny/Beta");
    let gamma = Fixture::copy("tiny/Gamma");
    let server = Server::start(&alpha.root, &["--max-solutions", "2"]).await;
    let ask = |fixture: &Fixture, file: &str| json!({"filePath": fixture.file(file), "line": 3, "column": 14});

    server.ok("find_symbol_definition", ask(&alpha, "Alpha.cs")).await;
    server.ok("find_symbol_definition", ask(&beta, "Beta.cs")).await;
    // Alpha is used again: Beta becomes the least recently used.
    server.ok("find_symbol_definition", ask(&alpha, "Alpha.cs")).await;
    let beta_host = host_pid(&server.workspace_status(&beta.path("Beta.csproj")).await.expect("Beta loaded"));

    let gamma_answer = server.ok("find_symbol_definition", ask(&gamma, "Gamma.cs")).await;
    assert_eq!(gamma_answer["resolvedFromSolution"], json!(gamma.file("Gamma.slnx")));
    let loaded = eventually(Duration::from_secs(10), || async {
        let diagnose = server.ok("diagnose", json!({})).await;
        let paths: Vec<String> = diagnose["workspaces"]
            .as_array()
            .expect("workspaces")
            .iter()
            .map(|w| w["solutionPath"].as_str().expect("path").to_owned())
            .collect();
        (paths.len() == 2).then_some(paths)
    })
    .await
    .expect("a solution should have been evicted");
    let mut expected = vec![alpha.file("Alpha.csproj"), gamma.file("Gamma.slnx")];
    expected.sort();
    assert_eq!(loaded, expected);
    let exited = eventually(Duration::from_secs(10), || async { (!alive(beta_host)).then_some(()) }).await;
    assert!(exited.is_some(), "Beta's host {beta_host} is still running after eviction");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn diagnose_answers_while_a_solution_loads() {
    let shop = Fixture::copy("Shop");
    // The host holds the load until this file exists, so the load is under way for as long as the test asks.
    let release = shop.root.join("release-the-load");
    let hold = release.display().to_string();
    let server =
        std::sync::Arc::new(Server::start_with_env(&shop.root, &[("ROSLYN_MCP_FAULT_HOLD_LOAD", &hold)]).await);
    let loading = {
        let server = server.clone();
        let root = shop.root.display().to_string();
        tokio::spawn(async move { server.ok("initialize_workspace", json!({"workingDirectory": root})).await })
    };
    let state = |diagnose: &serde_json::Value| diagnose["workspaces"][0]["state"].as_str().map(str::to_owned);
    let seen = eventually(Duration::from_secs(60), || async {
        (state(&server.ok("diagnose", json!({})).await).as_deref() == Some("Loading")).then_some(())
    })
    .await;
    assert!(seen.is_some(), "diagnose never showed the held load");
    // Every diagnose answers while the load cannot finish.
    for _ in 0..20 {
        assert_eq!(state(&server.ok("diagnose", json!({})).await).as_deref(), Some("Loading"));
    }
    assert!(!loading.is_finished(), "the load finished while held");
    std::fs::write(&release, "").expect("release the load");
    loading.await.expect("initialize_workspace");
    assert_eq!(state(&server.ok("diagnose", json!({})).await).as_deref(), Some("Ready"));
}

/// A project of `folders` x `files` source files: a tree whose recursive watch takes a while to set up.
fn large_project(root: &std::path::Path, folders: usize, files: usize) {
    std::fs::create_dir_all(root).expect("project folder");
    std::fs::write(root.join("Big.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>\n</Project>\n")
        .expect("project file");
    for folder in 0..folders {
        let dir = root.join(format!("Part{folder}"));
        std::fs::create_dir_all(&dir).expect("folder");
        for file in 0..files {
            let text = format!("namespace Big.Part{folder};\n\npublic class Type{file} {{ }}\n");
            std::fs::write(dir.join(format!("Type{file}.cs")), text).expect("source file");
        }
    }
}

/// Opening a solution waits on no mailbox; a workspace starts (watches its folder, here a large one
/// held open by a fault knob) in its own actor, so another solution's reads all answer meanwhile.
#[tokio::test(flavor = "multi_thread")]
async fn a_workspace_starting_slowly_holds_up_no_call_of_another_solution() {
    let tiny = Fixture::copy("tiny");
    let big = tiny.path("Big");
    large_project(&big, 40, 50);
    let hold = tiny.path("hold-workspace-starts");
    let env = [("ROSLYN_MCP_FAULT_HOLD_WORKSPACE_START", hold.to_str().expect("utf-8 path"))];
    let server = std::sync::Arc::new(Server::start_with_env(&tiny.root, &env).await);
    let read = json!({"filePath": tiny.file("Alpha/Alpha.cs"), "line": 3, "column": 14});
    server.ok("find_symbol_definition", read.clone()).await;

    std::fs::write(&hold, "").expect("hold workspace starts");
    let opening = {
        let (server, big) = (server.clone(), big.display().to_string());
        tokio::spawn(async move { server.ok("initialize_workspace", json!({"workingDirectory": big})).await })
    };
    let big_solution = big.join("Big.csproj");
    let listed =
        eventually(Duration::from_secs(60), || async { server.workspace_status(&big_solution).await.map(drop) }).await;
    assert!(listed.is_some(), "the broker never registered Big while its start was held");
    let mut answered = 0;
    for _ in 0..20 {
        // A guard against a hang, not a measure: each read of a loaded solution takes milliseconds.
        let reply = tokio::time::timeout(Duration::from_secs(60), server.ok("find_symbol_definition", read.clone()));
        answered += usize::from(reply.await.is_ok());
    }
    assert_eq!(answered, 20, "reads of Alpha waited on Big's start");
    assert!(!opening.is_finished(), "Big's start finished while held");

    std::fs::remove_file(&hold).expect("release workspace starts");
    let opened = opening.await.expect("initialize_workspace");
    let documents = opened["primarySolution"]["documentCount"].as_u64().unwrap_or_default();
    assert!(documents >= 2_000, "Big loads once released: {opened}");
}

#[tokio::test(flavor = "multi_thread")]
async fn killing_the_service_leaves_no_host_behind() {
    let beta = Fixture::copy("tiny/Beta");
    let server = Server::start(&beta.root, &[]).await;
    server.ok("find_symbol_definition", json!({"filePath": beta.file("Beta.cs"), "line": 3, "column": 14})).await;
    let host = host_pid(&server.workspace_status(&beta.path("Beta.csproj")).await.expect("Beta loaded"));
    assert!(children(server.pid).contains(&host), "the host is a child of the service");
    kill9(server.pid);
    let gone = eventually(Duration::from_secs(10), || async { group_members(host).is_empty().then_some(()) }).await;
    assert!(gone.is_some(), "processes of host {host} outlived the service: {:?}", group_members(host));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_solution_is_unloaded_and_its_host_exits() {
    let alpha = Fixture::copy("tiny/Alpha");
    let server = Server::start(&alpha.root, &["--idle-timeout-secs", "2"]).await;
    server.ok("find_symbol_definition", json!({"filePath": alpha.file("Alpha.cs"), "line": 3, "column": 14})).await;
    let host = host_pid(&server.workspace_status(&alpha.path("Alpha.csproj")).await.expect("Alpha loaded"));
    // diagnose does not count as use: the solution still goes idle while it is watched.
    let unloaded = eventually(Duration::from_secs(15), || async {
        let diagnose = server.ok("diagnose", json!({})).await;
        (diagnose["workspaces"] == json!([]) && !alive(host)).then_some(())
    })
    .await;
    assert!(unloaded.is_some(), "Alpha (host {host}) was not unloaded after going idle");
    server.stop().await;
}

/// A host past its memory budget is unloaded once its call is answered, never in the middle of it; the
/// next call loads the solution again in a fresh host. Diagnose shows each host's memory and the budget.
#[tokio::test(flavor = "multi_thread")]
async fn a_host_over_its_memory_budget_is_unloaded_between_calls_and_reloads_for_the_next() {
    let alpha = Fixture::copy("tiny/Alpha");
    let solution = alpha.path("Alpha.csproj");
    let question = json!({"filePath": alpha.file("Alpha.cs"), "line": 3, "column": 14});

    let roomy = Server::start(&alpha.root, &[]).await;
    let answer = roomy.ok("find_symbol_definition", question.clone()).await;
    let status = roomy.workspace_status(&solution).await.expect("loaded");
    assert!(status["hostResidentBytes"].as_u64().is_some_and(|b| b > 1024 * 1024), "{status}");
    let diagnose = roomy.ok("diagnose", json!({"verbose": true})).await;
    assert_eq!(diagnose["settings"]["maxHostMemoryMb"], json!(4096));
    roomy.stop().await;

    // Every host is over a budget of 1 MiB.
    let server = Server::start_with_env(&alpha.root, &[("ROSLYN_MCP_MAX_HOST_MEMORY_MB", "1")]).await;
    for _ in 0..2 {
        // Answered in full: the budget never cuts a call off.
        assert_eq!(server.ok("find_symbol_definition", question.clone()).await, answer);
        let unloaded = eventually(Duration::from_secs(30), || async {
            server.workspace_status(&solution).await.is_none().then_some(())
        })
        .await;
        assert!(unloaded.is_some(), "the host over its budget was never unloaded");
    }
    assert!(std::fs::read_to_string(&server.log).expect("log").contains("host over its memory budget"));
    server.stop().await;
}

/// The hosts together over their shared budget (1 MiB here: any two are over it): the least recently used
/// solution is unloaded between calls and its host exits, and the one used last stays however much it holds.
#[tokio::test(flavor = "multi_thread")]
async fn hosts_over_their_shared_memory_budget_unload_the_least_recently_used_and_keep_the_last() {
    let alpha = Fixture::copy("tiny/Alpha");
    let beta = Fixture::copy("tiny/Beta");
    let server = Server::start_with_env(&alpha.root, &[("ROSLYN_MCP_MAX_HOSTS_MEMORY_MB", "1")]).await;
    let diagnose = server.ok("diagnose", json!({"verbose": true})).await;
    assert_eq!(diagnose["settings"]["maxHostsMemoryMb"], json!(1), "{diagnose}");
    let ask = |fixture: &Fixture, file: &str| json!({"filePath": fixture.file(file), "line": 3, "column": 14});
    let (alpha_solution, beta_solution) = (alpha.path("Alpha.csproj"), beta.path("Beta.csproj"));

    let alpha_answer = server.ok("find_symbol_definition", ask(&alpha, "Alpha.cs")).await;
    let alpha_host = host_pid(&server.workspace_status(&alpha_solution).await.expect("Alpha loaded"));
    server.ok("find_symbol_definition", ask(&beta, "Beta.cs")).await;
    let unloaded = eventually(Duration::from_secs(30), || async {
        server.workspace_status(&alpha_solution).await.is_none().then_some(())
    })
    .await;
    assert!(unloaded.is_some(), "Alpha, used least recently, was never unloaded");
    let exited = eventually(Duration::from_secs(10), || async { (!alive(alpha_host)).then_some(()) }).await;
    assert!(exited.is_some(), "Alpha's host {alpha_host} still runs");
    // Alone over the budget, the solution used last stays loaded (ticks of the check pass meanwhile).
    tokio::time::sleep(Duration::from_secs(3)).await;
    let beta_host = host_pid(&server.workspace_status(&beta_solution).await.expect("Beta, used last, stays"));

    // Alpha asked again loads afresh and answers as before; now Beta is the least recently used.
    assert_eq!(server.ok("find_symbol_definition", ask(&alpha, "Alpha.cs")).await, alpha_answer);
    let swapped = eventually(Duration::from_secs(30), || async {
        server.workspace_status(&beta_solution).await.is_none().then_some(())
    })
    .await;
    assert!(swapped.is_some(), "Beta, now used least recently, was never unloaded");
    assert!(eventually(Duration::from_secs(10), || async { (!alive(beta_host)).then_some(()) }).await.is_some());
    assert!(server.workspace_status(&alpha_solution).await.is_some(), "Alpha, used last, stays");
    let log = std::fs::read_to_string(&server.log).expect("log");
    assert_eq!(log.matches("over their shared memory budget").count(), 2, "{log}");
    server.stop().await;
}

/// After a load the host compiles every project; diagnose shows the progress, and a call that arrives meanwhile
/// waits for it outside its own time limit (1 s here, with the warm-up held for longer), then answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_call_during_the_warm_up_waits_for_it_outside_its_time_limit() {
    let shop = Fixture::copy("Shop");
    let release = shop.root.join("release-the-warm-up");
    let hold = release.display().to_string();
    let env = [
        ("ROSLYN_MCP_WARM_UP", "true"),
        ("ROSLYN_MCP_FAULT_HOLD_WARMUP", hold.as_str()),
        ("ROSLYN_MCP_REQUEST_TIMEOUT_SECS", "1"),
    ];
    let server = std::sync::Arc::new(Server::start_with_env(&shop.root, &env).await);
    let root = shop.root.display().to_string();
    server.ok("initialize_workspace", json!({"workingDirectory": root})).await;
    let warm_up = |diagnose: serde_json::Value| diagnose["workspaces"][0]["warmUp"].clone();
    let held = warm_up(server.ok("diagnose", json!({})).await);
    assert_eq!(held["phase"], json!("compiling"), "initialize_workspace answers once loaded: {held}");
    assert_eq!((held["projectsWarmed"].clone(), held["projectCount"].clone()), (json!(0), json!(3)));

    let references = {
        let server = server.clone();
        let file = shop.file("src/Shop.Core/Models/Customer.cs");
        tokio::spawn(
            async move { server.call("find_references", json!({"filePath": file, "line": 6, "column": 14})).await },
        )
    };
    // Held for more than twice the call's limit: had the wait counted, the call would be a TIMEOUT by now.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(!references.is_finished(), "the call did not wait for the warm-up");
    std::fs::write(&release, "").expect("release the warm-up");
    let answered = references.await.expect("find_references");
    assert!(!answered.is_error, "{}", answered.value);
    assert!(answered.value["totalCount"].as_u64().is_some_and(|n| n > 0), "{}", answered.value);
    let done = warm_up(server.ok("diagnose", json!({})).await);
    assert_eq!((done["phase"].clone(), done["projectsWarmed"].clone()), (json!("done"), json!(3)), "{done}");
}

/// `--warm-up false`: no project is compiled ahead after the load, so a call is sent at once (the warm-up is
/// held here, and would hold the call) and compiles only what it reads; diagnose shows no warm-up.
#[tokio::test(flavor = "multi_thread")]
async fn without_a_warm_up_a_call_after_the_load_is_sent_at_once_and_answers_in_full() {
    let shop = Fixture::copy("Shop");
    let hold = shop.root.join("release-the-warm-up").display().to_string();
    let env = [("ROSLYN_MCP_WARM_UP", "false"), ("ROSLYN_MCP_FAULT_HOLD_WARMUP", hold.as_str())];
    let server = Server::start_with_env(&shop.root, &env).await;
    let file = shop.file("src/Shop.Core/Models/Customer.cs");
    let references = server.call("find_references", json!({"filePath": file, "line": 6, "column": 14}));
    let answered = tokio::time::timeout(Duration::from_secs(240), references).await.expect("held by a warm-up");
    assert!(!answered.is_error, "{}", answered.value);
    // Every use in the three projects (as with a warm-up: navigation's test of the same search).
    let files: std::collections::BTreeSet<_> = answered.value["references"]
        .as_array()
        .expect("references")
        .iter()
        .filter_map(|r| r["filePath"].as_str()?.rsplit('/').next())
        .collect();
    let expected = ["CustomerRepository.cs", "Order.cs", "Program.cs", "Report.cs"];
    assert_eq!(files, expected.into_iter().collect(), "{}", answered.value);
    assert_eq!(answered.value["totalCount"], json!(9), "{}", answered.value);
    let diagnose = server.ok("diagnose", json!({})).await;
    assert!(diagnose["workspaces"][0].get("warmUp").is_none(), "{diagnose}");
    let log = std::fs::read_to_string(&server.log).expect("service log");
    assert!(!log.contains("warm-up ended") && !log.contains("searches rehearsed"), "{log}");
    server.stop().await;
}
