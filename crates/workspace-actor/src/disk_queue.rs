//! The changes the folder watch reported that the host has yet to take in, counted so that a call can wait
//! for exactly those reported before it: each report raises `reported`; once the host took a batch in, the
//! forwarder raises `taken` to the count that batch covered. A call's barrier waits until `taken` reaches what
//! was reported when its fence passed.
//!
//! A batch settles before it goes (an editor saves in bursts): it is due once no report came for the settle
//! time, or at the latest `MAX_SETTLE` after its first report, whichever is first. A barrier that cannot wait
//! for that hurries it.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

/// A batch still receiving reports goes at the latest this long after its first: a generator writing without
/// pause is taken in piecemeal rather than never.
const MAX_SETTLE: Duration = Duration::from_secs(2);

/// What the host has yet to take in.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    /// Source and project files changed, created or removed.
    pub files: BTreeSet<PathBuf>,
    /// Folders that appeared: the files in them may have been written before they were watched.
    pub folders: BTreeSet<PathBuf>,
    /// Paths renamed or removed that may have been folders: the host drops the documents under them.
    pub gone: BTreeSet<PathBuf>,
    /// Events were lost (the watch queue overflowed): the whole solution is read again.
    pub resync: bool,
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.folders.is_empty() && self.gone.is_empty() && !self.resync
    }
}

/// One report of the folder watch.
pub(crate) enum Report {
    File(PathBuf),
    Folder(PathBuf),
    Gone(PathBuf),
    Overflow,
}

pub(crate) struct DiskQueue {
    state: Mutex<State>,
    /// Raised at each report: the forwarder wakes.
    pub arrived: Notify,
    /// A barrier asks for the batch now, settled or not.
    pub hurry: Notify,
    /// How many reports the host has taken in.
    taken: watch::Sender<u64>,
}

#[derive(Default)]
struct State {
    batch: Batch,
    reported: u64,
    /// The batch's first and latest reports.
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Default for DiskQueue {
    fn default() -> Self {
        Self { state: Mutex::default(), arrived: Notify::new(), hurry: Notify::new(), taken: watch::channel(0).0 }
    }
}

impl DiskQueue {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn report(&self, report: Report) {
        {
            let mut state = self.state();
            let batch = &mut state.batch;
            match report {
                Report::File(path) => drop(batch.files.insert(path)),
                Report::Folder(path) => drop(batch.folders.insert(path)),
                Report::Gone(path) => drop(batch.gone.insert(path)),
                Report::Overflow => batch.resync = true,
            }
            state.reported += 1;
            let now = Instant::now();
            state.first.get_or_insert(now);
            state.last = Some(now);
        }
        self.arrived.notify_one();
    }

    /// How many reports came so far.
    pub fn reported(&self) -> u64 {
        self.state().reported
    }

    /// The files waiting, when any report does.
    pub fn waiting(&self) -> Option<usize> {
        let state = self.state();
        (!state.batch.is_empty()).then_some(state.batch.files.len() + state.batch.folders.len())
    }

    /// When the waiting batch settles, given the settle time; none when nothing waits.
    pub fn due(&self, settle: Duration) -> Option<Instant> {
        let state = self.state();
        let (first, last) = (state.first?, state.last?);
        Some((last + settle).min(first + MAX_SETTLE))
    }

    /// The waiting batch, and the count of reports it covers.
    pub fn take(&self) -> (Batch, u64) {
        let mut state = self.state();
        (state.first, state.last) = (None, None);
        (std::mem::take(&mut state.batch), state.reported)
    }

    /// The host took in every report up to `upto`.
    pub fn taken(&self, upto: u64) {
        self.taken.send_if_modified(|taken| {
            let raised = upto > *taken;
            *taken = (*taken).max(upto);
            raised
        });
    }

    /// Whether the host took in every report up to `upto`.
    pub fn is_taken(&self, upto: u64) -> bool {
        *self.taken.borrow() >= upto
    }

    /// Waits until the host took in every report up to `upto`.
    pub async fn taken_up_to(&self, upto: u64) {
        let mut taken = self.taken.subscribe();
        // The sender lives as long as the queue, which outlives this borrow.
        let _ = taken.wait_for(|taken| *taken >= upto).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_batch_is_due_once_quiet_or_at_its_cap() {
        let queue = DiskQueue::default();
        let settle = Duration::from_millis(150);
        assert!(queue.due(settle).is_none() && queue.waiting().is_none(), "nothing waits");
        let start = Instant::now();
        queue.report(Report::File("/s/A.cs".into()));
        assert_eq!(queue.due(settle), Some(start + settle));
        // Reports every 100 ms keep it unsettled until the cap.
        for _ in 0..30 {
            tokio::time::advance(Duration::from_millis(100)).await;
            queue.report(Report::File("/s/B.cs".into()));
        }
        assert_eq!(queue.due(settle), Some(start + MAX_SETTLE));
        queue.report(Report::Folder("/s/New".into()));
        assert_eq!(queue.waiting(), Some(3), "two files and a folder");
    }

    #[tokio::test]
    async fn a_wait_ends_only_when_its_reports_are_taken() {
        let queue = std::sync::Arc::new(DiskQueue::default());
        queue.report(Report::File("/s/A.cs".into()));
        queue.report(Report::Overflow);
        let upto = queue.reported();
        let (batch, covered) = queue.take();
        assert_eq!(covered, 2);
        assert!(batch.resync && batch.files.len() == 1);
        assert!(queue.waiting().is_none(), "taken");
        let waiter = tokio::spawn({
            let queue = queue.clone();
            async move { queue.taken_up_to(upto).await }
        });
        queue.taken(upto - 1);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "one report still with the forwarder");
        queue.taken(covered);
        waiter.await.expect("ends once taken");
    }
}
