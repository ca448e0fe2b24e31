//! Builds the C# Roslyn host (`dotnet publish`, ReadyToRun) when its sources changed, and tells the crate where it is.
//! Without `dotnet` (or when that build fails) the Rust side still builds; at run time `diagnose` then says
//! why the host is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let project = manifest.join("host").join("RoslynMcp.Host.csproj");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("roslyn-host");
    println!("cargo:rerun-if-env-changed=ROSLYN_MCP_SKIP_HOST_BUILD");
    for file in host_sources(&manifest) {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let dll = out.join("RoslynMcp.Host.dll");
    let status = if std::env::var_os("ROSLYN_MCP_SKIP_HOST_BUILD").is_some() {
        "skipped: ROSLYN_MCP_SKIP_HOST_BUILD is set".to_owned()
    } else if !project.exists() {
        format!("missing: {} does not exist", project.display())
    } else {
        build(&project, &out)
    };
    if status != "ok" {
        println!("cargo:warning=Roslyn host not built ({status}); roslyn-mcp will report it in diagnose");
    }
    println!("cargo:rustc-env=ROSLYN_MCP_BUILT_HOST_DLL={}", dll.display());
    println!("cargo:rustc-env=ROSLYN_MCP_HOST_BUILD_STATUS={status}");
}

/// Every file the host build reads: its sources and the MSBuild files around them, not bin/ or obj/.
fn host_sources(manifest: &Path) -> Vec<PathBuf> {
    // The project file is listed even while missing, so that its arrival triggers a build.
    let mut files = vec![manifest.join("host").join("RoslynMcp.Host.csproj")];
    for name in ["Directory.Build.props", "Directory.Packages.props", "global.json", "nuget.config"] {
        let path = manifest.join(name);
        if path.exists() {
            files.push(path);
        }
    }
    let mut dirs = vec![manifest.join("host")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if name != "bin" && name != "obj" {
                    dirs.push(path);
                }
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// Publishes the host precompiled to native code for this machine (ReadyToRun: Roslyn's assemblies ship as IL
/// only, and JIT-compiling them is about 40% of the warm-up after a load). Where that cannot be done (no
/// Crossgen2 package can be restored, say) a plain IL build serves, only slower to start.
fn build(project: &Path, out: &Path) -> String {
    let log = out.with_extension("build.log");
    let ready_to_run = [
        "publish",
        "--use-current-runtime",
        "--self-contained",
        "false",
        "-p:PublishReadyToRun=true",
        "-p:UseAppHost=false",
    ];
    let failure = match dotnet(&ready_to_run, project, out, &log) {
        None => return "ok".to_owned(),
        Some(failure) => failure,
    };
    println!("cargo:warning=Roslyn host built without ReadyToRun ({failure}); it starts slower");
    let il_log = out.with_extension("il-build.log");
    dotnet(&["build"], project, out, &il_log).unwrap_or_else(|| "ok".to_owned())
}

/// Runs `dotnet <command>` on the host project into `out`; None on success, otherwise why it failed.
fn dotnet(command: &[&str], project: &Path, out: &Path, log: &Path) -> Option<String> {
    let result = Command::new("dotnet")
        .args(command)
        .args(["-c", "Release", "-nologo", "--disable-build-servers", "-p:UseSharedCompilation=false", "-o"])
        .arg(out)
        .arg(project)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_NOLOGO", "1")
        .env("MSBUILDDISABLENODEREUSE", "1")
        .output();
    match result {
        Err(e) => Some(format!("dotnet could not be run: {e}")),
        Ok(output) => {
            let mut text = output.stdout;
            text.extend_from_slice(&output.stderr);
            let _ = std::fs::write(log, &text);
            (!output.status.success()).then(|| format!("dotnet {} failed, see {}", command[0], log.display()))
        }
    }
}
