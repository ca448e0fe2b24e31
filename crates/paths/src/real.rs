//! Where a path really is: symlinks resolved, now.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// `path` as it really is: symlinks resolved. A path that does not exist (a file or folder about to be
/// created, or one deleted since the host saw it) resolves through its nearest existing ancestor. `None`
/// for a relative path, a dangling symlink (where it leads is not known yet), or when `..` would follow
/// the part that does not exist. The one resolution every path gate uses, reads and writes alike.
pub fn real_path(path: &Path) -> Option<PathBuf> {
    if !path.is_absolute() {
        return None;
    }
    if let Ok(real) = fs::canonicalize(path) {
        return Some(real);
    }
    // The nearest ancestor present as an entry, symlink or not: a dangling link then fails to resolve.
    let existing = path.ancestors().find(|a| a.symlink_metadata().is_ok())?;
    let rest = path.strip_prefix(existing).ok()?;
    if rest.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    Some(fs::canonicalize(existing).ok()?.join(rest))
}

/// An existing path as it really is, symlinks resolved; an error when nothing is there. For what must name
/// something present (a solution, a working directory, a file an input points at), where [`real_path`] would
/// resolve a path about to be created.
pub fn existing_real_path(path: &Path) -> std::io::Result<PathBuf> {
    fs::canonicalize(path)
}

/// Roots as real paths, so that they compare with resolved files (a root that does not exist is kept:
/// nothing real lies under it).
pub fn real_roots(roots: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut real: Vec<PathBuf> = Vec::new();
    for root in roots.into_iter().map(|root| fs::canonicalize(&root).unwrap_or(root)) {
        if !real.contains(&root) {
            real.push(root); // the solution's folder is often the session's root too: listed once
        }
    }
    real
}
