//! The path wall of a write: every path it touches must resolve, symlinks followed, under the roots the
//! call was admitted with. Checked at the moment of use, not when the plan was made: a folder can be
//! swapped for a link in between, and the Roslyn host reports files reached through linked folders by
//! their linked path.

use protocol::{ErrorCode, ToolError};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// Where a write may land: under one of `roots`, and under one of `client_roots` when the client offered
/// any. Kept in the journal, so that an undo after a crash stays inside them too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Walls {
    roots: Vec<PathBuf>,
    client_roots: Option<Vec<PathBuf>>,
}

impl Walls {
    /// The roots are resolved themselves, so that a root reached through a link still holds its files.
    pub fn new(roots: Vec<PathBuf>, client_roots: Option<Vec<PathBuf>>) -> Self {
        Self { roots: real_roots(roots), client_roots: client_roots.map(real_roots) }
    }

    /// Admits `path` (a file, or a folder to create) as it is on disk now: its folder must resolve under
    /// the walls, and the path itself must not be a symbolic link, since replacing or writing it would
    /// land on the link's target. Returns where it really is. A refusal names where it resolves:
    /// SOURCE_NOT_IN_WORKSPACE for an existing path, INVALID_TARGET_PATH for one the write would create.
    pub fn admit(&self, path: &Path) -> Result<PathBuf, ToolError> {
        let exists = path.symlink_metadata().is_ok();
        let code = if exists { ErrorCode::SOURCE_NOT_IN_WORKSPACE } else { ErrorCode::INVALID_TARGET_PATH };
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Err(self.refuse(code, path, None, "is not a file path"));
        };
        if !path.is_absolute() || path.components().any(|c| matches!(c, Component::ParentDir | Component::CurDir)) {
            return Err(self.refuse(code, path, None, "must be absolute, without `.` or `..` segments"));
        }
        let resolved = real_path(parent)
            .ok_or_else(|| self.refuse(code, path, None, "has a folder that cannot be resolved"))?
            .join(name);
        if !self.contains(&resolved) {
            return Err(self.refuse(code, path, Some(&resolved), "resolves outside the workspace roots"));
        }
        if path.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            let target = fs::canonicalize(path).or_else(|_| fs::read_link(path)).unwrap_or_default();
            let code = if self.contains(&target) { ErrorCode::FILESYSTEM_ERROR } else { code };
            return Err(self
                .refuse(code, path, Some(&target), "is a symbolic link; a write replaces files, never links")
                .suggest("Edit the file the link points to, or replace the link with a copy of it"));
        }
        Ok(resolved)
    }

    fn contains(&self, path: &Path) -> bool {
        let under = |roots: &[PathBuf]| roots.iter().any(|root| path.starts_with(root));
        under(&self.roots) && self.client_roots.as_deref().is_none_or(under)
    }

    fn refuse(&self, code: ErrorCode, path: &Path, resolved: Option<&Path>, why: &str) -> ToolError {
        let whither = resolved.filter(|r| *r != path).map(|r| format!(" ({})", r.display())).unwrap_or_default();
        let listed = |roots: &[PathBuf]| roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>();
        let mut error = ToolError::new(code, format!("{} {why}{whither}; nothing was changed", path.display()))
            .detail("file", path.display().to_string())
            .detail("workspaceRoots", listed(&self.roots))
            .detail("clientRoots", listed(self.client_roots.as_deref().unwrap_or_default()));
        if let Some(resolved) = resolved {
            error = error.detail("resolvesTo", resolved.display().to_string());
        }
        error
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    struct Setup {
        _dir: tempfile::TempDir,
        inside: PathBuf,
        outside: PathBuf,
        walls: Walls,
    }

    fn setup() -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = fs::canonicalize(dir.path()).expect("canonical");
        let (inside, outside) = (base.join("proj"), base.join("elsewhere"));
        fs::create_dir_all(inside.join("src")).expect("src");
        fs::create_dir_all(&outside).expect("outside");
        fs::write(inside.join("src/A.cs"), "class A {}").expect("A");
        fs::write(outside.join("B.cs"), "class B {}").expect("B");
        let walls = Walls::new(vec![inside.clone()], None);
        Setup { _dir: dir, inside, outside, walls }
    }

    fn code(result: Result<PathBuf, ToolError>) -> Option<ErrorCode> {
        result.err().map(|e| e.code)
    }

    #[test]
    fn plain_files_and_new_folders_inside_are_admitted() {
        let s = setup();
        assert_eq!(s.walls.admit(&s.inside.join("src/A.cs")).expect("file"), s.inside.join("src/A.cs"));
        let fresh = s.inside.join("src/New/Deeper/C.cs");
        assert_eq!(s.walls.admit(&fresh).expect("new file in new folders"), fresh);
        assert!(s.walls.admit(&s.inside.join("src/New")).is_ok(), "a folder to create");
    }

    #[test]
    fn a_file_under_a_linked_folder_pointing_outside_is_refused_with_where_it_resolves() {
        let s = setup();
        symlink(&s.outside, s.inside.join("src/Linked")).expect("link");
        let error = s.walls.admit(&s.inside.join("src/Linked/B.cs")).expect_err("outside");
        assert_eq!(error.code, ErrorCode::SOURCE_NOT_IN_WORKSPACE);
        assert!(error.message.contains(&s.outside.join("B.cs").display().to_string()), "{}", error.message);
        let details = error.details.expect("details");
        assert_eq!(details["resolvesTo"], serde_json::json!(s.outside.join("B.cs").display().to_string()));
        assert_eq!(
            code(s.walls.admit(&s.inside.join("src/Linked/New/C.cs"))),
            Some(ErrorCode::INVALID_TARGET_PATH),
            "a file the write would create under the link"
        );
    }

    #[test]
    fn a_project_folder_swapped_for_a_link_is_refused() {
        let s = setup();
        let copy = s.outside.join("src");
        fs::rename(s.inside.join("src"), &copy).expect("move away");
        symlink(&copy, s.inside.join("src")).expect("link");
        assert_eq!(code(s.walls.admit(&s.inside.join("src/A.cs"))), Some(ErrorCode::SOURCE_NOT_IN_WORKSPACE));
    }

    #[test]
    fn a_linked_folder_that_stays_inside_is_admitted() {
        let s = setup();
        symlink(s.inside.join("src"), s.inside.join("alias")).expect("link");
        assert_eq!(s.walls.admit(&s.inside.join("alias/A.cs")).expect("inside"), s.inside.join("src/A.cs"));
    }

    #[test]
    fn a_file_that_is_itself_a_link_is_never_written_through() {
        let s = setup();
        symlink(s.outside.join("B.cs"), s.inside.join("src/B.cs")).expect("link out");
        assert_eq!(code(s.walls.admit(&s.inside.join("src/B.cs"))), Some(ErrorCode::SOURCE_NOT_IN_WORKSPACE));
        symlink(s.inside.join("src/A.cs"), s.inside.join("src/A2.cs")).expect("link in");
        assert_eq!(code(s.walls.admit(&s.inside.join("src/A2.cs"))), Some(ErrorCode::FILESYSTEM_ERROR));
        symlink(s.outside.join("missing.cs"), s.inside.join("src/D.cs")).expect("dangling link out");
        assert!(s.walls.admit(&s.inside.join("src/D.cs")).is_err(), "a dangling link is no file to write");
    }

    #[test]
    fn dot_segments_and_client_roots_are_walls_too() {
        let s = setup();
        let escape = PathBuf::from(format!("{}/src/../../elsewhere/B.cs", s.inside.display()));
        assert!(s.walls.admit(&escape).is_err());
        let narrowed = Walls::new(vec![s.inside.clone()], Some(vec![s.inside.join("tests")]));
        assert_eq!(code(narrowed.admit(&s.inside.join("src/A.cs"))), Some(ErrorCode::SOURCE_NOT_IN_WORKSPACE));
    }
}
