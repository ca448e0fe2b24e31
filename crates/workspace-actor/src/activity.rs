//! Whether a workspace has calls under way, and since when it has had none: eviction unloads a workspace
//! idle long enough, and the next spare host waits for calls to pause before it starts, so that its start
//! (a process, Roslyn's composition, a rehearsed load: seconds of both cores) never slows the calls that
//! follow a load.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
// Tokio's clock, so that the tests can move it.
use tokio::time::Instant;

#[derive(Clone)]
pub struct Activity {
    calls: Arc<AtomicUsize>,
    /// When the last call began or ended.
    last: Arc<Mutex<Instant>>,
}

impl Default for Activity {
    fn default() -> Self {
        Self { calls: Arc::default(), last: Arc::new(Mutex::new(Instant::now())) }
    }
}

impl Activity {
    /// One call under way until the guard drops.
    pub fn begin(&self) -> Busy {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.touch();
        Busy(self.clone())
    }

    /// How long no call has been under way; zero while one is.
    pub fn idle_for(&self) -> Duration {
        self.idle_since(None)
    }

    /// Returns once no call has been under way for `pause` counted from now, or after `at_most` whatever the
    /// calls do. Time idle before now does not count: a client that waited for the warm-up by polling
    /// diagnose asks its first question right after it.
    pub async fn paused(&self, pause: Duration, at_most: Duration) {
        let asked = Instant::now();
        let _ = tokio::time::timeout(at_most, async {
            loop {
                let idle = self.idle_since(Some(asked));
                if idle >= pause {
                    return;
                }
                // A call under way reads as no idle time: look again a tenth of the pause later.
                tokio::time::sleep((pause - idle).max(pause / 10)).await;
            }
        })
        .await;
    }

    fn idle_since(&self, since: Option<Instant>) -> Duration {
        if self.calls.load(Ordering::Relaxed) > 0 {
            return Duration::ZERO;
        }
        let last = *self.last.lock().unwrap_or_else(PoisonError::into_inner);
        since.map_or(last, |since| since.max(last)).elapsed()
    }

    fn touch(&self) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }
}

/// A call under way.
pub struct Busy(Activity);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.touch();
        self.0.calls.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_pause_is_counted_from_the_end_of_the_last_call() {
        let activity = Activity::default();
        let busy = activity.begin();
        let paused = tokio::spawn({
            let activity = activity.clone();
            async move { activity.paused(Duration::from_secs(1), Duration::from_secs(30)).await }
        });
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(!paused.is_finished(), "a call under way is no pause");
        drop(busy);
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(!paused.is_finished(), "half the pause is not the pause");
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert!(paused.is_finished(), "a second without calls is the pause");
    }

    #[tokio::test(start_paused = true)]
    async fn time_idle_before_the_wait_does_not_count() {
        let activity = Activity::default();
        tokio::time::sleep(Duration::from_secs(5)).await;
        let began = tokio::time::Instant::now();
        activity.paused(Duration::from_secs(1), Duration::from_secs(30)).await;
        assert_eq!(began.elapsed().as_secs(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn calls_that_never_pause_hold_it_back_only_so_long() {
        let activity = Activity::default();
        let _busy = activity.begin();
        let began = tokio::time::Instant::now();
        activity.paused(Duration::from_secs(1), Duration::from_secs(30)).await;
        assert_eq!(began.elapsed().as_secs(), 30);
    }
}
