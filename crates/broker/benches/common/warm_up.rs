//! Waiting for the warm-up that follows a load.

use super::support::Client;
use rmcp::ClientHandler;
use serde_json::{Value, json};
use std::time::Duration;

/// Diagnose's answer once the first workspace's warm-up has ended; panics past `limit`.
pub async fn finished<H: ClientHandler>(client: &Client<H>, limit: Duration) -> Value {
    let done = super::support::eventually(limit, || async {
        let diagnose = client.ok("diagnose", json!({})).await;
        (diagnose["workspaces"][0]["warmUp"]["phase"] == json!("done")).then_some(diagnose)
    })
    .await;
    done.expect("the warm-up did not end")
}
