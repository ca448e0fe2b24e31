//! No one request freezes the daemon, and one session cannot take the others' plans: written as the attacks,
//! with two HTTP sessions of one daemon on a private copy of the Textual fixture.

use crate::support::daemon::{StateDir, get};
use crate::support::{Fixture, tree};
use serde_json::{Value, json};
use std::time::Duration;

/// Textual with `Textual/Flood.cs`: `filler` comment lines, then 20 naming `flood`, so that a replacement of
/// it makes a plan as large as the file that still compiles.
fn textual_with_flood(filler: usize) -> Fixture {
    let fixture = Fixture::copy("Textual");
    let filler = (0..filler).map(|i| format!("// filler line {i:07}\n"));
    let text: String = filler.chain((0..20).map(|i| format!("// {i} flood\n"))).collect();
    std::fs::write(fixture.path("Textual/Flood.cs"), format!("namespace Textual;\n{text}")).expect("Flood.cs");
    fixture
}

fn replace(pattern: &str, replacement: &str) -> Value {
    json!({"pattern": pattern, "replacement": replacement, "preview": true})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_thousand_line_replacement_preview_is_bounded_while_health_and_other_sessions_answer() {
    let fixture = textual_with_flood(0);
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let (attacker, other) = (state.http_client(None).await, state.http_client(None).await);
    for session in [&attacker, &other] {
        session.ok("initialize_workspace", json!({"workingDirectory": fixture.root})).await;
    }
    let before = tree(&fixture.root);
    let base = state.base_url().await;

    // 300 KB of request: every `flood` becomes 100,000 comment lines and the word, 2,000,000 lines in all.
    let bomb = replace("flood", &format!("{} flood", "\n//".repeat(100_000)));
    let preview = attacker.call("find_replace", bomb.clone());
    let meanwhile = async {
        for _ in 0..5 {
            let diagnose = other.ok("diagnose", json!({})).await;
            assert!(diagnose["workspaces"].is_array(), "{diagnose}");
            assert_eq!(get(&format!("{base}/healthz"), None).await.0, 200);
        }
    };
    let (preview, ()) = tokio::join!(preview, meanwhile);
    assert!(!preview.is_error, "{:?}", preview.value);
    let change = &preview.value["pendingChanges"][0];
    assert_eq!(change["file"], json!(fixture.file("Textual/Flood.cs")), "{change}");
    let diff = change["diff"].as_str().expect("a diff");
    assert!(diff.len() <= 256 * 1024, "a bounded diff: {} bytes", diff.len());
    let cut = change["truncated"].as_str().expect("the cut is said");
    assert!(cut.starts_with("diff cut at 256 KiB: "), "{cut}");
    assert!(preview.value["warnings"].to_string().contains("applying writes the whole change"), "{:?}", preview.value);
    let shown = preview.value["matches"][0]["replacement"].as_str().expect("a listed match");
    assert!(shown.len() < 4096 && shown.ends_with("more characters)"), "a listed replacement is cut: {shown:.200}");
    let answer = preview.value.to_string().len();
    assert!(answer < 4 * 1024 * 1024, "the whole answer is bounded: {answer} bytes");
    assert!(preview.value["planId"].is_string(), "a plan of 6 MB is kept");
    assert_eq!(tree(&fixture.root), before, "a preview writes nothing");

    // SIGTERM while two more such previews are in flight: the daemon still ends (their answers never come).
    let in_flight =
        futures::future::join(attacker.call("find_replace", bomb.clone()), other.call("find_replace", bomb));
    tokio::pin!(in_flight);
    tokio::select! {
        _ = &mut in_flight => {}
        () = tokio::time::sleep(Duration::from_millis(500)) => {}
    }
    state.terminate().await;
    assert!(daemon.wait().is_ok_and(|status| status.success()), "the daemon ended cleanly on SIGTERM");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_flood_from_one_session_evicts_only_its_own_oldest_plans_and_says_so() {
    // Each plan rewrites a 7.2 MB document: ten of them pass a session's share of 64 MiB.
    let fixture = textual_with_flood(300_000);
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &[]);
    let (victim, flooder) = (state.http_client(None).await, state.http_client(None).await);
    for session in [&victim, &flooder] {
        session.ok("initialize_workspace", json!({"workingDirectory": fixture.root})).await;
    }
    let kept = victim.ok("find_replace", replace("GetOrderAsync", "FetchOrderAsync")).await;
    let kept_id = kept["planId"].as_str().expect("planId").to_owned();

    let mut flood = Vec::new();
    for round in 0..10 {
        let plan = flooder.ok("find_replace", replace("flood", &format!("flood{round}"))).await;
        flood.push(plan["planId"].as_str().expect("every kept plan has an id").to_owned());
    }
    let evicted = flooder.fails("apply_plan", json!({"planId": flood[0]}), "PLAN_NOT_FOUND").await;
    assert_eq!(evicted["details"]["reason"], json!("evicted"), "{evicted}");
    assert!(evicted["message"].as_str().expect("message").contains("its share"), "{evicted}");

    let applied = victim.ok("apply_plan", json!({"planId": kept_id})).await;
    assert!(applied["changes"]["filesModified"].as_array().is_some_and(|f| !f.is_empty()), "{applied}");
    assert!(fixture.read("Textual/Orders/OrderService.cs").contains("FetchOrderAsync"));
    let again = victim.fails("apply_plan", json!({"planId": kept_id}), "PLAN_NOT_FOUND").await;
    assert_eq!(again["details"]["reason"], json!("applied"), "{again}");
    state.terminate().await;
    let _ = daemon.wait();
}
