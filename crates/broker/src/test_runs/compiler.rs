//! The compiler server the service's test-run builds share. A build that starts its compiler cold spends
//! seconds loading it before compiling; one server kept warm between runs compiles a changed library in a
//! fraction of that. The server is the service's own (a private pipe name, so it is neither the user's
//! builds' server nor one another user could plant: the compiler's client also checks the server's owner),
//! it outlives the build that started it, and it is stopped with the service.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

static PIPE: OnceLock<String> = OnceLock::new();
/// A build was given the pipe: a server may be running on it.
static USED: AtomicBool = AtomicBool::new(false);

/// The pipe of this service's compiler server: unique to the process and not guessable.
pub fn pipe() -> &'static str {
    PIPE.get_or_init(|| {
        let random = uuid::Uuid::new_v4().simple().to_string();
        format!("{}{}-{}", crate::guardian::PIPE_PREFIX, std::process::id(), &random[..12])
    })
}

/// The build's properties for it: the shared compiler on our pipe, whatever the environment says
/// (`UseSharedCompilation=false` is common on build machines), and reference assemblies for every project
/// (the default for .NET 5 and later only), so that a body edit in a library does not recompile each project
/// that references it.
pub fn build_properties() -> [String; 3] {
    USED.store(true, Ordering::Relaxed);
    [
        "-p:UseSharedCompilation=true".to_owned(),
        format!("-p:SharedCompilationId={}", pipe()),
        "-p:ProduceReferenceAssembly=true".to_owned(),
    ]
}

/// Whether the process is this service's compiler server, from its command line.
pub fn is_server(pid: u32) -> bool {
    roslyn_host::has_argument(pid, &format!("-pipename:{}", pipe()))
}

/// Stops the server, if a build started one (every process's command line read: off the async workers).
pub fn stop() {
    if USED.load(Ordering::Relaxed) {
        crate::offload::cpu(|| {
            roslyn_host::processes().filter(|pid| is_server(*pid)).for_each(roslyn_host::kill_process)
        });
    }
}
