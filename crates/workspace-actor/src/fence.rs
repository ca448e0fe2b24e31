//! A fence through the folder watch: a file created in a private folder that the same watch follows. The
//! kernel queues a watch's events in the order they happened, and the watch hands them over in that order,
//! so once the fence's own event is seen, every change made on disk before the fence was created has been
//! reported. That is how a call learns, without sleeping a debounce out, that nothing it could have seen is
//! still on its way.

use paths::PrivateTempDir;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::watch;

pub(crate) struct Fence {
    /// Private (0700, an unpredictable name): nobody else can create a fence or watch ours.
    dir: PrivateTempDir,
    /// The number of the last fence created; fences are created in this order, under this lock.
    created: Mutex<u64>,
    /// The greatest fence the watch has handed over.
    seen: watch::Sender<u64>,
}

impl Fence {
    /// A fence folder of its own under `base`, which is made private first (or refused when it cannot be).
    pub fn new(base: &Path) -> std::io::Result<Self> {
        paths::create_private_dir(base)?;
        let dir = PrivateTempDir::create_in(base, "fence-")?;
        Ok(Self { dir, created: Mutex::new(0), seen: watch::channel(0).0 })
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The fence `path` names, when it names one.
    pub fn number(&self, path: &Path) -> Option<u64> {
        (path.parent()? == self.dir.path()).then(|| path.file_name()?.to_str()?.parse().ok())?
    }

    /// The watch handed over fence `n`, so every fence before it too.
    pub fn seen(&self, n: u64) {
        self.seen.send_if_modified(|seen| {
            let raised = n > *seen;
            *seen = (*seen).max(n);
            raised
        });
    }

    /// Events were lost: the fences created so far may be among them. The caller resyncs everything, which
    /// covers whatever they were fencing.
    pub fn release_all(&self) {
        let created = *self.created.lock().unwrap_or_else(PoisonError::into_inner);
        self.seen(created);
    }

    /// Creates a fence and waits, at most `limit`, for the watch to hand it over: whether it did.
    pub async fn pass(&self, limit: Duration) -> std::io::Result<bool> {
        let (n, path) = {
            let mut created = self.created.lock().unwrap_or_else(PoisonError::into_inner);
            let n = *created + 1;
            let path = self.dir.path().join(n.to_string());
            std::fs::File::create(&path)?;
            *created = n;
            (n, path)
        };
        let mut seen = self.seen.subscribe();
        let passed = tokio::time::timeout(limit, seen.wait_for(|seen| *seen >= n)).await.is_ok_and(|r| r.is_ok());
        let _ = std::fs::remove_file(path);
        Ok(passed)
    }
}
