//! Roslyn alone as the reference: the benches' probe (`crates/broker/benches/probe`), built once, loads the
//! solution in a process of its own and answers SymbolFinder's references for each declaration.

use super::declaration::Declaration;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// For each declaration, in order, the places SymbolFinder finds it referenced (`path:line:column`), each with
/// the fully qualified name of the symbol it found the place under (the declaration's own, or one its
/// references take in: an overridden or implemented member, a constructor). `generators`: the service's builds
/// of generators the repository has not built (assembly, build), which the probe's solution uses as the
/// service's does.
pub fn references(
    solution: &Path,
    declarations: &[Declaration],
    generators: &[(String, String)],
) -> Result<Vec<BTreeMap<String, String>>> {
    let dir = crate::root().join("crates/broker/benches/probe");
    let built =
        Command::new("dotnet").args(["build", "-c", "Release", "-nologo", "-v:q"]).current_dir(&dir).status()?;
    if !built.success() {
        bail!("the probe did not build ({built})");
    }
    let positions = tempfile::NamedTempFile::new()?;
    let lines: String =
        declarations.iter().map(|d| format!("{}\t{}\t{}\n", d.file.display(), d.line, d.column)).collect();
    std::fs::write(positions.path(), lines)?;
    let builds = tempfile::NamedTempFile::new()?;
    std::fs::write(
        builds.path(),
        generators.iter().map(|(assembly, built)| format!("{assembly}\t{built}\n")).collect::<String>(),
    )?;
    let mut probe = Command::new("dotnet");
    probe.arg(dir.join("bin/Release/net10.0/Probe.dll")).arg("references").arg(solution).arg(positions.path());
    if !generators.is_empty() {
        probe.arg(builds.path());
    }
    let output = probe.output().context("running the probe")?;
    if !output.status.success() {
        bail!("the probe failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().context("the probe wrote nothing")?;
    serde_json::from_str(last).context("the probe's answer")
}
