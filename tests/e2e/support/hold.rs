//! The write hold: a service started with [`Hold::env`] pauses every write once its files are replaced,
//! until the test calls [`Hold::release`], so tests act inside that window without racing the clock.

use std::future::Future;

pub struct Hold {
    _dir: tempfile::TempDir,
    release: String,
}

impl Default for Hold {
    fn default() -> Self {
        let dir = tempfile::Builder::new().prefix("roslyn-mcp-hold-").tempdir().expect("temp dir");
        let release = dir.path().join("release").display().to_string();
        Self { _dir: dir, release }
    }
}

impl Hold {
    /// The variable that arms the hold, for `Server::start_with_env` and `StateDir::serve`.
    pub fn env(&self) -> (&'static str, &str) {
        ("ROSLYN_MCP_FAULT_HOLD_APPLY", &self.release)
    }

    /// Lets every held write (and every later one) go on.
    pub fn release(&self) {
        std::fs::write(&self.release, "").expect("release the hold");
    }

    /// Two writes at once: the one refused answers while the other is held; `while_held` runs then, and the
    /// hold is released. Answers in the order given.
    pub async fn one_refused<A: Future, B: Future>(
        &self,
        a: A,
        b: B,
        while_held: impl Future<Output = ()>,
    ) -> (A::Output, B::Output) {
        use futures::future::Either;
        match futures::future::select(Box::pin(a), Box::pin(b)).await {
            Either::Left((a, b)) => {
                while_held.await;
                self.release();
                (a, b.await)
            }
            Either::Right((b, a)) => {
                while_held.await;
                self.release();
                (a.await, b)
            }
        }
    }
}
