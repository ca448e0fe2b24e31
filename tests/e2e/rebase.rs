//! Many agents, one solution: a plan lands only on the snapshot it was proven on, or is brought onto the newer
//! one (kept after a compile check, or replayed) and proven again; what cannot be replayed is refused with why
//! and what changed, nothing written; an undo after later writes merges when they changed other places and is
//! refused naming them when not. Sessions are bridges to one daemon, on a copy of Shop.

use crate::daemon::metric;
use crate::support::daemon::{Agent, StateDir, get};
use crate::support::{Client, Fixture, SLOTS, assert_same_tree, dotnet_build_errors, eventually, tree};
use serde_json::{Value, json};
use std::time::Duration;

const CALCULATOR: &str = "src/Shop.Core/Services/PriceCalculator.cs";
const CUSTOMER: &str = "src/Shop.Core/Models/Customer.cs";
const EXTRA: &str = "src/Shop.App/Extra.cs";
const PROGRAM: &str = "src/Shop.App/Program.cs";

#[tokio::test(flavor = "multi_thread")]
async fn a_previewed_rename_is_replayed_over_a_use_another_agent_added_and_undone_byte_for_byte() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(2).await;
    let (shop, agent) = (&shared.shop, &shared.sessions[0]);
    let plan =
        agent.ok("rename_symbol", preview(rename(shop, CALCULATOR, "Round(decimal value)", "RoundToCents"))).await;
    let before = tree(&shop.root);

    // Another agent adds a file in another project calling the old name; the watcher brings it to the host.
    let extra = "namespace Shop.App;\n\npublic static class Extra\n{\n    public static decimal Fee() => \
                 Shop.Core.Services.PriceCalculator.Round(1.234m);\n}\n";
    std::fs::write(shop.path(EXTRA), extra).expect("new file");
    let (line, column) = shop.position_of(CALCULATOR, "Round(decimal value)", 0);
    let seen = eventually(Duration::from_secs(60), || async {
        let found = shared.sessions[1]
            .call("find_references", json!({"filePath": shop.file(CALCULATOR), "line": line, "column": column}))
            .await;
        found.value.to_string().contains("Extra.cs").then_some(())
    })
    .await;
    assert!(seen.is_some(), "the host saw the new file");

    let applied = agent.ok("apply_plan", json!({"planId": plan["planId"]})).await;
    let rebased = &applied["rebased"];
    assert_eq!(rebased["how"], "replayed", "{applied}");
    assert!(
        rebased["differences"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|d| d == "also changes src/Shop.App/Extra.cs (1 edit)"),
        "{applied}"
    );
    assert!(rebased["changedSince"].to_string().contains("src/Shop.App/Extra.cs"), "{applied}");
    assert!(shop.read(EXTRA).contains("PriceCalculator.RoundToCents(1.234m)"), "the new use is renamed too");
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "the replayed rename builds");

    let with_extra = {
        let mut with_extra = before.clone();
        with_extra.insert(EXTRA.to_owned(), extra.as_bytes().to_vec());
        with_extra
    };
    agent.ok("undo", json!({"operationId": applied["operationId"]})).await;
    assert_eq!(tree(&shop.root), with_extra, "undo gives every byte back, the new file's included");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn plans_previewed_on_one_snapshot_all_land_at_once_and_the_solution_builds() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(4).await;
    let shop = &shared.shop;
    // Two renames of different words of one file, and one elsewhere that nothing they change mentions.
    let asked = [
        rename(shop, CUSTOMER, "Email {", "ContactEmail"),
        rename(shop, CUSTOMER, "Id {", "CustomerId"),
        rename(shop, CALCULATOR, "Round(decimal value)", "RoundToCents"),
    ];
    let previews = futures::future::join_all(
        asked
            .iter()
            .zip(&shared.sessions)
            .map(|(arguments, session)| session.ok("rename_symbol", preview(arguments.clone()))),
    )
    .await;
    let applies = previews
        .iter()
        .zip(&shared.sessions)
        .map(|(plan, session)| session.call("apply_plan", json!({"planId": plan["planId"], "waitSeconds": 120})));
    let applied = futures::future::join_all(applies).await;
    let mut hows = Vec::new();
    for outcome in &applied {
        assert!(!outcome.is_error, "every plan lands: {}", outcome.value);
        hows.push(outcome.value["rebased"]["how"].as_str().unwrap_or("as_seen").to_owned());
    }
    assert_eq!(hows.iter().filter(|h| *h == "as_seen").count(), 1, "one lands as seen, the others rebased: {hows:?}");
    let customer = shop.read(CUSTOMER);
    assert!(customer.contains("ContactEmail {") && customer.contains("CustomerId {"), "{customer}");
    assert!(shop.read(CALCULATOR).contains("RoundToCents(decimal value)"));
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "the solution builds after the three writes");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_whose_symbol_another_session_renamed_is_refused_naming_it_and_nothing_is_written() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(3).await;
    let (shop, first, second) = (&shared.shop, &shared.sessions[0], &shared.sessions[1]);
    let plan =
        first.ok("rename_symbol", preview(rename(shop, CALCULATOR, "Round(decimal value)", "RoundToCents"))).await;
    // A plan that nothing touches is kept as computed after a compile check.
    let kept = first
        .ok(
            "rename_symbol",
            preview(rename(shop, "src/Shop.Core/Services/Greeter.cs", "FormalGreeter :", "PoliteGreeter")),
        )
        .await;
    let other = second.ok("rename_symbol", rename(shop, CALCULATOR, "Round(decimal value)", "Rounded")).await;
    let before = tree(&shop.root);

    let refused = first.fails("apply_plan", json!({"planId": plan["planId"]}), "STALE_PLAN").await;
    assert_same_tree(&before, &shop.root, "a refused replay writes nothing");
    let change = &refused["details"]["changedSince"][0];
    assert_eq!(
        (change["source"].clone(), change["operationId"].clone()),
        (json!("write"), other["operationId"].clone()),
        "{refused}"
    );
    assert!(change["sessionId"].as_str().is_some_and(|s| !s.is_empty()), "{refused}");
    assert!(refused["details"]["replayRefused"].as_str().is_some_and(|r| r.contains("changed since")), "{refused}");
    assert!(refused["message"].as_str().is_some_and(|m| m.contains("rename_symbol by session")), "{refused}");

    let landed = first.ok("apply_plan", json!({"planId": kept["planId"]})).await;
    assert_eq!(landed["rebased"]["how"], "kept", "{landed}");
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "the solution builds");

    let text = get(&format!("{}/metrics", shared.state.base_url().await), shared.state.token().as_deref()).await.1;
    let count = |series: &str| metric(&text, series);
    assert_eq!(count("roslyn_mcp_plans_settled_total{outcome=\"as_seen\",reason=\"none\"}"), 1.0, "{text}");
    assert_eq!(count("roslyn_mcp_plans_settled_total{outcome=\"kept\",reason=\"none\"}"), 1.0, "{text}");
    assert_eq!(count("roslyn_mcp_plans_settled_total{outcome=\"refused\",reason=\"conflict\"}"), 1.0, "{text}");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_undo_after_later_writes_merges_where_they_changed_other_places_and_else_names_them() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(2).await;
    let (shop, a, b) = (&shared.shop, &shared.sessions[0], &shared.sessions[1]);
    let original = shop.read(CUSTOMER);
    let email = a.ok("rename_symbol", rename(shop, CUSTOMER, "Email {", "ContactEmail")).await;
    let id = b.ok("rename_symbol", rename(shop, CUSTOMER, "Id {", "CustomerId")).await;

    // The first rename undone after the second changed its file elsewhere: merged, compiled, undone.
    let listed = a.ok("list_operations", json!({})).await;
    let first =
        listed["operations"].as_array().into_iter().flatten().find(|o| o["operationId"] == email["operationId"]);
    assert_eq!(first.map(|o| o["canUndo"].clone()), Some(json!(true)), "{listed}");
    a.ok("undo", json!({"operationId": email["operationId"]})).await;
    let customer = shop.read(CUSTOMER);
    assert!(customer.contains("Email {") && customer.contains("CustomerId {"), "{customer}");
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "the merged undo builds");

    // A later rename of the very words the first one wrote: the undo is refused, naming it.
    let name = a.ok("rename_symbol", rename(shop, CUSTOMER, "Name {", "FullName")).await;
    let later = b.ok("rename_symbol", rename(shop, CUSTOMER, "FullName {", "DisplayName")).await;
    let before = tree(&shop.root);
    let refused = a.fails("undo", json!({"operationId": name["operationId"]}), "STALE_PLAN").await;
    assert_same_tree(&before, &shop.root, "a refused undo writes nothing");
    let named = refused["details"]["laterOperations"].as_array().into_iter().flatten();
    assert!(
        named
            .into_iter()
            .any(|o| o.as_str().is_some_and(|o| o.starts_with(later["operationId"].as_str().unwrap_or("?")))),
        "{refused}"
    );
    assert!(refused["message"].as_str().is_some_and(|m| m.contains("changed at the same places")), "{refused}");
    // Undone in order, it goes.
    b.ok("undo", json!({"operationId": later["operationId"]})).await;
    a.ok("undo", json!({"operationId": name["operationId"]})).await;
    b.ok("undo", json!({"operationId": id["operationId"]})).await;
    assert_eq!(shop.read(CUSTOMER), original, "undone in order, every byte is back");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_code_action_previewed_before_another_write_to_its_file_is_merged_into_it() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(2).await;
    let (shop, a, b) = (&shared.shop, &shared.sessions[0], &shared.sessions[1]);
    let (line, column) = shop.position_of(PROGRAM, "var calculator", 0);
    let listed =
        a.ok("get_code_actions", json!({"filePath": shop.file(PROGRAM), "line": line, "column": column})).await;
    let explicit = listed["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|action| action["title"].as_str().is_some_and(|title| title.starts_with("Use explicit type")));
    let explicit = explicit.unwrap_or_else(|| panic!("no explicit type action: {listed}"));
    let plan = a.ok("apply_code_action", json!({"id": explicit["id"], "preview": true})).await;
    // Another session renames a property its file uses on another line.
    b.ok("rename_symbol", rename(shop, CUSTOMER, "Name {", "FullName")).await;

    // Asked for exactly the previewed bytes, it is refused with the merged plan; nothing is written.
    let before = tree(&shop.root);
    let refused = a.fails("apply_plan", json!({"planId": plan["planId"], "exact": true}), "STALE_PLAN").await;
    assert!(refused["details"]["replayedPlanId"].as_str().is_some_and(|id| id != plan["planId"]), "{refused}");
    assert_same_tree(&before, &shop.root, "an inexact plan refused writes nothing");

    let applied = a.ok("apply_plan", json!({"planId": plan["planId"]})).await;
    assert_eq!(applied["rebased"]["how"], "merged", "{applied}");
    let program = shop.read(PROGRAM);
    assert!(program.contains("PriceCalculator calculator = new PriceCalculator()"), "{program}");
    assert!(program.contains("FullName = \"Ada\""), "{program}");
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "the merged action builds");
    shared.stop().await;
}

/// A daemon on a copy of Shop and `count` bridge sessions to it.
pub struct Shared {
    pub shop: Fixture,
    pub state: StateDir,
    pub daemon: std::process::Child,
    pub sessions: Vec<Client<Agent>>,
}

impl Shared {
    pub async fn start(count: usize) -> Self {
        Self::start_with(count, &[]).await
    }

    /// With `env` for the daemon.
    pub async fn start_with(count: usize, env: &[(&str, &str)]) -> Self {
        Self::start_on(Fixture::copy("Shop"), count, env).await
    }

    /// On another fixture's copy (in the field `shop` all the same).
    pub async fn start_on(shop: Fixture, count: usize, env: &[(&str, &str)]) -> Self {
        let state = StateDir::default();
        let daemon = state.serve(&[], env);
        // The bridges come once it serves: none starts a daemon of its own.
        state.daemon_pid().await;
        let sessions = futures::future::join_all((0..count).map(|_| state.bridge(&shop.root))).await;
        Self { shop, state, daemon, sessions }
    }

    pub async fn stop(mut self) {
        self.state.terminate().await;
        let _ = self.daemon.wait();
    }
}

/// rename_symbol of the name at `needle` in `file`.
fn rename(shop: &Fixture, file: &str, needle: &str, new_name: &str) -> Value {
    let (line, column) = shop.position_of(file, needle, 0);
    json!({"filePath": shop.file(file), "line": line, "column": column, "newName": new_name})
}

fn preview(mut arguments: Value) -> Value {
    arguments["preview"] = json!(true);
    arguments
}
