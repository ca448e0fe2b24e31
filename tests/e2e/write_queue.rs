//! Writers queue: four sessions of one daemon rename four symbols at the same moment while the first write is
//! held; the others wait their turn instead of being turned away, each plan brought onto the solution as the
//! write before it left it, and all land in a solution that builds. A writer that will not wait is refused at
//! once naming the holder and the line; diagnose and /metrics show the queue. A previewed plan whose file an
//! editor changes while it waits in line is merged into the file as it is when its turn comes: the editor's
//! text and both renames stand. Writers whose computations and checks outlast the lock's limit settle outside
//! it and all land.

use crate::daemon::metric;
use crate::rebase::Shared;
use crate::support::daemon::get;
use crate::support::hold::Hold;
use crate::support::{Fixture, SLOTS, assert_same_tree, dotnet_build_errors, eventually, tree};
use serde_json::{Value, json};
use std::time::Duration;

/// (file, the name's place, new name) of the four renames, two of them in one file.
const RENAMES: [(&str, &str, &str); 4] = [
    ("src/Shop.Core/Models/Customer.cs", "Email {", "ContactEmail"),
    ("src/Shop.Core/Models/Customer.cs", "Id {", "CustomerId"),
    ("src/Shop.Core/Services/PriceCalculator.cs", "Round(decimal value)", "RoundToCents"),
    ("src/Shop.Core/Services/Greeter.cs", "FormalGreeter :", "PoliteGreeter"),
];

#[tokio::test(flavor = "multi_thread")]
async fn writers_that_find_the_solution_held_wait_their_turn_and_all_land() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let (hold, Shared { shop, state, mut daemon, sessions }) = held(RENAMES.len() + 1).await;
    let solution = shop.path("Shop.sln");
    let (file, needle, _) = RENAMES[0];
    let (line, column) = shop.position_of(file, needle, 0);
    sessions[0].ok("find_references", json!({"filePath": shop.file(file), "line": line, "column": column})).await;

    let writes = RENAMES.iter().enumerate().map(|(n, _)| {
        let arguments = rename_at(&shop, n, 300);
        let session = &sessions[n];
        async move { session.call("rename_symbol", arguments).await }
    });
    let writes = futures::future::join_all(writes);
    let watch = async {
        let queued = eventually(Duration::from_secs(120), || async {
            let status = sessions[4].workspace_status(&solution).await?;
            (status["writesWaiting"] == json!(3)).then_some(status)
        })
        .await;
        let status = queued.expect("three writers waiting behind the held one");
        assert_eq!(status["writeHolder"]["tool"], "rename_symbol", "{status}");
        // One that will not wait is refused at once, naming who holds the lock and how many wait.
        let refused = sessions[4].fails("rename_symbol", rename_at(&shop, 0, 0), "WORKSPACE_BUSY").await;
        let details = &refused["details"];
        assert_eq!(details["holder"]["tool"], "rename_symbol", "{refused}");
        assert!(details["holder"]["sessionId"].as_str().is_some_and(|id| !id.is_empty()), "{refused}");
        assert_eq!(details["queueLength"], 3, "{refused}");
        hold.release();
    };
    let (written, ()) = tokio::join!(writes, watch);
    for (outcome, (_, _, name)) in written.iter().zip(RENAMES) {
        assert!(!outcome.is_error, "the rename to {name} waited its turn and landed: {}", outcome.value);
    }

    let sources = ["Models/Customer.cs", "Services/PriceCalculator.cs", "Services/Greeter.cs"]
        .map(|file| shop.read(&format!("src/Shop.Core/{file}")))
        .join("\n");
    for (_, _, name) in RENAMES {
        assert!(sources.contains(name), "{name} is in the sources");
    }
    assert_eq!(dotnet_build_errors(&solution).await, 0, "the solution builds after four queued writes");
    let status = sessions[4].workspace_status(&solution).await.expect("loaded");
    assert_eq!((status["writesWaiting"].clone(), status.get("writeHolder")), (json!(0), None), "{status}");

    let text = get(&format!("{}/metrics", state.base_url().await), state.token().as_deref()).await.1;
    let count = |series: &str| metric(&text, series);
    // A writer that finds the solution moved on when its turn comes lets the lock go and takes it again.
    let again = state.serve_log().matches("it settles again before the lock").count() as f64;
    assert_eq!(count("roslyn_mcp_write_lock_wait_seconds_count{outcome=\"granted\"}"), 4.0 + again, "{text}");
    assert_eq!(count("roslyn_mcp_write_lock_wait_seconds_count{outcome=\"busy\"}"), 1.0, "{text}");
    assert_eq!(count("roslyn_mcp_write_lock_hold_seconds_count"), 4.0 + again, "{text}");
    state.terminate().await;
    let _ = daemon.wait();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_queued_plan_whose_file_an_editor_changed_is_merged_into_the_edit_and_the_solution_builds() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let (hold, Shared { shop, state, mut daemon, sessions }) = held(3).await;
    let (first, second, watcher) = (&sessions[0], &sessions[1], &sessions[2]);
    let solution = shop.path("Shop.sln");

    // The second session previews its rename while nothing is written yet.
    let mut previewed = rename_at(&shop, 0, 300);
    previewed["preview"] = json!(true);
    let plan = second.ok("rename_symbol", previewed).await;
    // The first session's write takes the lock and is held; the second's apply then waits in line behind it.
    let held = first.call("rename_symbol", rename_at(&shop, 2, 300));
    let queued = async {
        let holding = eventually(Duration::from_secs(120), || async {
            watcher.workspace_status(&solution).await?.get("writeHolder").map(drop)
        })
        .await;
        assert!(holding.is_some(), "the first write holds the lock");
        second.call("apply_plan", json!({"planId": plan["planId"], "waitSeconds": 300})).await
    };
    let edit = async {
        let waiting = eventually(Duration::from_secs(120), || async {
            let status = watcher.workspace_status(&solution).await?;
            (status["writesWaiting"] == json!(1)).then_some(())
        })
        .await;
        assert!(waiting.is_some(), "the apply waits in line behind the held write");
        // An editor changes the previewed file meanwhile.
        let customer = shop.path(RENAMES[0].0);
        let edited = std::fs::read_to_string(&customer).expect("read") + "\n// edited by hand\n";
        std::fs::write(&customer, edited).expect("edit");
        hold.release();
    };
    let (held, queued, ()) = tokio::join!(held, queued, edit);
    assert!(!held.is_error, "the held write lands: {}", held.value);
    assert!(!queued.is_error, "the plan is merged into the edit: {}", queued.value);
    assert_eq!(queued.value["rebased"]["how"], "merged", "{}", queued.value);
    let writes = queued.value["rebased"]["changedSince"].as_array().into_iter().flatten();
    let by_first = writes.filter(|c| c["source"] == "write" && c["tool"] == "rename_symbol").count();
    assert_eq!(by_first, 1, "the first session's write is named: {}", queued.value);
    let customer = shop.read(RENAMES[0].0);
    assert!(
        customer.contains("ContactEmail {") && customer.contains("// edited by hand"),
        "the edit and the rename stand"
    );
    assert!(shop.read(RENAMES[2].0).contains(RENAMES[2].2), "the other session's rename landed");
    let before = tree(&shop.root);
    assert_eq!(dotnet_build_errors(&solution).await, 0, "the solution builds");
    assert_same_tree(&before, &shop.root, "building changed no source");
    state.terminate().await;
    let _ = daemon.wait();
}

/// A daemon on a copy of Shop whose first write to take the lock holds it, its files replaced, until released,
/// and `count` bridge sessions to it.
async fn held(count: usize) -> (Hold, Shared) {
    let hold = Hold::default();
    let shared = Shared::start_with(count, &[hold.env()]).await;
    (hold, shared)
}

/// rename_symbol of the `n`th rename's name, waiting at most `wait` seconds in line.
fn rename_at(shop: &Fixture, n: usize, wait: u32) -> Value {
    let (file, needle, new_name) = RENAMES[n];
    let (line, column) = shop.position_of(file, needle, 0);
    json!({"filePath": shop.file(file), "line": line, "column": column, "newName": new_name, "waitSeconds": wait})
}

/// Writers queued behind each other whose computations and compile checks each outlast the write time limit
/// (every host request waits 3 s, the lock may be held 1 s): one that took the lock to compute lets it go past
/// the limit, and each brings its plan onto what the others left before it takes the lock again, so all land
/// and the solution builds; then a preview whose file an editor changes right before its apply is merged into
/// the edit outside the lock, and the solution still builds.
#[tokio::test(flavor = "multi_thread")]
async fn writers_whose_computations_outlast_the_lock_s_limit_let_it_go_and_all_land() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let env = [
        ("ROSLYN_MCP_WRITE_TIMEOUT_SECS", "1"),
        ("ROSLYN_MCP_FAULT_READ_DELAY_MS", "3000"),
        crate::support::ANSWER_AS_A_WHOLE,
    ];
    let Shared { shop, state, mut daemon, sessions } = Shared::start_with(RENAMES.len() + 1, &env).await;
    let solution = shop.path("Shop.sln");
    sessions[0].ok("initialize_workspace", json!({"workingDirectory": shop.root})).await;
    let writes = RENAMES.iter().enumerate().map(|(n, _)| sessions[n].call("rename_symbol", rename_at(&shop, n, 300)));
    let written = futures::future::join_all(writes).await;
    for (outcome, (_, _, name)) in written.iter().zip(RENAMES) {
        assert!(!outcome.is_error, "the rename to {name} landed: {}", outcome.value);
    }
    assert!(state.serve_log().contains("a long computation let the write lock go"), "a computation let the lock go");

    // A preview, an editor's change to its file, and the apply at once.
    let greeter = "src/Shop.Core/Services/Greeter.cs";
    let (line, column) = shop.position_of(greeter, "Greet(", 0);
    let arguments =
        json!({"filePath": shop.file(greeter), "line": line, "column": column, "newName": "Welcome", "preview": true});
    let preview = sessions[4].ok("rename_symbol", arguments).await;
    let edited = shop.read(greeter).replacen("namespace", "// edited by hand\nnamespace", 1);
    std::fs::write(shop.path(greeter), &edited).expect("edit");
    let applied = sessions[4].ok("apply_plan", json!({"planId": preview["planId"]})).await;
    assert!(applied["operationId"].as_str().is_some(), "{applied}");
    assert_eq!(applied["rebased"]["how"], "merged", "{applied}");
    let text = shop.read(greeter);
    assert!(text.contains("// edited by hand") && text.contains("Welcome("), "both stand: {text}");
    assert_eq!(dotnet_build_errors(&solution).await, 0, "the solution builds");
    state.terminate().await;
    let _ = daemon.wait();
}
