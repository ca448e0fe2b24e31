//! initialize_workspace: find the solutions under a folder, load the primary one, and make it the
//! session's default for calls that name no solution.

use super::Call;
use crate::resolve;
use crate::session::SessionWorkspace;
use paths::Roots;
use protocol::tools::workspace::*;
use protocol::{ErrorCode, ToolError};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How deep below the working directory solutions are looked for.
const SEARCH_DEPTH: usize = 4;
/// Folder entries looked at when searching for solutions.
const MAX_SEARCHED: usize = 20_000;
const SKIPPED_DIRS: &[&str] = &["bin", "obj", ".git", ".vs", "node_modules"];

pub async fn initialize_workspace(
    call: &Call,
    input: InitializeWorkspaceInput,
) -> Result<InitializeWorkspaceOutput, ToolError> {
    let root = working_directory(&call.scope.cwd, input.working_directory.as_deref())?;
    // The folder is its own workspace root here: whether it may be used is for the client's roots to say.
    if !Roots::new(vec![root.clone()], call.scope.client_roots.clone()).contains(&root) {
        return Err(ToolError::new(
            ErrorCode::SOURCE_NOT_IN_WORKSPACE,
            format!("{} is outside the roots this client offered", root.display()),
        )
        .detail("workingDirectory", root.display().to_string())
        .detail(
            "clientRoots",
            call.scope.client_roots.iter().flatten().map(|r| r.display().to_string()).collect::<Vec<_>>(),
        ));
    }
    let found = discover(&root);
    let primary = choose(&found, input.preferred_solution.as_deref(), &root)?;
    // The nearest solution above the folder may lie above the client's roots too.
    let folder = primary.parent().unwrap_or(&primary).to_path_buf();
    resolve::admit_solution(&primary, &Roots::new(vec![folder], call.scope.client_roots.clone()))?;
    let workspace = call.services.workspace(primary.clone())?;
    let workspace = call.load_as_answer(&workspace).await?;
    call.services.note_host_versions(&workspace);
    call.services.registry.touch(&primary);
    call.session.set_workspace(SessionWorkspace { root: root.clone(), solution: primary.clone() });

    let summary = workspace.summary();
    let projects: Vec<ProjectItem> = summary
        .iter()
        .flat_map(|s| s.projects.iter())
        .map(|p| ProjectItem {
            name: p.name.clone(),
            path: p.file_path.clone(),
            target_frameworks: p.target_frameworks.clone(),
            document_count: p.document_count,
            project_references: p.project_references.clone(),
        })
        .collect();
    let framework_versions: BTreeSet<String> = projects.iter().flat_map(|p| p.target_frameworks.clone()).collect();
    let all_solutions = found
        .iter()
        .map(|path| FoundSolution {
            path: path.display().to_string(),
            projects: if *path == primary {
                projects.iter().map(|p| p.name.clone()).collect()
            } else {
                listed_projects(path)
            },
        })
        .collect();
    Ok(InitializeWorkspaceOutput {
        primary_solution: PrimarySolution {
            path: primary.display().to_string(),
            name: primary.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            project_count: projects.len() as u32,
            document_count: projects.iter().map(|p| p.document_count).sum(),
        },
        all_solutions,
        framework_versions: framework_versions.into_iter().collect(),
        workspace_root: root.display().to_string(),
        projects,
        workspace_diagnostics: summary
            .iter()
            .flat_map(|s| s.workspace_diagnostics.iter())
            .map(|d| format!("{}: {}", d.kind.name(), d.message))
            .collect(),
    })
}

/// The default workspace of a client root that holds a solution: what initialize_workspace would choose
/// there, not loaded until a call needs it.
pub fn root_workspace(root: &Path) -> Option<SessionWorkspace> {
    let solution = choose(&discover(root), None, root).ok()?;
    solution.starts_with(root).then(|| SessionWorkspace { root: root.to_path_buf(), solution })
}

fn working_directory(cwd: &Path, raw: Option<&str>) -> Result<PathBuf, ToolError> {
    let path = cwd.join(raw.unwrap_or("."));
    match paths::existing_real_path(&path) {
        Ok(dir) if dir.is_dir() => Ok(dir),
        Ok(_) => Err(ToolError::new(ErrorCode::INVALID_PARAMETER, format!("{} is not a directory", path.display()))
            .detail("field", "workingDirectory")),
        Err(_) => Err(ToolError::new(ErrorCode::SOLUTION_NOT_FOUND, format!("{} does not exist", path.display()))
            .detail("workingDirectory", path.display().to_string())),
    }
}

/// Solutions below `root` (sorted); projects if there is none; else the nearest one above. Folders are
/// searched breadth first, without following links, through at most [`MAX_SEARCHED`] entries: a client can
/// name `/` as its working directory or root. Runs off the async threads.
fn discover(root: &Path) -> Vec<PathBuf> {
    crate::offload::cpu(|| search(root))
}

fn search(root: &Path) -> Vec<PathBuf> {
    let mut solutions = Vec::new();
    let mut projects = Vec::new();
    let mut dirs = std::collections::VecDeque::from([(root.to_path_buf(), 0)]);
    let mut searched = 0usize;
    while let Some((dir, depth)) = dirs.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            searched += 1;
            if searched > MAX_SEARCHED {
                tracing::warn!(root = %root.display(), "stopped looking for solutions after {MAX_SEARCHED} entries");
                dirs.clear();
                break;
            }
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if depth < SEARCH_DEPTH && !SKIPPED_DIRS.contains(&name) {
                    dirs.push_back((path, depth + 1));
                }
            } else if name.ends_with(".sln") || name.ends_with(".slnx") {
                solutions.push(path);
            } else if name.ends_with(".csproj") {
                projects.push(path);
            }
        }
    }
    let mut found = if !solutions.is_empty() {
        solutions
    } else if !projects.is_empty() {
        projects
    } else {
        resolve::nearest_above(root).into_iter().collect()
    };
    found.sort();
    found
}

/// The preferred solution if named (by path or file name), else the shallowest, then the first by name.
fn choose(found: &[PathBuf], preferred: Option<&str>, root: &Path) -> Result<PathBuf, ToolError> {
    let listed = || found.iter().map(|p| p.display().to_string()).collect::<Vec<_>>();
    if let Some(preferred) = preferred {
        let as_path = paths::existing_real_path(&root.join(preferred)).ok();
        return found
            .iter()
            .find(|p| Some(*p) == as_path.as_ref() || p.file_name().is_some_and(|n| n == preferred))
            .cloned()
            .ok_or_else(|| {
                ToolError::new(ErrorCode::SOLUTION_NOT_FOUND, format!("No solution named {preferred} was found"))
                    .detail("preferredSolution", preferred)
                    .detail("found", listed())
            });
    }
    found.iter().min_by_key(|p| (p.components().count(), p.to_path_buf())).cloned().ok_or_else(|| {
        ToolError::new(
            ErrorCode::SOLUTION_NOT_FOUND,
            format!("No .sln, .slnx or .csproj under or above {}", root.display()),
        )
        .detail("workingDirectory", root.display().to_string())
        .suggest("Pass the folder that holds your solution as workingDirectory")
    })
}

/// Project names a solution file lists, without loading it.
fn listed_projects(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let stem = |p: &str| Path::new(&p.replace('\\', "/")).file_stem().map(|s| s.to_string_lossy().into_owned());
    let mut names: Vec<String> = if path.extension().is_some_and(|e| e == "csproj") {
        path.file_stem().map(|s| s.to_string_lossy().into_owned()).into_iter().collect()
    } else {
        // `.sln`: `Project("{guid}") = "Name", "path\Name.csproj", ...`; `.slnx`: `<Project Path="..." />`.
        text.split('"').filter(|piece| piece.ends_with(".csproj")).filter_map(stem).collect()
    };
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_files_list_their_projects() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sln = dir.path().join("A.sln");
        std::fs::write(&sln, "Project(\"{FAE04EC0}\") = \"Core\", \"src\\Core\\Core.csproj\", \"{1}\"\nProject(\"{2150E333}\") = \"src\", \"src\", \"{2}\"\n")
            .expect("write");
        assert_eq!(listed_projects(&sln), vec!["Core".to_owned()]);
        let slnx = dir.path().join("B.slnx");
        std::fs::write(&slnx, "<Solution><Project Path=\"B/B.csproj\" /></Solution>").expect("write");
        assert_eq!(listed_projects(&slnx), vec!["B".to_owned()]);
    }

    #[test]
    fn the_shallowest_solution_is_primary_unless_one_is_preferred() {
        let found = vec![PathBuf::from("/w/a/Deep.sln"), PathBuf::from("/w/Top.sln")];
        assert_eq!(choose(&found, None, Path::new("/w")).expect("chosen"), PathBuf::from("/w/Top.sln"));
        assert_eq!(choose(&found, Some("Deep.sln"), Path::new("/w")).expect("chosen"), PathBuf::from("/w/a/Deep.sln"));
        let missing = choose(&found, Some("Nope.sln"), Path::new("/w")).expect_err("refused");
        assert_eq!(missing.code, ErrorCode::SOLUTION_NOT_FOUND);
    }
}
