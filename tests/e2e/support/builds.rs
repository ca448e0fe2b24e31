//! The `dotnet build`s the tests run share one compiler server and MSBuild's worker nodes per test process.
//! Without them each build starts its nodes and each project a `csc`, seconds of JIT each before any work
//! (most of what the builds cost on 2 cores). Build machines often turn both off (`UseSharedCompilation=false`,
//! `MSBUILDDISABLENODEREUSE=1` in the environment), so the build is told. The nodes answer only builds with
//! this process's handshake salt, never a user's; the server's pipe is named as a service names its own
//! (`roslyn-mcp-<pid>-...`), so were this process to die before its reaper runs, the next service's guardian
//! sweeps the server. The reaper stops both when the test process exits.

use std::process::Command;
use std::sync::OnceLock;

/// `dotnet build` with this process's compiler server and nodes.
pub fn dotnet_build() -> Command {
    let mut command = Command::new("dotnet");
    command.args(["build", "-nodeReuse:true", "-p:UseSharedCompilation=true"]);
    command.arg(format!("-p:SharedCompilationId={}", pipe()));
    command.env_remove("MSBUILDDISABLENODEREUSE").env("MSBUILDNODEHANDSHAKESALT", pipe());
    command
}

/// The server's pipe; the first use starts the reaper that stops the server when this process exits.
fn pipe() -> &'static str {
    static PIPE: OnceLock<String> = OnceLock::new();
    PIPE.get_or_init(|| {
        let pipe = format!("roslyn-mcp-{}-e2e-builds", std::process::id());
        // The server's command line names its pipe (`-pipename:<pipe>`); the nodes' environment, the salt.
        let reap = "trap 'kill $! 2>/dev/null; pkill -u \"$(id -u)\" -f -- \"-pipename:$0\"; \
                    for p in /proc/[0-9]*; do grep -qxz \"MSBUILDNODEHANDSHAKESALT=$0\" $p/environ 2>/dev/null \
                    && kill ${p#/proc/}; done; exit 0' TERM; while :; do sleep 3600 & wait $!; done";
        let mut reaper = Command::new("sh");
        reaper.args(["-c", reap, &pipe]);
        super::until_exit(reaper, "build server reaper");
        pipe
    })
}
