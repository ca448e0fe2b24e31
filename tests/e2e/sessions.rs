//! Fifty sessions at once, HTTP clients and stdio bridges mixed, on two solutions of one daemon: every
//! answer is the one a lone session gets, each solution is loaded once, and the only failures are the
//! writes that will not wait for another write in progress (`waitSeconds: 0`, WORKSPACE_BUSY).

use crate::daemon::metric;
use crate::support::daemon::{Agent, StateDir, get};
use crate::support::hold::Hold;
use crate::support::{Fixture, SLOTS, eventually};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Barrier;

const SESSIONS: usize = 50;
/// Every fifth session is a bridge, the rest HTTP clients.
const BRIDGE_EVERY: usize = 5;
/// Sessions that try the same move at the same moment.
const WRITERS: usize = 6;

/// The reads a session makes on its solution, as (tool, arguments).
fn reads(shop: &Fixture, moves: &Fixture, on_shop: bool) -> Vec<(&'static str, Value)> {
    if on_shop {
        let program = shop.file("src/Shop.App/Program.cs");
        let (line, column) = shop.position_of("src/Shop.App/Program.cs", "names =", 0);
        vec![
            ("get_type_at_position", json!({"filePath": program, "line": line, "column": column})),
            ("find_references", json!({"filePath": program, "line": line, "column": column + 1})),
            ("search_symbols", json!({"query": "Repository", "solutionPath": shop.file("Shop.sln")})),
        ]
    } else {
        let shapes = moves.file("src/Moves.Core/Models/Shapes.cs");
        vec![
            ("find_references", json!({"filePath": shapes, "line": 25, "column": 21})),
            ("find_symbol_definition", json!({"filePath": shapes, "line": 25, "column": 21})),
            ("get_document_symbols", json!({"filePath": shapes})),
        ]
    }
}

/// What must be identical across sessions: the payload without its cursors (bound to the host's pid).
fn comparable(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        object.remove("nextCursor");
    }
    value
}

#[tokio::test(flavor = "multi_thread")]
async fn fifty_sessions_share_two_solutions_loaded_once() {
    let _slots = SLOTS.acquire_many(2).await.expect("slots");
    let shop = Fixture::copy("Shop");
    let moves = Fixture::copy("Moves");
    let state = StateDir::default();
    // The write that takes the lock holds it until every other writer has been answered.
    let hold = Hold::default();
    let mut daemon = state.serve(&[], &[hold.env()]);
    let base = state.base_url().await;

    // The expected answers, from one lone session.
    let reference = state.http_client(None).await;
    let mut expected = Vec::new();
    for on_shop in [true, false] {
        let mut answers = Vec::new();
        for (tool, arguments) in reads(&shop, &moves, on_shop) {
            answers.push(comparable(reference.ok(tool, arguments).await));
        }
        expected.push(answers);
    }
    reference.close().await;
    let expected = Arc::new(expected);

    let connect = (0..SESSIONS).map(|i| {
        let state = &state;
        async move {
            if i % BRIDGE_EVERY == 0 {
                state.bridge_with(Agent::default(), std::path::Path::new("/")).await
            } else {
                state.http_client(None).await
            }
        }
    });
    let sessions = futures::future::join_all(connect).await;
    // Every read is answered before the writers start together, so that no read sees a moved file.
    let barrier = Arc::new(Barrier::new(SESSIONS));
    let answered = Arc::new(AtomicUsize::new(0));
    let sketch = moves.file("src/Moves.Legacy/Drawing/Sketch.cs");
    let canvas = moves.file("src/Moves.Legacy/Drawing/Canvas.cs");
    let work = sessions.iter().enumerate().map(|(i, client)| {
        let (expected, barrier, answered) = (expected.clone(), barrier.clone(), answered.clone());
        let (shop, moves) = (&shop, &moves);
        let (sketch, canvas) = (sketch.clone(), canvas.clone());
        async move {
            let on_shop = i % 2 == 0;
            for round in 0..2 {
                for (n, (tool, arguments)) in reads(shop, moves, on_shop).into_iter().enumerate() {
                    let answer = comparable(client.ok(tool, arguments).await);
                    assert_eq!(answer, expected[usize::from(!on_shop)][n], "session {i} round {round}: {tool}");
                }
            }
            barrier.wait().await;
            if i % 2 == 1 && i < 2 * WRITERS {
                let moved = client
                    .call(
                        "move_type_to_file",
                        // Not waiting in line: refused at once while the first holds the lock.
                        json!({"sourceFile": sketch, "symbolName": "Sketch", "targetFile": canvas, "waitSeconds": 0}),
                    )
                    .await;
                answered.fetch_add(1, Ordering::SeqCst);
                return Some(moved);
            }
            None
        }
    });
    let release = async {
        let refused = eventually(Duration::from_secs(120), || async {
            (answered.load(Ordering::SeqCst) == WRITERS - 1).then_some(())
        })
        .await;
        hold.release();
        assert!(refused.is_some(), "the writers that found the lock taken were not all answered");
    };
    let (writes, ()) = tokio::join!(futures::future::join_all(work), release);
    let writes: Vec<_> = writes.into_iter().flatten().collect();
    assert_eq!(writes.len(), WRITERS);
    let applied: Vec<_> = writes.iter().filter(|w| !w.is_error).collect();
    assert_eq!(applied.len(), 1, "one write applies: {writes:?}");
    for refused in writes.iter().filter(|w| w.is_error) {
        assert_eq!(refused.value["error"]["code"], json!("WORKSPACE_BUSY"), "{:?}", refused.value);
    }
    assert!(std::fs::read_to_string(&canvas).expect("canvas").contains("class Sketch"));

    // Loaded exactly once each, as diagnose and the metrics say.
    let diagnose = sessions[1].ok("diagnose", json!({})).await;
    let workspaces = diagnose["workspaces"].as_array().expect("workspaces");
    assert_eq!(workspaces.len(), 2, "{diagnose}");
    assert!(workspaces.iter().all(|w| w["hostRestarts"] == json!(0)), "{diagnose}");
    let text = get(&format!("{base}/metrics"), state.token().as_deref()).await.1;
    assert_eq!(metric(&text, "roslyn_mcp_solution_loads_total{outcome=\"ok\"}"), 2.0, "{text}");
    assert_eq!(metric(&text, "roslyn_mcp_solutions_loaded"), 2.0);
    assert_eq!(metric(&text, "roslyn_mcp_busy_rejections_total{tool=\"move_type_to_file\"}"), (WRITERS - 1) as f64);
    let open = metric(&text, "roslyn_mcp_sessions_open{transport=\"http\"}")
        + metric(&text, "roslyn_mcp_sessions_open{transport=\"socket\"}");
    assert_eq!(open, SESSIONS as f64);

    for session in sessions {
        session.close().await;
    }
    crate::support::daemon::signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("exit").success());
}
