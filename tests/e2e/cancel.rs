//! Cancellation reaches the work: a find_references the client cancels (notifications/cancelled) on a
//! large solution stops in the Roslyn host well before a whole search would have ended, and the service
//! goes on answering.

use crate::support::{Server, eventually, large};
use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
use rmcp::service::PeerRequestOptions;
use serde_json::json;
use std::time::Duration;

/// Consumers of the shared type: enough for a search of several seconds.
const FILES: usize = 2000;
/// When the client gives up: well inside the search.
const CANCEL_AFTER: Duration = Duration::from_millis(300);

#[tokio::test(flavor = "multi_thread")]
async fn a_cancelled_find_references_stops_in_the_host_before_the_search_would_end() {
    let solution = large::generate(FILES);
    // Alone: the stop is timed.
    let server = Server::start_alone(&solution.root).await;
    let (line, column) = solution.position_of(large::SHARED_FILE, "Shared", 0);
    let shared = json!({"filePath": solution.file(large::SHARED_FILE), "line": line, "column": column});
    // Loads the solution; its warm-up searches Shared (the project's first type), which leaves every use
    // bound for as long as that compilation lives.
    server.ok("find_symbol_definition", shared.clone()).await;
    // An edit of Shared.cs makes a new compilation, so the search below binds every consumer again and
    // cannot be over before the cancellation reaches it, however fast the machine.
    let solution_path = solution.path("Large.slnx");
    let version = server.workspace_status(&solution_path).await.expect("loaded")["workspaceVersion"].clone();
    let shared_file = solution.path(large::SHARED_FILE);
    let edited = std::fs::read_to_string(&shared_file).expect("read Shared.cs") + "// edited\n";
    std::fs::write(&shared_file, edited).expect("edit Shared.cs");
    let changed = eventually(Duration::from_secs(20), || async {
        let status = server.workspace_status(&solution_path).await?;
        (status["workspaceVersion"] != version).then_some(())
    })
    .await;
    assert!(changed.is_some(), "the host never saw the edit");
    server.ok("find_symbol_definition", shared.clone()).await;

    let arguments = shared.as_object().cloned().expect("arguments are an object");
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new("find_references").with_arguments(arguments),
    ));
    let handle = server
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .expect("send find_references");
    tokio::time::sleep(CANCEL_AFTER).await;
    handle.cancel(Some("the client lost interest".into())).await.expect("send notifications/cancelled");

    let stopped_ms = eventually(Duration::from_secs(20), || async {
        std::fs::read_to_string(&server.log).ok().as_deref().and_then(references_stop_ms)
    })
    .await
    .unwrap_or_else(|| panic!("the host never logged the stop of the cancelled search; log: {}", server.log.display()));
    eprintln!("cancelled find_references stopped in the host {stopped_ms} ms after the cancellation");

    // The service still answers. The whole search, measured now on a machine as busy as it was then and with
    // what the cancelled one already bound, is the yardstick: the cancelled one stopped well inside it.
    server.ok("find_symbol_definition", shared.clone()).await;
    let full = server.call("find_references", shared).await;
    assert!(!full.is_error, "find_references failed: {}", full.value);
    assert_eq!(full.value["totalCount"], json!(large::reference_count(FILES)));
    eprintln!("uncancelled find_references over {FILES} files: {:.0} ms in the host", full.host_ms);
    assert!(
        full.host_ms > CANCEL_AFTER.as_millis() as f64,
        "the search took {:.0} ms: it was over before the cancellation",
        full.host_ms
    );
    assert!(
        (stopped_ms as f64) < full.host_ms / 2.0,
        "the search stopped {stopped_ms} ms after its cancellation, a whole one takes {:.0} ms; log: {}",
        full.host_ms,
        server.log.display()
    );
    server.stop().await;
}

/// The milliseconds in the host's `request N References stopped X ms after cancellation` line.
fn references_stop_ms(log: &str) -> Option<u64> {
    log.lines().find_map(|line| {
        let (_, rest) = line.split_once(" References stopped ")?;
        rest.split_once(" ms after cancellation")?.0.parse().ok()
    })
}
