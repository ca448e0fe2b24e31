//! The C# host's own tests (codec golden vectors shared with crates/protocol, handlers on the fixtures),
//! run by `dotnet test` so that `cargo test` covers both sides of the protocol.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn csharp_host_tests_pass() {
    let project = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("host-tests");
    let output = Command::new("dotnet")
        .args(["test", "--nologo", "-v", "q", "-p:UseSharedCompilation=false", "--disable-build-servers"])
        .arg(&project)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_NOLOGO", "1")
        .env("MSBUILDDISABLENODEREUSE", "1")
        .output()
        .expect("dotnet runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "dotnet test failed:\n{stdout}\n{stderr}");
    let summary: Vec<&str> = stdout.lines().filter(|l| l.contains("Passed!") || l.contains("Failed!")).collect();
    assert!(!summary.is_empty(), "no test summary from dotnet test:\n{stdout}");
    println!("{}", summary.join("\n"));
}
