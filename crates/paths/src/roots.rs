//! The roots a call's paths must lie under, and the two gates that admit a path into them: one for what a
//! call reads or returns, one for what a write touches. Both resolve the path at the moment of the check,
//! not when a plan was made: a folder can be swapped for a link in between, and the Roslyn host reports
//! files reached through linked folders by their linked path.

use crate::admitted::Admitted;
use crate::real::{real_path, real_roots};
use protocol::{ErrorCode, ToolError};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// Where a call's paths may be: under one of `roots` (the solution's folder, the session's workspace), and
/// under one of `client_roots` when the client offered any. Real paths, as every path is before it is
/// compared with them. A write keeps them in its journal, so that an undo after a crash stays inside too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Roots {
    roots: Vec<PathBuf>,
    client_roots: Option<Vec<PathBuf>>,
}

/// A path the read gate refused, and where it resolves when it does.
#[derive(Debug)]
pub struct Outside {
    pub resolved: Option<PathBuf>,
}

impl Roots {
    /// The roots are resolved themselves, so that a root reached through a link still holds its files.
    pub fn new(roots: Vec<PathBuf>, client_roots: Option<Vec<PathBuf>>) -> Self {
        Self { roots: real_roots(roots), client_roots: client_roots.map(real_roots) }
    }

    /// The workspace roots, without the client's.
    pub fn workspace(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether `path`, resolved now, lies inside: a symlink, or a file under a symlinked folder, counts
    /// where it really is.
    pub fn contains(&self, path: &Path) -> bool {
        real_path(path).is_some_and(|real| self.holds(&real))
    }

    /// Whether a real path is a root itself, the workspace's or the client's: a folder no write removes.
    pub fn is_root(&self, real: &Path) -> bool {
        self.roots.iter().chain(self.client_roots.iter().flatten()).any(|root| root == real)
    }

    /// Whether a real path lies under the roots and the client's.
    fn holds(&self, real: &Path) -> bool {
        let under = |roots: &[PathBuf]| roots.iter().any(|root| real.starts_with(root));
        under(&self.roots) && self.client_roots.as_deref().is_none_or(under)
    }

    /// The read gate: `file`, symlinks resolved at this moment, must lie inside. Only such paths are read,
    /// sent to the host or returned.
    pub fn admit_read(&self, file: &Path) -> Result<Admitted, Outside> {
        match real_path(file) {
            Some(real) if self.holds(&real) => Ok(Admitted::new(real)),
            resolved => Err(Outside { resolved }),
        }
    }

    /// The write gate: admits `path` (a file, or a folder to create) as it is on disk now: its folder must
    /// resolve inside, and the path itself must not be a symbolic link, since replacing or writing it would
    /// land on the link's target. A refusal names where it resolves: SOURCE_NOT_IN_WORKSPACE for an
    /// existing path, INVALID_TARGET_PATH for one the write would create.
    pub fn admit_write(&self, path: &Path) -> Result<Admitted, ToolError> {
        let entry = path.symlink_metadata().ok();
        let code = if entry.is_some() { ErrorCode::SOURCE_NOT_IN_WORKSPACE } else { ErrorCode::INVALID_TARGET_PATH };
        let refuse = |code, resolved: Option<&Path>, why: &str| {
            let whither = resolved.filter(|r| *r != path).map(|r| format!(" ({})", r.display())).unwrap_or_default();
            self.refusal(code, format!("{} {why}{whither}; nothing was changed", path.display()), path, resolved)
        };
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Err(refuse(code, None, "is not a file path"));
        };
        if !path.is_absolute() || path.components().any(|c| matches!(c, Component::ParentDir | Component::CurDir)) {
            return Err(refuse(code, None, "must be absolute, without `.` or `..` segments"));
        }
        let resolved =
            real_path(parent).ok_or_else(|| refuse(code, None, "has a folder that cannot be resolved"))?.join(name);
        if !self.holds(&resolved) {
            return Err(refuse(code, Some(&resolved), "resolves outside the workspace roots"));
        }
        if entry.is_some_and(|m| m.file_type().is_symlink()) {
            let target = fs::canonicalize(path).or_else(|_| fs::read_link(path)).unwrap_or_default();
            let code = if self.holds(&target) { ErrorCode::FILESYSTEM_ERROR } else { code };
            return Err(refuse(code, Some(&target), "is a symbolic link; a write replaces files, never links")
                .suggest("Edit the file the link points to, or replace the link with a copy of it"));
        }
        Ok(Admitted::new(resolved))
    }

    /// The refusal of a write to `path`: `message`, with the path, the roots and where it resolves.
    fn refusal(&self, code: ErrorCode, message: String, path: &Path, resolved: Option<&Path>) -> ToolError {
        let error = self.describe(ToolError::new(code, message).detail("file", path.display().to_string()));
        match resolved {
            Some(resolved) => error.detail("resolvesTo", resolved.display().to_string()),
            None => error,
        }
    }

    /// `error` with the roots a path had to be under (`workspaceRoots`, `clientRoots`), as every refusal of
    /// a path names them.
    pub fn describe(&self, error: ToolError) -> ToolError {
        let listed = |roots: &[PathBuf]| roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>();
        error
            .detail("workspaceRoots", listed(&self.roots))
            .detail("clientRoots", listed(self.client_roots.as_deref().unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    struct Setup {
        _dir: tempfile::TempDir,
        inside: PathBuf,
        outside: PathBuf,
        roots: Roots,
    }

    fn setup() -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = fs::canonicalize(dir.path()).expect("canonical");
        let (inside, outside) = (base.join("proj"), base.join("elsewhere"));
        fs::create_dir_all(inside.join("src")).expect("src");
        fs::create_dir_all(&outside).expect("outside");
        fs::write(inside.join("src/A.cs"), "class A {}").expect("A");
        fs::write(outside.join("B.cs"), "class B {}").expect("B");
        let roots = Roots::new(vec![inside.clone()], None);
        Setup { _dir: dir, inside, outside, roots }
    }

    fn code(result: Result<Admitted, ToolError>) -> Option<ErrorCode> {
        result.err().map(|e| e.code)
    }

    #[test]
    fn plain_files_and_new_folders_inside_are_admitted() {
        let s = setup();
        assert_eq!(s.roots.admit_write(&s.inside.join("src/A.cs")).expect("file").path(), s.inside.join("src/A.cs"));
        let fresh = s.inside.join("src/New/Deeper/C.cs");
        assert_eq!(s.roots.admit_write(&fresh).expect("new file in new folders").path(), fresh);
        assert!(s.roots.admit_write(&s.inside.join("src/New")).is_ok(), "a folder to create");
    }

    #[test]
    fn a_file_under_a_linked_folder_pointing_outside_is_refused_with_where_it_resolves() {
        let s = setup();
        symlink(&s.outside, s.inside.join("src/Linked")).expect("link");
        let error = s.roots.admit_write(&s.inside.join("src/Linked/B.cs")).expect_err("outside");
        assert_eq!(error.code, ErrorCode::SOURCE_NOT_IN_WORKSPACE);
        assert!(error.message.contains(&s.outside.join("B.cs").display().to_string()), "{}", error.message);
        let details = error.details.expect("details");
        assert_eq!(details["resolvesTo"], serde_json::json!(s.outside.join("B.cs").display().to_string()));
        assert_eq!(
            code(s.roots.admit_write(&s.inside.join("src/Linked/New/C.cs"))),
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
        assert_eq!(code(s.roots.admit_write(&s.inside.join("src/A.cs"))), Some(ErrorCode::SOURCE_NOT_IN_WORKSPACE));
    }

    #[test]
    fn a_linked_folder_that_stays_inside_is_admitted() {
        let s = setup();
        symlink(s.inside.join("src"), s.inside.join("alias")).expect("link");
        assert_eq!(
            s.roots.admit_write(&s.inside.join("alias/A.cs")).expect("inside").path(),
            s.inside.join("src/A.cs")
        );
    }

    #[test]
    fn a_file_that_is_itself_a_link_is_never_written_through() {
        let s = setup();
        symlink(s.outside.join("B.cs"), s.inside.join("src/B.cs")).expect("link out");
        assert_eq!(code(s.roots.admit_write(&s.inside.join("src/B.cs"))), Some(ErrorCode::SOURCE_NOT_IN_WORKSPACE));
        symlink(s.inside.join("src/A.cs"), s.inside.join("src/A2.cs")).expect("link in");
        assert_eq!(code(s.roots.admit_write(&s.inside.join("src/A2.cs"))), Some(ErrorCode::FILESYSTEM_ERROR));
        symlink(s.outside.join("missing.cs"), s.inside.join("src/D.cs")).expect("dangling link out");
        assert!(s.roots.admit_write(&s.inside.join("src/D.cs")).is_err(), "a dangling link is no file to write");
    }

    #[test]
    fn dot_segments_and_client_roots_are_walls_too() {
        let s = setup();
        let escape = PathBuf::from(format!("{}/src/../../elsewhere/B.cs", s.inside.display()));
        assert!(s.roots.admit_write(&escape).is_err());
        let narrowed = Roots::new(vec![s.inside.clone()], Some(vec![s.inside.join("tests")]));
        assert_eq!(code(narrowed.admit_write(&s.inside.join("src/A.cs"))), Some(ErrorCode::SOURCE_NOT_IN_WORKSPACE));
    }
}
