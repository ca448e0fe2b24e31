//! Work in proportion to a request's input or answer (building a long listing, searching folders) never
//! holds an async worker: while it runs, the worker's other tasks move to another thread, so `/healthz`,
//! diagnose and the other sessions' calls go on.

/// Runs `work` where it cannot stall other tasks (in place on a current-thread runtime, as in unit tests).
pub fn cpu<T>(work: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|handle| handle.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
        _ => work(),
    }
}
