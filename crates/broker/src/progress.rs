//! MCP progress notifications for one request, sent only when the request carried a `progressToken`.
//! Steps are numbered from 1, so the progress value only grows (as the spec requires); the total is not
//! known in advance. A call running as a job also records each step there, for `get_job` and `tasks/get`;
//! once the call has answered with its job, its request is over and notifications stop.

use crate::jobs::Job;
use protocol::host::WorkProgress;
use rmcp::RoleServer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use tokio::sync::watch;

#[derive(Clone, Default)]
pub struct Progress {
    sink: Option<Arc<Sink>>,
    job: Option<Arc<Job>>,
}

struct Sink {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    steps: AtomicU32,
}

impl Progress {
    pub fn new(peer: Peer<RoleServer>, token: Option<ProgressToken>, job: Option<Arc<Job>>) -> Self {
        Self { sink: token.map(|token| Arc::new(Sink { peer, token, steps: AtomicU32::new(0) })), job }
    }

    /// The job the call runs as, if it runs as one.
    pub fn job(&self) -> Option<&Arc<Job>> {
        self.job.as_ref()
    }

    /// Reports the next step. A client that went away only loses the notification.
    pub async fn step(&self, message: impl Into<String>) {
        let message = message.into();
        if let Some(job) = &self.job {
            job.step(&message);
            if job.detached() {
                return;
            }
        }
        let Some(sink) = &self.sink else {
            return;
        };
        let step = sink.steps.fetch_add(1, Ordering::Relaxed) + 1;
        let mut param = ProgressNotificationParam::new(sink.token.clone(), f64::from(step));
        param.message = Some(message);
        if let Err(error) = sink.peer.notify_progress(param).await {
            tracing::debug!(%error, "progress notification not delivered");
        }
    }

    /// Runs `work`, reporting each count of files the host tells `heard` as a step ("Computing the change: 120
    /// of 679 files"), until the work ends.
    pub async fn relay<T>(&self, mut heard: watch::Receiver<Option<WorkProgress>>, work: impl Future<Output = T>) -> T {
        tokio::pin!(work);
        let mut listening = true;
        loop {
            tokio::select! {
                done = &mut work => return done,
                changed = heard.changed(), if listening => match changed {
                    Ok(()) => {
                        let seen = *heard.borrow_and_update();
                        if let Some(WorkProgress { done, total, .. }) = seen {
                            self.step(format!("Computing the change: {done} of {total} files")).await;
                        }
                    }
                    // The request ended or was sent again without it: nothing more to hear.
                    Err(_) => listening = false,
                },
            }
        }
    }
}
