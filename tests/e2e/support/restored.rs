//! Restore output made once and put into every copy: a fixture is restored once per test process, not by the
//! host of each test that loads it (`dotnet restore` costs about two seconds of a core each time).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};

/// The files under the `obj/` folders of a restored tree, with the root they were restored at.
pub struct RestoreOutput {
    root: String,
    files: Vec<(PathBuf, Vec<u8>)>,
}

impl RestoreOutput {
    /// Reads the restore output of the tree at `root`.
    pub fn read(root: &Path) -> Self {
        let mut files = Vec::new();
        collect(root, root, false, &mut files);
        Self { root: root.display().to_string(), files }
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

fn collect(root: &Path, dir: &Path, in_obj: bool, into: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).expect("read a restored folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if entry.file_name() != "bin" {
                collect(root, &path, in_obj || entry.file_name() == "obj", into);
            }
        } else if in_obj {
            let relative = path.strip_prefix(root).expect("inside the root").to_owned();
            into.push((relative, std::fs::read(&path).expect("read restore output")));
        }
    }
}

/// The restore output of the fixture at `source`, made at its first use in this process; None where a restore
/// fails (a fixture made to fail one), whose copies then go without, as in the repository.
pub fn of_fixture(source: &Path, name: &str) -> Option<Arc<RestoreOutput>> {
    type Cell = Arc<OnceLock<Option<Arc<RestoreOutput>>>>;
    static OUTPUTS: Mutex<BTreeMap<PathBuf, Cell>> = Mutex::new(BTreeMap::new());
    // The map's lock is held only to find the cell: other fixtures restore at the same time.
    let cell = OUTPUTS.lock().unwrap_or_else(|e| e.into_inner()).entry(source.to_owned()).or_default().clone();
    cell.get_or_init(|| restore(source, name)).clone()
}

fn restore(source: &Path, name: &str) -> Option<Arc<RestoreOutput>> {
    let scratch = super::Fixture::empty(name);
    super::copy_tree(source, &scratch.root);
    let solutions = files_named(&scratch.root, &["sln", "slnx"]);
    let targets = if solutions.is_empty() { files_named(&scratch.root, &["csproj"]) } else { solutions };
    for target in targets {
        let restored = Command::new("dotnet")
            .args(["restore", "-nologo", "-v:q", "--disable-build-servers"])
            .arg(&target)
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

/// The files under `root` (build output aside) whose extension is one of `extensions`.
fn files_named(root: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root).expect("read a fixture folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if entry.file_name() != "bin" && entry.file_name() != "obj" {
                found.extend(files_named(&path, extensions));
            }
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)) {
            found.push(path);
        }
    }
    found
}
