//! Project tasks. `cargo xtask codegen` writes the C# side of the host protocol from the Rust types;
//! `cargo xtask codegen --check` fails when the committed file differs from what it would write.
//! `cargo xtask corpus <out-dir>` writes a large generated C# solution for the benches (`corpus.rs`).

mod corpus;
mod csharp;
mod model;

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

const MESSAGES: &str = "crates/protocol/src/host/messages.rs";
const CATALOG: &str = "crates/protocol/src/error.rs";
/// The one folder of generated C#: nothing in it is written by hand.
const GENERATED: &str = "crates/roslyn-host/host/Protocol/Generated/Messages.g.cs";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["codegen"] => {
            let path = root().join(GENERATED);
            std::fs::create_dir_all(path.parent().context("generated file has a folder")?)?;
            std::fs::write(&path, generated(&root())?).with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {GENERATED}");
            Ok(())
        }
        ["codegen", "--check"] => {
            if committed(&root())? != generated(&root())? {
                bail!("{GENERATED} is out of date: run `cargo xtask codegen`");
            }
            Ok(())
        }
        ["corpus", args @ ..] => corpus::run(args),
        _ => bail!("usage: cargo xtask codegen [--check]\n       {}", corpus::USAGE),
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

fn generated(root: &Path) -> Result<String> {
    let read = |file: &str| std::fs::read_to_string(root.join(file)).with_context(|| format!("reading {file}"));
    let protocol = model::Protocol::read(&read(MESSAGES)?, &read(CATALOG)?)?;
    Ok(csharp::generate(&protocol))
}

fn committed(root: &Path) -> Result<String> {
    std::fs::read_to_string(root.join(GENERATED)).with_context(|| format!("reading {GENERATED}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_csharp_protocol_is_what_the_generator_writes() {
        let (committed, generated) = (committed(&root()).expect("committed"), generated(&root()).expect("generated"));
        assert!(committed == generated, "{GENERATED} is out of date: run `cargo xtask codegen`");
    }

    #[test]
    fn the_csharp_error_codes_have_the_rust_variant_indexes() {
        let text = generated(&root()).expect("generated");
        for (index, code) in protocol::ErrorCode::ALL.iter().enumerate() {
            let member = format!("    {} = {index},", csharp::pascal(code.name()));
            assert!(text.contains(&member), "{code} must be `{member}`");
        }
    }
}
