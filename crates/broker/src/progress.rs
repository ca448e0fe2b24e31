//! MCP progress notifications for one request, sent only when the request carried a `progressToken`.
//! Steps are numbered from 1, so the progress value only grows (as the spec requires); the total is not
//! known in advance.

use rmcp::RoleServer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

#[derive(Clone, Default)]
pub struct Progress(Option<Arc<Sink>>);

struct Sink {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    steps: AtomicU32,
}

impl Progress {
    pub fn new(peer: Peer<RoleServer>, token: Option<ProgressToken>) -> Self {
        Self(token.map(|token| Arc::new(Sink { peer, token, steps: AtomicU32::new(0) })))
    }

    /// Reports the next step. A client that went away only loses the notification.
    pub async fn step(&self, message: impl Into<String>) {
        let Some(sink) = &self.0 else {
            return;
        };
        let step = sink.steps.fetch_add(1, Ordering::Relaxed) + 1;
        let mut param = ProgressNotificationParam::new(sink.token.clone(), f64::from(step));
        param.message = Some(message.into());
        if let Err(error) = sink.peer.notify_progress(param).await {
            tracing::debug!(%error, "progress notification not delivered");
        }
    }
}
