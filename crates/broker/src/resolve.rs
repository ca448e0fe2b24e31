//! Which solution a call targets, and the path gate: every path a call names is made absolute, resolved
//! through symlinks, and must lie under a workspace root.
//!
//! Order: an explicit `solutionPath`; the nearest solution above the file (a `.sln`/`.slnx`
//! anywhere above wins over a nearer `.csproj`); the session's workspace; the client's working directory.
//! When the client offered MCP roots, a path must also lie under one of them.

use crate::reach::{Reach, Reaches};
use crate::session::Scope;
use paths::{Admitted, Roots, real_path};
use protocol::{ErrorCode, ToolError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const SOLUTION_EXTENSIONS: &[&str] = &["sln", "slnx"];
const PROJECT_EXTENSION: &str = "csproj";

/// A call's target: the solution, and the roots its paths must lie under.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub solution: PathBuf,
    pub roots: Roots,
    /// The project folders beyond the solution's own that are roots too, and the projects left outside.
    pub reach: Arc<Reach>,
}

impl Target {
    /// Whether `file`, resolved now, lies inside the roots: a symlink, or a file under a symlinked folder,
    /// counts where it really is. Only such paths are read or returned.
    pub fn contains(&self, file: &Path) -> bool {
        self.roots.contains(file)
    }

    /// The gate: `file`, symlinks resolved at this moment, must be inside the roots.
    pub fn admit(&self, file: &Path) -> Result<Admitted, ToolError> {
        self.roots.admit_read(file).map_err(|outside| {
            let mut refused = ToolError::new(
                ErrorCode::SOURCE_NOT_IN_WORKSPACE,
                format!("{} is outside the workspace of {}", file.display(), self.solution.display()),
            )
            .detail("file", file.display().to_string());
            if let Some(real) = outside.resolved.filter(|real| real != file) {
                refused = refused.detail("resolvesTo", real.display().to_string());
            }
            self.roots
                .describe(refused)
                .suggest("Pass a file inside the solution's folder, or name its solution with solutionPath")
        })
    }
}

/// Base directory for relative paths: the session's workspace root, else the client's working directory.
pub fn base_dir(scope: &Scope) -> PathBuf {
    scope.workspace.as_ref().map(|s| s.root.clone()).unwrap_or_else(|| scope.cwd.clone())
}

pub fn working_directory() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// An existing file named by a tool argument, absolute and with symlinks resolved.
pub fn existing_file(raw: &str, field: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    existing(raw, field, scope, false)
}

/// An existing folder named by a tool argument, absolute and with symlinks resolved.
pub fn existing_folder(raw: &str, field: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    existing(raw, field, scope, true)
}

fn existing(raw: &str, field: &str, scope: &Scope, folder: bool) -> Result<PathBuf, ToolError> {
    if raw.trim().is_empty() {
        return Err(ToolError::new(ErrorCode::INVALID_SOURCE_PATH, format!("{field} is empty")).detail("field", field));
    }
    if raw.contains('\0') {
        return Err(ToolError::new(ErrorCode::INVALID_SOURCE_PATH, format!("{field} contains a NUL character"))
            .detail("field", field));
    }
    let path = base_dir(scope).join(raw);
    let kind = if folder { "folder" } else { "file" };
    match paths::existing_real_path(&path) {
        Ok(real) if (folder && real.is_dir()) || (!folder && real.is_file()) => Ok(real),
        Ok(real) => Err(ToolError::new(ErrorCode::INVALID_SOURCE_PATH, format!("{} is not a {kind}", real.display()))
            .detail(field, real.display().to_string())),
        Err(_) => Err(ToolError::new(ErrorCode::SOURCE_FILE_NOT_FOUND, format!("{} does not exist", path.display()))
            .detail(field, path.display().to_string())
            .suggest("Paths are absolute or relative to the workspace root (see initialize_workspace)")),
    }
}

/// A file a tool may create: made absolute, with the symlinks of its existing ancestors resolved.
pub fn new_file(raw: &str, field: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    new_path(raw, field, scope, false)
}

/// A folder a tool may create or fill: as [`new_file`], but an existing file is refused instead of a folder.
pub fn new_folder(raw: &str, field: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    new_path(raw, field, scope, true)
}

fn new_path(raw: &str, field: &str, scope: &Scope, folder: bool) -> Result<PathBuf, ToolError> {
    let invalid = |why: &str| {
        ToolError::new(ErrorCode::INVALID_TARGET_PATH, format!("{field} {why}"))
            .detail("field", field)
            .detail(field, raw)
    };
    if raw.trim().is_empty() || raw.contains('\0') {
        return Err(invalid("is empty or contains a NUL character"));
    }
    let path = base_dir(scope).join(raw);
    if path.components().any(|c| matches!(c, std::path::Component::ParentDir | std::path::Component::CurDir)) {
        return Err(invalid("must not contain `.` or `..` segments"));
    }
    let real = real_path(&path).ok_or_else(|| invalid("cannot be resolved"))?;
    match (folder, real.is_dir()) {
        (false, true) => Err(invalid("is a folder")),
        (true, false) if real.exists() => Err(invalid("is a file")),
        _ => Ok(real),
    }
}

/// A loaded solution and the folders of its projects.
pub struct Loaded {
    pub solution: PathBuf,
    pub project_dirs: Vec<PathBuf>,
}

/// Resolves the solution for a call about `file` (if any): the explicit one, else a loaded solution with a
/// project whose folder holds the file, else the nearest above the file, else the session's, else the
/// working directory's. A file of a loaded solution never loads another one found above it. `loaded` is
/// asked only for a file with no explicit solution. The roots are the solution's folder, the folders of the
/// projects it reaches inside its repository ([`Reaches`]) and the session's workspace.
pub fn target(
    explicit: Option<&str>,
    file: Option<&Path>,
    scope: &Scope,
    reaches: &Reaches,
    loaded: impl FnOnce() -> Vec<Loaded>,
) -> Result<Target, ToolError> {
    let session = scope.workspace.as_ref();
    let solution = if let Some(raw) = explicit {
        explicit_solution(raw, scope)?
    } else if let Some(found) = file.and_then(|f| loaded_holding(f, &loaded(), session.map(|s| s.solution.as_path()))) {
        found
    } else if let Some(found) = file.and_then(|f| nearest_above(f.parent().unwrap_or(f))) {
        found
    } else if let Some(session) = session {
        session.solution.clone()
    } else {
        nearest_above(&scope.cwd).ok_or_else(|| {
            ToolError::new(ErrorCode::SOLUTION_NOT_FOUND, "No .sln, .slnx or .csproj was found for this call")
                .detail("searchedFrom", file.unwrap_or(&scope.cwd).display().to_string())
                .suggest("Call initialize_workspace with the folder of your solution")
                .suggest("Or pass solutionPath")
        })?
    };
    let reach = reaches.of(&solution);
    let roots = Roots::new(
        [solution.parent().unwrap_or(&solution).to_path_buf()]
            .into_iter()
            .chain(reach.inside.iter().cloned())
            .chain(session.map(|s| s.root.clone()))
            .collect(),
        scope.client_roots.clone(),
    );
    admit_solution(&solution, &roots)?;
    Ok(Target { solution, roots, reach })
}

/// The one rule for what a session may load: a solution outside the client's roots is refused before
/// anything of it runs (no restore, no design-time build, no test), whichever tool names it.
pub fn admit_solution(solution: &Path, roots: &Roots) -> Result<(), ToolError> {
    if roots.contains(solution) {
        return Ok(());
    }
    Err(roots
        .describe(
            ToolError::new(
                ErrorCode::SOURCE_NOT_IN_WORKSPACE,
                format!("{} is outside the roots this client offered; nothing of it was loaded", solution.display()),
            )
            .detail("solutionPath", solution.display().to_string()),
        )
        .suggest("Name a solution inside one of the client's roots, or have the client offer its folder as a root"))
}

/// The loaded solution whose project folder holding `file` is deepest; on a tie the session's, then the
/// first by path.
fn loaded_holding(file: &Path, loaded: &[Loaded], session: Option<&Path>) -> Option<PathBuf> {
    loaded
        .iter()
        .filter_map(|l| {
            let depth = l.project_dirs.iter().filter(|d| file.starts_with(d)).map(|d| d.components().count()).max()?;
            Some((depth, session == Some(l.solution.as_path()), &l.solution))
        })
        .max_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| b.2.cmp(a.2)))
        .map(|(_, _, solution)| solution.clone())
}

fn explicit_solution(raw: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    let path = base_dir(scope).join(raw);
    let not_found = || {
        ToolError::new(ErrorCode::SOLUTION_NOT_FOUND, format!("No solution or project at {}", path.display()))
            .detail("solutionPath", path.display().to_string())
    };
    let real = paths::existing_real_path(&path).map_err(|_| not_found())?;
    if real.is_dir() {
        return solutions_in(&real).into_iter().next().ok_or_else(not_found);
    }
    if is_solution_or_project(&real) {
        Ok(real)
    } else {
        Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            format!("{} is not a .sln, .slnx or .csproj file", real.display()),
        )
        .detail("field", "solutionPath"))
    }
}

fn is_solution_or_project(path: &Path) -> bool {
    extension(path).is_some_and(|e| SOLUTION_EXTENSIONS.contains(&e) || e == PROJECT_EXTENSION) && path.is_file()
}

fn extension(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}

/// The nearest solution file at or above `dir`, else the nearest project file.
pub fn nearest_above(dir: &Path) -> Option<PathBuf> {
    let mut project = None;
    for ancestor in dir.ancestors() {
        let (solutions, projects) = entries_of(ancestor);
        if let Some(solution) = solutions.into_iter().next() {
            return Some(solution);
        }
        if project.is_none() {
            project = projects.into_iter().next();
        }
    }
    project
}

/// Solutions directly in `dir` (sorted), else its projects.
pub fn solutions_in(dir: &Path) -> Vec<PathBuf> {
    let (solutions, projects) = entries_of(dir);
    if solutions.is_empty() { projects } else { solutions }
}

/// (solution files, project files) directly in `dir`, each sorted.
fn entries_of(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut solutions = Vec::new();
    let mut projects = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for path in entries.flatten().map(|e| e.path()).filter(|p| p.is_file()) {
            match extension(&path) {
                Some(e) if SOLUTION_EXTENSIONS.contains(&e) => solutions.push(path),
                Some(PROJECT_EXTENSION) => projects.push(path),
                _ => {}
            }
        }
    }
    solutions.sort();
    projects.sort();
    (solutions, projects)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }

    #[test]
    fn a_new_file_resolves_through_its_existing_ancestors() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        touch(&root.join("src/A.cs"));
        let existing = root.join("src/A.cs").display().to_string();
        let scope = Scope::default();
        assert_eq!(new_file(&existing, "targetFile", &scope).expect("existing"), root.join("src/A.cs"));
        let fresh = root.join("src/New/B.cs").display().to_string();
        assert_eq!(new_file(&fresh, "targetFile", &scope).expect("new"), root.join("src/New/B.cs"));
        let escape = format!("{}/src/../../B.cs", root.display());
        assert_eq!(new_file(&escape, "targetFile", &scope).err().map(|e| e.code), Some(ErrorCode::INVALID_TARGET_PATH));
        let folder = root.join("src").display().to_string();
        assert_eq!(new_file(&folder, "targetFile", &scope).err().map(|e| e.code), Some(ErrorCode::INVALID_TARGET_PATH));
    }

    #[test]
    fn a_solution_above_wins_over_a_nearer_project() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        touch(&root.join("App.sln"));
        touch(&root.join("src/Core/Core.csproj"));
        touch(&root.join("src/Core/Models/A.cs"));
        assert_eq!(nearest_above(&root.join("src/Core/Models")), Some(root.join("App.sln")));
    }

    #[test]
    fn a_file_of_a_loaded_project_resolves_to_the_solution_of_its_deepest_project_folder() {
        let loaded = |solution: &str, dirs: &[&str]| Loaded {
            solution: solution.into(),
            project_dirs: dirs.iter().map(PathBuf::from).collect(),
        };
        let all =
            [loaded("/w/All.sln", &["/w/src/Core", "/w/src/App"]), loaded("/w/src/Core/Core.csproj", &["/w/src/Core"])];
        let file = Path::new("/w/src/Core/Models/A.cs");
        // Equally deep: the session's solution, else the first by path.
        assert_eq!(loaded_holding(file, &all, None), Some("/w/All.sln".into()));
        assert_eq!(
            loaded_holding(file, &all, Some(Path::new("/w/src/Core/Core.csproj"))),
            Some("/w/src/Core/Core.csproj".into())
        );
        assert_eq!(loaded_holding(Path::new("/w/src/App/P.cs"), &all, None), Some("/w/All.sln".into()));
        assert_eq!(
            loaded_holding(Path::new("/w/src/Coreish/B.cs"), &all, None),
            None,
            "a sibling with a common prefix"
        );
        let nested = [loaded("/w/All.sln", &["/w"]), loaded("/w/src/Core/Core.csproj", &["/w/src/Core"])];
        assert_eq!(loaded_holding(file, &nested, None), Some("/w/src/Core/Core.csproj".into()), "the deepest folder");
    }

    #[test]
    fn a_project_is_used_when_no_solution_is_above() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        touch(&root.join("Lib/Lib.csproj"));
        touch(&root.join("Lib/Deep/B.cs"));
        assert_eq!(nearest_above(&root.join("Lib/Deep")), Some(root.join("Lib/Lib.csproj")));
    }

    #[test]
    fn the_gate_refuses_files_outside_every_root() {
        let target =
            Target { solution: "/w/S.sln".into(), roots: Roots::new(vec!["/w".into()], None), reach: Arc::default() };
        assert!(target.admit(Path::new("/w/src/a.cs")).is_ok());
        let refused = target.admit(Path::new("/etc/passwd")).expect_err("refused");
        assert_eq!(refused.code, ErrorCode::SOURCE_NOT_IN_WORKSPACE);
        assert!(target.admit(Path::new("/wx/a.cs")).is_err(), "a sibling with a common prefix is outside");
    }

    #[test]
    fn the_gate_follows_symlinks_to_where_files_really_are() {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical");
        let (root, outside) = (base.join("w"), base.join("outside"));
        touch(&root.join("src/A.cs"));
        touch(&outside.join("Secret.cs"));
        std::os::unix::fs::symlink(outside.join("Secret.cs"), root.join("src/Evil.cs")).expect("file link");
        std::os::unix::fs::symlink(&outside, root.join("src/Linked")).expect("folder link");
        let target =
            Target { solution: root.join("S.sln"), roots: Roots::new(vec![root.clone()], None), reach: Arc::default() };
        assert!(target.admit(&root.join("src/A.cs")).is_ok());
        assert!(target.contains(&root.join("src/New.cs")), "a file not created yet resolves through its folder");
        std::os::unix::fs::symlink(outside.join("Later.cs"), root.join("src/Dangling.cs")).expect("dangling link");
        let escapes = [
            "src/Evil.cs",
            "src/Linked/Secret.cs",
            "src/Linked/Absent.cs",
            "src/Dangling.cs",
            "src/../../outside/Secret.cs",
        ];
        for escape in escapes {
            let refused = target.admit(&root.join(escape)).expect_err(escape);
            assert_eq!(refused.code, ErrorCode::SOURCE_NOT_IN_WORKSPACE, "{escape}");
        }
        let refused = target.admit(&root.join("src/Evil.cs")).expect_err("file link");
        assert_eq!(refused.details.expect("details")["resolvesTo"], serde_json::json!(outside.join("Secret.cs")));
    }

    #[test]
    fn roots_reached_through_a_symlink_are_compared_as_real_paths() {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical");
        touch(&base.join("real/App.csproj"));
        std::os::unix::fs::symlink(base.join("real"), base.join("alias")).expect("link");
        let scope = Scope { client_roots: Some(vec![base.join("alias")]), ..Scope::default() };
        let solution = base.join("alias/App.csproj").display().to_string();
        let target = target(Some(&solution), None, &scope, &Reaches::default(), Vec::new).expect("target");
        assert_eq!(target.roots, Roots::new(vec![base.join("real")], Some(vec![base.join("real")])));
        assert!(target.contains(&base.join("alias/A.cs")));
    }

    #[test]
    fn client_roots_narrow_the_gate() {
        let roots = Roots::new(vec!["/w".into()], Some(vec!["/w/src".into()]));
        let target = Target { solution: "/w/S.sln".into(), roots, reach: Arc::default() };
        assert!(target.admit(Path::new("/w/src/a.cs")).is_ok());
        let refused = target.admit(Path::new("/w/tests/b.cs")).expect_err("outside the client's roots");
        assert_eq!(refused.details.expect("details")["clientRoots"], serde_json::json!(["/w/src"]));
    }
}
