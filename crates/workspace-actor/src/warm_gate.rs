//! The warm gate: closed while a warm-up after a load runs, so that calls wait for it before they are sent
//! and the wait never counts against their own time limit.

use std::sync::Arc;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Closed while a warm-up runs (it counts them: one of a host that died may still be ending when the next
/// host's begins), open otherwise.
#[derive(Clone)]
pub struct WarmGate(Arc<watch::Sender<u32>>);

impl Default for WarmGate {
    fn default() -> Self {
        Self(Arc::new(watch::channel(0).0))
    }
}

impl WarmGate {
    /// Waits until no warm-up runs; false when `cancel` fires first.
    pub async fn passed(&self, cancel: &CancellationToken) -> bool {
        let mut running = self.0.subscribe();
        tokio::select! {
            biased;
            result = running.wait_for(|running| *running == 0) => result.is_ok(),
            () = cancel.cancelled() => false,
        }
    }

    /// Closed until the guard drops, however the warm-up ends (a stop drops it unfinished).
    pub fn close(&self) -> Closed {
        self.0.send_modify(|running| *running += 1);
        Closed(self.clone())
    }
}

pub struct Closed(WarmGate);

impl Drop for Closed {
    fn drop(&mut self) {
        self.0.0.send_modify(|running| *running -= 1);
    }
}

#[cfg(test)]
mod tests {
    use super::WarmGate;
    use tokio_util::sync::CancellationToken;

    #[tokio::test]
    async fn calls_pass_only_once_every_warm_up_has_ended_or_when_cancelled() {
        let gate = WarmGate::default();
        assert!(gate.passed(&CancellationToken::new()).await, "open before any load");
        let first = gate.close();
        let second = gate.close();
        let cancelled = CancellationToken::new();
        cancelled.cancel();
        assert!(!gate.passed(&cancelled).await, "a cancelled call stops waiting");
        let waiting = tokio::spawn({
            let gate = gate.clone();
            async move { gate.passed(&CancellationToken::new()).await }
        });
        drop(first);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "one warm-up still runs");
        drop(second);
        assert!(waiting.await.expect("waiter"), "open once both ended");
    }
}
