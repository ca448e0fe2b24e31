//! Memory back to the system after a burst. A burst of requests allocates on every worker thread, and
//! glibc keeps what they free in its arenas: a thousand pipelined searches left the process near 1 GB
//! long after the last answer. Once the service has served requests and none is in flight any more,
//! `malloc_trim` hands the free pages back.

use crate::in_flight::Budget;
use std::sync::Arc;
use std::time::Duration;

/// How often the service looks for the end of a burst; trimming happens at most this often.
const CHECK_EVERY: Duration = Duration::from_secs(5);

/// Trims the heap whenever requests were served since the last look and none is in flight.
pub fn return_after_bursts(budget: Arc<Budget>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECK_EVERY);
        let mut trimmed_at = budget.admitted();
        loop {
            tick.tick().await;
            let admitted = budget.admitted();
            if admitted != trimmed_at && budget.idle() {
                trimmed_at = admitted;
                trim();
            }
        }
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    #[allow(unsafe_code)]
    // SAFETY: malloc_trim only walks the allocator's own free lists; 0 keeps no extra pad at the top.
    let released = unsafe { libc::malloc_trim(0) };
    tracing::debug!(released = released == 1, "returned free heap memory to the system");
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}
