//! One call's work as a job: its progress so far, how it ended, and the token that stops it.

use super::owner::Owner;
use protocol::ToolError;
use protocol::tools::jobs::JobProgress;
use rmcp::model::CallToolResult;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Steps a job keeps in `recent`.
const RECENT: usize = 5;
/// Characters of one step kept (a test's output line can be long).
const STEP_CHARS: usize = 300;

pub struct Job {
    pub id: String,
    pub tool: String,
    pub(super) owner: Owner,
    pub(super) session: String,
    began: Instant,
    /// RFC 3339, for tasks.
    pub created_at: String,
    /// Stops the work: a test run's process groups are killed, a write is rolled back.
    pub cancel: CancellationToken,
    progress: Mutex<Steps>,
    /// The solution the work waits for while it loads.
    loading: Mutex<Option<PathBuf>>,
    /// Whether the call answered before the work ended: from then on nobody waits on the request, progress
    /// notifications stop (the request is answered), and the job is kept for `get_job` and `tasks/get`.
    detached: AtomicBool,
    end: watch::Sender<Option<Arc<Finished>>>,
}

struct Steps {
    count: u32,
    recent: VecDeque<String>,
    /// When the last step came (or the job began).
    at: SystemTime,
}

impl Default for Steps {
    fn default() -> Self {
        Self { count: 0, recent: VecDeque::new(), at: SystemTime::now() }
    }
}

/// How a job's work ended: the call's own answer, as its caller would have had it.
pub struct Finished {
    /// The answer before its timing is added (what the tool's handler and the envelope made of it).
    pub outcome: Result<CallToolResult, ToolError>,
    /// `_meta` timing of the whole work, from the call's arrival.
    pub total_ms: f64,
    pub host_ms: f64,
    /// Whether it ended because it was cancelled.
    pub cancelled: bool,
    pub(super) at: Instant,
}

impl Job {
    pub(super) fn new(id: String, tool: &str, owner: Owner, session: &str) -> Self {
        Self {
            id,
            tool: tool.to_owned(),
            owner,
            session: session.to_owned(),
            began: Instant::now(),
            created_at: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
            cancel: CancellationToken::new(),
            progress: Mutex::default(),
            loading: Mutex::default(),
            detached: AtomicBool::new(false),
            end: watch::Sender::new(None),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.began.elapsed()
    }

    /// Records a step of the work.
    pub fn step(&self, message: &str) {
        let mut steps = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        steps.count += 1;
        if steps.recent.len() == RECENT {
            steps.recent.pop_front();
        }
        steps.recent.push_back(message.chars().take(STEP_CHARS).collect());
        steps.at = SystemTime::now();
    }

    /// When the last step came, or the job began.
    pub fn updated(&self) -> SystemTime {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner).at
    }

    pub fn set_loading(&self, solution: Option<PathBuf>) {
        *self.loading.lock().unwrap_or_else(PoisonError::into_inner) = solution;
    }

    /// The solution the work waits for, while it loads.
    pub fn loading(&self) -> Option<PathBuf> {
        self.loading.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub fn progress(&self) -> JobProgress {
        let steps = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        JobProgress {
            steps: steps.count,
            latest: steps.recent.back().cloned(),
            recent: steps.recent.iter().cloned().collect(),
        }
    }

    pub(super) fn detach(&self) {
        self.detached.store(true, Ordering::Release);
    }

    pub fn detached(&self) -> bool {
        self.detached.load(Ordering::Acquire)
    }

    /// Whether the work goes on after its call answered.
    pub fn outlives_call(&self) -> bool {
        self.detached() && self.finished().is_none()
    }

    /// Records how the work ended; the first end counts.
    pub fn finish(&self, outcome: Result<CallToolResult, ToolError>, total_ms: f64, host_ms: f64) {
        let cancelled = self.cancel.is_cancelled();
        let finished = Arc::new(Finished { outcome, total_ms, host_ms, cancelled, at: Instant::now() });
        self.end.send_if_modified(|end| {
            let first = end.is_none();
            end.get_or_insert(finished);
            first
        });
    }

    pub fn finished(&self) -> Option<Arc<Finished>> {
        self.end.borrow().clone()
    }

    /// Waits for the end, however long it takes.
    pub async fn ended(&self) -> Arc<Finished> {
        let mut end = self.end.subscribe();
        loop {
            if let Some(finished) = end.borrow_and_update().clone() {
                return finished;
            }
            // The sender lives as long as the job, which the caller holds.
            if end.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Waits for the end at most `within`.
    pub async fn ended_within(&self, within: Duration) -> Option<Arc<Finished>> {
        tokio::time::timeout(within, self.ended()).await.ok()
    }
}

impl Finished {
    /// The answer as the call would have given it, with the timing of the whole work.
    pub fn result(&self) -> CallToolResult {
        crate::envelope::timed(
            self.outcome.clone().unwrap_or_else(crate::envelope::failure),
            self.total_ms,
            self.host_ms,
        )
    }
}
