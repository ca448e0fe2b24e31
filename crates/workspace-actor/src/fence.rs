//! A fence through the folder watch: a file created in a private folder that the same watch follows. The
//! kernel queues a watch's events in the order they happened, and the watch hands them over in that order,
//! so once the fence's own event is seen, every change made on disk before the fence was created has been
//! reported. That is how a call learns, without sleeping a debounce out, that nothing it could have seen is
//! still on its way.

use notify::EventKind;
use paths::PrivateTempDir;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::watch;

pub struct Fence {
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

    /// Takes an event of the watch: whether it was of a fence. A fence's creation is handed over there and
    /// then, on the watch's own thread, which removes the file too (its removal's event changes nothing).
    pub fn arrived(&self, path: &Path, kind: &EventKind) -> bool {
        let number = (path.parent() == Some(self.dir.path())).then(|| path.file_name()?.to_str()?.parse().ok());
        let Some(number) = number else { return false };
        if let (Some(n), EventKind::Create(_)) = (number, kind) {
            self.seen(n);
            let _ = std::fs::remove_file(path);
        }
        true
    }

    /// The watch handed over fence `n`, so every fence before it too.
    fn seen(&self, n: u64) {
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

    /// Creates a fence (off the async threads: a file system can be slow) and waits, at most `limit`, for the
    /// watch to hand it over: whether it did.
    pub async fn pass(self: &Arc<Self>, limit: Duration) -> std::io::Result<bool> {
        let fence = self.clone();
        let created = tokio::task::spawn_blocking(move || {
            let mut created = fence.created.lock().unwrap_or_else(PoisonError::into_inner);
            std::fs::File::create(fence.dir.path().join((*created + 1).to_string()))?;
            *created += 1;
            Ok::<u64, std::io::Error>(*created)
        });
        let n = created.await.map_err(std::io::Error::other)??;
        let mut seen = self.seen.subscribe();
        Ok(tokio::time::timeout(limit, seen.wait_for(|seen| *seen >= n)).await.is_ok_and(|r| r.is_ok()))
    }
}
