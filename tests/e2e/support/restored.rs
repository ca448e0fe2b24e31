//! Restore output made once and put into every copy: a fixture is restored once per test process, not by the
//! host of each test that loads it (`dotnet restore` costs about two seconds of a core each time).

use super::{Fixture, Part, files, tree};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};

/// The files under the `obj/` folders of a restored tree, with the root they were restored at.
pub struct RestoreOutput {
    root: String,
    files: BTreeMap<String, Vec<u8>>,
}

impl RestoreOutput {
    /// Reads the restore output of the tree at `root`.
    pub fn read(root: &Path) -> Self {
        Self { root: root.display().to_string(), files: files(root, Part::RestoreOutput) }
    }

    /// Writes the output into a copy of the tree at `root`; text that names the restored tree's root names the
    /// copy's, as a restore of the copy would have written it.
    pub fn write_into(&self, root: &Path) {
        let new_root = root.display().to_string();
        for (relative, bytes) in &self.files {
            let target = root.join(relative);
            std::fs::create_dir_all(target.parent().expect("a file's folder")).expect("create obj/");
            let relocated = match std::str::from_utf8(bytes) {
                Ok(text) if text.contains(&self.root) => text.replace(&self.root, &new_root).into_bytes(),
                _ => bytes.clone(),
            };
            std::fs::write(&target, relocated).expect("write restore output");
        }
    }
}

/// The restore output of the fixture `name`, made at its first use in this process; None where a restore
/// fails (a fixture made to fail one), whose copies then go without, as in the repository.
pub fn of_fixture(name: &str) -> Option<Arc<RestoreOutput>> {
    type Cell = Arc<OnceLock<Option<Arc<RestoreOutput>>>>;
    static OUTPUTS: Mutex<BTreeMap<String, Cell>> = Mutex::new(BTreeMap::new());
    // The map's lock is held only to find the cell: other fixtures restore at the same time.
    let cell = OUTPUTS.lock().unwrap_or_else(|e| e.into_inner()).entry(name.to_owned()).or_default().clone();
    cell.get_or_init(|| restore(name)).clone()
}

/// Restores a scratch copy of the fixture: each solution in it, or each project where it has no solution.
fn restore(name: &str) -> Option<Arc<RestoreOutput>> {
    let scratch = Fixture::unrestored(name);
    let sources: Vec<String> = tree(&scratch.root).into_keys().collect();
    let named = |extensions: &[&str]| -> Vec<&String> {
        sources.iter().filter(|file| extensions.iter().any(|e| file.ends_with(e))).collect()
    };
    let solutions = named(&[".sln", ".slnx"]);
    let targets = if solutions.is_empty() { named(&[".csproj"]) } else { solutions };
    for target in targets {
        let restored = Command::new("dotnet")
            .args(["restore", "-nologo", "-v:q", "--disable-build-servers"])
            .arg(scratch.path(target))
            .env("MSBUILDDISABLENODEREUSE", "1")
            .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !restored.is_ok_and(|status| status.success()) {
            return None;
        }
    }
    Some(Arc::new(RestoreOutput::read(&scratch.root)))
}
