//! The bare in-process Roslyn of `benches/probe` (MSBuildWorkspace and SymbolFinder alone): the baseline the
//! service's load, warm-up, first and warm answers are set against in the same run.

use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/probe")
}

pub fn build() {
    let status = std::process::Command::new("dotnet")
        .args(["build", "-c", "Release", "-nologo", "-v:q"])
        .current_dir(dir())
        .status()
        .expect("run dotnet build");
    assert!(status.success(), "the probe did not build");
}

/// Loads `solution`, compiles every project, then finds the references of the symbol at (line, column) of
/// `file` once and `warm_calls` times more, the runtime set by `env`: `{loadMs, compileMs, firstReferencesMs,
/// warmReferencesP50Ms, locations, workingSetBytes}`.
// Each bench compiles this file alone and uses one of the two modes.
#[allow(dead_code)]
pub fn run(solution: &Path, file: &Path, (line, column): (u32, u32), warm_calls: usize, env: &[(&str, &str)]) -> Value {
    let (line, column, warm_calls) = (line.to_string(), column.to_string(), warm_calls.to_string());
    let args = [solution.as_os_str(), file.as_os_str(), line.as_ref(), column.as_ref(), warm_calls.as_ref()];
    probe_with(&args, env)
}

/// Loads `project`, compiles it, then runs Roslyn's Renamer of the symbol at (line, column) of `file` to
/// `new_name`, its Formatter of `format_file` and its analyzer driver with every analyzer, once per target
/// framework, first and `warm_calls` times more: `{loadMs, frameworks, renameFirstMs, renameWarmMs,
/// formatFirstMs, formatWarmMs, analyzersFirstMs, analyzersWarmMs, analyzerDiagnostics}`.
#[allow(dead_code)]
pub fn run_writes(
    project: &Path,
    file: &Path,
    (line, column): (u32, u32),
    new_name: &str,
    format_file: &Path,
    warm_calls: usize,
) -> Value {
    let (line, column, warm_calls) = (line.to_string(), column.to_string(), warm_calls.to_string());
    let args = [
        "writes".as_ref(),
        project.as_os_str(),
        file.as_os_str(),
        line.as_ref(),
        column.as_ref(),
        new_name.as_ref(),
        format_file.as_os_str(),
        warm_calls.as_ref(),
    ];
    probe(&args)
}

/// Loads `solution`, compiles every project, then runs Roslyn's Renamer of the symbol at (line, column) of
/// `file` to `new_name` once per target framework, first and `warm_calls` times more: `{loadMs, frameworks,
/// renameFirstMs, renameWarmMs}`.
#[allow(dead_code)]
pub fn run_rename(
    solution: &Path,
    file: &Path,
    (line, column): (u32, u32),
    new_name: &str,
    warm_calls: usize,
) -> Value {
    let (line, column, warm_calls) = (line.to_string(), column.to_string(), warm_calls.to_string());
    let args = [
        "rename".as_ref(),
        solution.as_os_str(),
        file.as_os_str(),
        line.as_ref(),
        column.as_ref(),
        new_name.as_ref(),
        warm_calls.as_ref(),
    ];
    probe(&args)
}

/// ICSharpCode.Decompiler alone: `type_name` of `assembly` decompiled first (file, resolver and type system
/// built) and `warm_calls` times more with the same decompiler: `{firstMs, warmP50Ms, characters}`.
#[allow(dead_code)]
pub fn run_decompile(assembly: &Path, type_name: &str, warm_calls: usize) -> Value {
    let warm_calls = warm_calls.to_string();
    probe(&["decompile".as_ref(), assembly.as_os_str(), type_name.as_ref(), warm_calls.as_ref()])
}

fn probe(args: &[&std::ffi::OsStr]) -> Value {
    probe_with(args, &[])
}

fn probe_with(args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> Value {
    let output = std::process::Command::new("dotnet")
        .arg(dir().join("bin/Release/net10.0/Probe.dll"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run the probe");
    assert!(output.status.success(), "probe failed: {}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.lines().last().expect("a line")).expect("the probe's JSON")
}
