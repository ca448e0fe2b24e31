//! Installed as .NET developers install tools, and from the archive: the build under test packaged as
//! `cargo xtask dist` packages a release (`xtask/src/dist.rs`), then run with nothing but the .NET SDK: a fresh
//! HOME, a PATH without cargo, NuGet given only the packages' folder, the fixture outside the source tree.
//! Each way (`dotnet tool install`, `dotnet dnx`, the unpacked archive) an MCP client starts `roslyn-mcp stdio`,
//! which starts the daemon, loads a fixture and finds references; the host it runs is the packaged one.

#[path = "../../xtask/src/dist.rs"]
mod dist;

use crate::support::Fixture;
use crate::support::daemon::{Agent, StateDir};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[tokio::test(flavor = "multi_thread")]
async fn the_tool_package_and_the_archive_serve_with_only_the_dotnet_sdk() {
    let work = tempfile::Builder::new().prefix("roslyn-mcp-install-").tempdir().expect("work folder");
    let work = std::fs::canonicalize(work.path()).expect("canonical");
    let dist_dir = work.join("dist");
    let rid = dist::current_rid();
    let repository = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let host_dll = roslyn_host::locate(0).host_dll;
    let build = dist::Build {
        binary: Path::new(env!("CARGO_BIN_EXE_roslyn-mcp")),
        host: host_dll.parent().expect("the host's folder"),
        version: VERSION,
        rid: &rid,
        repository: &repository,
    };
    let written = dist::package(&build, &dist_dir).expect("packaged");
    let names: Vec<String> =
        written.iter().map(|p| p.file_name().expect("name").to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        [
            format!("roslyn-mcp.{VERSION}.nupkg"),
            format!("roslyn-mcp.{rid}.{VERSION}.nupkg"),
            format!("roslyn-mcp-{VERSION}-{rid}.tar.gz")
        ]
    );
    assert!(written.iter().all(|p| p.is_file()));

    let home = work.join("home");
    std::fs::create_dir_all(&home).expect("home");
    let config = work.join("nuget.config");
    std::fs::write(
        &config,
        format!(
            "<configuration><packageSources><clear /><add key=\"dist\" value=\"{}\" /></packageSources></configuration>",
            dist_dir.display()
        ),
    )
    .expect("nuget.config");
    let sdk_only = sdk_only_environment(&home);

    // dotnet tool install, then the command from its tool path.
    let tools = work.join("tools");
    let installed = std::process::Command::new("dotnet")
        .args(["tool", "install", "--tool-path"])
        .arg(&tools)
        .arg("--configfile")
        .arg(&config)
        .args([dist::COMMAND, "--version", VERSION])
        .env_clear()
        .envs(sdk_only.iter().cloned())
        .current_dir(&work)
        .output()
        .expect("dotnet tool install");
    assert!(installed.status.success(), "dotnet tool install: {}", String::from_utf8_lossy(&installed.stdout));
    let mut command = tokio::process::Command::new(tools.join(dist::COMMAND));
    command.arg("stdio");
    answers(command, &sdk_only, &tools).await;

    // dotnet dnx: run from the package without installing it.
    let mut command = tokio::process::Command::new("dotnet");
    command.args(["dnx", &format!("{}@{VERSION}", dist::COMMAND), "--configfile"]).arg(&config).args(["--", "stdio"]);
    answers(command, &sdk_only, &home).await;

    // The archive: every file as SHA256SUMS says, then the binary it holds.
    let unpacked = work.join("unpacked");
    std::fs::create_dir_all(&unpacked).expect("unpacked");
    let status =
        std::process::Command::new("tar").arg("-xzf").arg(&written[2]).arg("-C").arg(&unpacked).status().expect("tar");
    assert!(status.success());
    let folder = unpacked.join(format!("roslyn-mcp-{VERSION}-{rid}"));
    let sums = std::fs::read_to_string(folder.join("SHA256SUMS")).expect("SHA256SUMS");
    for line in sums.lines() {
        let (digest, file) = line.split_once("  ").expect("digest  file");
        let bytes = std::fs::read(folder.join(file)).expect("a summed file");
        assert_eq!(hex::encode(Sha256::digest(bytes)), digest, "{file}");
    }
    for expected in ["roslyn-mcp", "roslyn-host/RoslynMcp.Host.dll", "README.md", "LICENSE", "docs/tools.md"] {
        assert!(sums.lines().any(|l| l.ends_with(&format!("  {expected}"))), "SHA256SUMS lists {expected}");
    }
    let mut command = tokio::process::Command::new(folder.join(dist::COMMAND));
    command.arg("stdio");
    answers(command, &sdk_only, &folder).await;
}

/// The variables a machine with only the .NET SDK has: a fresh HOME, a PATH of system folders (where dotnet is
/// and cargo is not), NuGet's cache under that HOME.
fn sdk_only_environment(home: &Path) -> Vec<(String, String)> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dotnet = std::env::split_paths(&path).map(|p| p.join("dotnet")).find(|p| p.is_file()).expect("dotnet on PATH");
    let dotnet_folder = dotnet.parent().expect("dotnet's folder").display().to_string();
    assert!(!Path::new(&dotnet_folder).join("cargo").exists(), "dotnet shares a folder with cargo");
    vec![
        ("HOME".into(), home.display().to_string()),
        ("PATH".into(), format!("{dotnet_folder}:/usr/bin:/bin")),
        ("DOTNET_CLI_TELEMETRY_OPTOUT".into(), "1".into()),
        ("DOTNET_NOLOGO".into(), "1".into()),
        ("DOTNET_SKIP_FIRST_TIME_EXPERIENCE".into(), "1".into()),
        ("MSBUILDDISABLENODEREUSE".into(), "1".into()),
    ]
}

/// Through `command` (a `roslyn-mcp stdio` as installed) and the daemon it starts: the Shop fixture loaded and
/// the references of `Customer` found; the host that answered is the one under `installed`.
async fn answers(mut command: tokio::process::Command, environment: &[(String, String)], installed: &Path) {
    let shop = Fixture::copy("Shop");
    let state = StateDir::default();
    command.current_dir(&shop.root).env_clear().envs(environment.iter().cloned()).envs(state.env());
    let client = state.bridge_command(Agent::default(), command).await;
    let customer = shop.file("src/Shop.Core/Models/Customer.cs");
    let references = client.ok("find_references", json!({"filePath": customer, "line": 6, "column": 14})).await;
    assert_eq!(references["totalCount"], json!(9), "{references}");
    let diagnose = client.ok("diagnose", json!({"verbose": true})).await;
    let host = diagnose["settings"]["hostDll"].as_str().unwrap_or_default().to_owned();
    assert!(Path::new(&host).starts_with(installed), "the packaged host answered: {host} ({diagnose})");
    drop(client);
    state.terminate().await;
}
