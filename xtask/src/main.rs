//! Project tasks. `cargo xtask codegen` writes the C# side of the host protocol from the Rust types and the
//! host tests' golden values from the Rust vectors (`csharp/vectors.rs`); `cargo xtask codegen --check` fails when a
//! committed file differs from what it would write.
//! `cargo xtask corpus <out-dir>` writes a large generated C# solution for the benches (`corpus.rs`).
//! `cargo xtask dist` builds a release and writes the .NET tool packages and the archive into `target/dist/`
//! (`dist.rs`). `cargo xtask stats <solution>` checks the service's answers over a whole solution (`stats.rs`).

mod corpus;
mod csharp;
mod dist;
mod model;
mod stats;

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

const MESSAGES: &str = "crates/protocol/src/host/messages.rs";
const ASKS: &str = "crates/protocol/src/host/ask.rs";
const CATALOG: &str = "crates/protocol/src/error.rs";
const VECTORS: &str = "tests/golden/host-protocol/vectors.txt";
/// The one folder of generated C#: nothing in it is written by hand.
const GENERATED: &str = "crates/roslyn-host/host/Protocol/Generated/Messages.g.cs";
const GENERATED_VECTORS: &str = "crates/roslyn-host/host-tests/GoldenVectors.g.cs";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["codegen"] => {
            for (file, text) in generated(&root())? {
                let path = root().join(file);
                std::fs::create_dir_all(path.parent().context("generated file has a folder")?)?;
                std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
                println!("wrote {file}");
            }
            Ok(())
        }
        ["codegen", "--check"] => match stale(&root())? {
            Some(file) => bail!("{file} is out of date: run `cargo xtask codegen`"),
            None => Ok(()),
        },
        ["corpus", args @ ..] => corpus::run(args),
        ["dist"] => release(&root()),
        ["stats", args @ ..] => stats::run(args),
        _ => bail!(
            "usage: cargo xtask codegen [--check]\n       cargo xtask dist\n       {}\n       {}",
            corpus::USAGE,
            stats::USAGE
        ),
    }
}

/// A release build of the binary and the host its build script published, packaged for this machine's runtime
/// identifier into `target/dist/`.
fn release(root: &Path) -> Result<()> {
    let Built { binary, host } = build_service(root, true)?;
    let rid = dist::current_rid();
    let build =
        dist::Build { binary: &binary, host: &host, version: env!("CARGO_PKG_VERSION"), rid: &rid, repository: root };
    for written in dist::package(&build, &root.join("target/dist"))? {
        let size = std::fs::metadata(&written)?.len();
        println!("wrote {} ({:.1} MiB)", written.display(), size as f64 / (1024.0 * 1024.0));
    }
    Ok(())
}

/// The service's binary and the Roslyn host beside it, as cargo built them.
struct Built {
    binary: PathBuf,
    host: PathBuf,
}

/// Builds the service (`--release` or the dev profile) and says where cargo put the binary and the host.
fn build_service(root: &Path, release: bool) -> Result<Built> {
    let profile: &[&str] = if release { &["--release"] } else { &[] };
    let output = Command::new(env!("CARGO"))
        .arg("build")
        .args(profile)
        .args(["-p", "broker", "--bin", dist::COMMAND, "--message-format=json-render-diagnostics"])
        .current_dir(root)
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("running cargo build")?;
    if !output.status.success() {
        bail!("cargo build failed ({})", output.status);
    }
    let messages = String::from_utf8_lossy(&output.stdout);
    let field = |reason: &str, package: &str, key: &str| {
        messages
            .lines()
            .filter(|line| line.contains(&format!("\"reason\":\"{reason}\"")) && line.contains(package))
            .find_map(|line| json_string(line, key))
            .with_context(|| format!("cargo reported no {key} of {package}"))
    };
    let host = PathBuf::from(field("build-script-executed", "roslyn-host", "out_dir")?).join("roslyn-host");
    if !host.join("RoslynMcp.Host.dll").is_file() {
        bail!("the Roslyn host was not built into {} (see the build's warnings)", host.display());
    }
    Ok(Built { binary: PathBuf::from(field("compiler-artifact", "broker", "executable")?), host })
}

/// The string value of `"key":"..."` in one of cargo's JSON messages.
fn json_string(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let mut value = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(value),
            '\\' => value.push(chars.next()?),
            c => value.push(c),
        }
    }
    None
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

fn read(root: &Path, file: &str) -> Result<String> {
    std::fs::read_to_string(root.join(file)).with_context(|| format!("reading {file}"))
}

/// Each generated file with the text it should have.
fn generated(root: &Path) -> Result<[(&'static str, String); 2]> {
    let protocol = model::Protocol::read(&read(root, MESSAGES)?, &read(root, CATALOG)?)?;
    let operations = model::operations(&read(root, ASKS)?)?;
    protocol.check_operations(&operations)?;
    let vectors = csharp::vectors::generate(&protocol, &read(root, VECTORS)?)?;
    Ok([(GENERATED, csharp::generate(&protocol, &operations)), (GENERATED_VECTORS, vectors)])
}

/// The first generated file whose committed text is not what the generator writes.
fn stale(root: &Path) -> Result<Option<&'static str>> {
    for (file, text) in generated(root)? {
        if read(root, file)? != text {
            return Ok(Some(file));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_is_read_out_of_a_cargo_message() {
        let line = r#"{"reason":"build-script-executed","package_id":"path+file:///w/crates/roslyn-host#0.1.0","out_dir":"/w/target/release/build/roslyn-host-1/out","x":"a\\b"}"#;
        assert_eq!(json_string(line, "out_dir").as_deref(), Some("/w/target/release/build/roslyn-host-1/out"));
        assert_eq!(json_string(line, "x").as_deref(), Some("a\\b"));
        assert_eq!(json_string(r#"{"executable":null}"#, "executable"), None);
    }

    #[test]
    fn the_committed_csharp_is_what_the_generator_writes() {
        let stale = stale(&root()).expect("generates");
        assert!(stale.is_none(), "{stale:?} is out of date: run `cargo xtask codegen`");
    }

    #[test]
    fn the_csharp_error_codes_have_the_rust_variant_indexes() {
        let [(_, text), _] = generated(&root()).expect("generated");
        for (index, code) in protocol::ErrorCode::ALL.iter().enumerate() {
            let member = format!("    {} = {index},", csharp::pascal(code.name()));
            assert!(text.contains(&member), "{code} must be `{member}`");
        }
    }
}
