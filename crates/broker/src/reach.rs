//! The project folders a solution reaches beyond its own folder: the projects a `.sln`/`.slnx` lists and
//! those each project references, transitively, read from the files as written (MSBuild is not run: a
//! reference through a property other than the project's own folder is not followed). Those inside the
//! solution's repository join its roots, so a test project named as the solution sees the library it tests
//! in a sibling folder; those outside stay outside the walls and are named ([`Reach::outside`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// At most this many project files are read for one solution.
const MAX_PROJECTS: usize = 5_000;

/// What a solution reaches beyond its own folder.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Folders of reached projects inside the solution's repository, outside its own folder: roots too.
    pub inside: Vec<PathBuf>,
    /// Reached project files outside the repository (or, with no repository, outside the solution's folder):
    /// left outside the walls.
    pub outside: Vec<PathBuf>,
    /// The project files a load opens: those the solution lists (or the project it is) and what they
    /// reference, transitively, as far as they are read here.
    pub projects: usize,
}

/// Each solution's reach, read again only when one of the files it was read from changed.
#[derive(Default)]
pub struct Reaches {
    kept: Mutex<HashMap<PathBuf, Kept>>,
}

struct Kept {
    read: Vec<(PathBuf, Option<SystemTime>)>,
    reach: Arc<Reach>,
}

impl Reaches {
    /// The reach of `solution` (a real path).
    pub fn of(&self, solution: &Path) -> Arc<Reach> {
        if let Some(kept) = self.kept.lock().unwrap_or_else(|e| e.into_inner()).get(solution)
            && kept.read.iter().all(|(file, at)| modified(file) == *at)
        {
            return kept.reach.clone();
        }
        let (reach, read) = read_reach(solution);
        let reach = Arc::new(reach);
        let kept = Kept { read, reach: reach.clone() };
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).insert(solution.to_path_buf(), kept);
        reach
    }
}

fn modified(file: &Path) -> Option<SystemTime> {
    std::fs::metadata(file).and_then(|m| m.modified()).ok()
}

/// The reach, and every file read for it with its modification time.
fn read_reach(solution: &Path) -> (Reach, Vec<(PathBuf, Option<SystemTime>)>) {
    let home = solution.parent().unwrap_or(solution);
    let repository = repository_of(home);
    let wall = repository.as_deref().unwrap_or(home);
    let mut reach = Reach::default();
    let mut read = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::from([solution.to_path_buf()]);
    let mut queue = VecDeque::from([solution.to_path_buf()]);
    while let Some(file) = queue.pop_front() {
        read.push((file.clone(), modified(&file)));
        for project in listed(&file) {
            if seen.len() >= MAX_PROJECTS || !seen.insert(project.clone()) {
                continue;
            }
            let folder = project.parent().unwrap_or(&project).to_path_buf();
            if !project.starts_with(wall) {
                reach.outside.push(project);
                continue;
            }
            if !folder.starts_with(home) && !reach.inside.contains(&folder) {
                reach.inside.push(folder);
            }
            queue.push_back(project);
        }
    }
    reach.inside.sort();
    reach.outside.sort();
    let listing = matches!(solution.extension().and_then(|e| e.to_str()), Some("sln" | "slnx"));
    reach.projects = seen.len() - usize::from(listing);
    (reach, read)
}

/// The project files `project` references, transitively, that `holds` refuses (those are not followed
/// further), sorted: a test run's copy does not hold them, and building the project would build them where
/// they lie (an absolute path) or fail on their absence (a relative one).
pub fn beyond(project: &Path, holds: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let (mut seen, mut beyond) = (HashSet::from([project.to_path_buf()]), Vec::new());
    let mut queue = VecDeque::from([project.to_path_buf()]);
    while let Some(file) = queue.pop_front() {
        for referenced in listed(&file) {
            if seen.len() >= MAX_PROJECTS || !seen.insert(referenced.clone()) {
                continue;
            }
            match holds(&referenced) {
                true => queue.push_back(referenced),
                false => beyond.push(referenced),
            }
        }
    }
    beyond.sort();
    beyond
}

/// The nearest folder at or above `dir` holding `.git` (a folder, or a worktree's file).
fn repository_of(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|folder| folder.join(".git").symlink_metadata().is_ok()).map(Path::to_path_buf)
}

/// The project files `file` names (a solution's projects, a project's references), as real paths; those
/// that do not exist, or that a property other than the project's folder names, are left out.
fn listed(file: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let folder = file.parent().unwrap_or(file);
    let written: Vec<String> = match file.extension().and_then(|e| e.to_str()) {
        Some("sln") => sln_projects(&text),
        Some("slnx") => xml_attributes(&text, "Project", "Path"),
        _ => xml_attributes(&text, "ProjectReference", "Include"),
    };
    written
        .iter()
        .flat_map(|items| items.split(';'))
        .filter_map(|item| {
            let item = item
                .trim()
                .replace("$(MSBuildThisFileDirectory)", "./")
                .replace("$(MSBuildProjectDirectory)", ".")
                .replace('\\', "/");
            if item.is_empty() || item.contains("$(") || item.contains('*') {
                return None;
            }
            paths::existing_real_path(&folder.join(item)).ok().filter(|p| p.is_file())
        })
        .collect()
}

/// The project paths of a `.sln`: `Project("{type}") = "Name", "path\Name.csproj", "{id}"`; solution
/// folders (whose path is their name) left out.
fn sln_projects(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| line.trim_start().starts_with("Project("))
        .filter_map(|line| line.split('"').nth(5))
        .filter(|path| path.ends_with("proj"))
        .map(str::to_owned)
        .collect()
}

/// The values of `attribute` on every `element` of an XML document; none when it does not parse.
fn xml_attributes(text: &str, element: &str, attribute: &str) -> Vec<String> {
    let Ok(document) = roxmltree::Document::parse(text) else {
        return Vec::new();
    };
    document
        .descendants()
        .filter(|node| node.has_tag_name(element))
        .filter_map(|node| node.attribute(attribute))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    fn project(references: &[&str]) -> String {
        let items: String = references.iter().map(|r| format!("<ProjectReference Include=\"{r}\" />")).collect();
        format!("<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup>{items}</ItemGroup></Project>")
    }

    #[test]
    fn a_test_project_reaches_its_libraries_inside_the_repository_and_names_those_outside() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let repo = root.join("repo");
        std::fs::create_dir_all(repo.join(".git")).expect("git");
        write(
            &repo.join("src/Tests/Tests.csproj"),
            &project(&[r"..\Lib\Lib.csproj", "$(MSBuildThisFileDirectory)../Gone/Gone.csproj"]),
        );
        write(
            &repo.join("src/Lib/Lib.csproj"),
            &project(&["../Core/Core.csproj;$(Other)/X.csproj", "../../../Elsewhere/E.csproj"]),
        );
        write(&repo.join("src/Core/Core.csproj"), &project(&["../Tests/Tests.csproj"]));
        write(&root.join("Elsewhere/E.csproj"), &project(&[]));

        let reaches = Reaches::default();
        let reach = reaches.of(&repo.join("src/Tests/Tests.csproj"));
        assert_eq!(reach.inside, [repo.join("src/Core"), repo.join("src/Lib")], "transitively, a cycle read once");
        assert_eq!(reach.outside, [root.join("Elsewhere/E.csproj")]);
        assert_eq!(reach.projects, 4, "the project itself, Lib, Core and E: what a load opens");
        write(&repo.join("src/All.slnx"), r#"<Solution><Project Path="Tests/Tests.csproj" /></Solution>"#);
        assert_eq!(reaches.of(&repo.join("src/All.slnx")).projects, 4, "a solution file is no project");

        std::fs::remove_dir_all(repo.join(".git")).expect("no repository");
        write(&repo.join("src/Core/Core.csproj"), &project(&[]));
        let alone = reaches.of(&repo.join("src/Tests/Tests.csproj"));
        assert!(alone.inside.is_empty(), "without a repository the folder is the wall: {alone:?}");
        assert_eq!(alone.outside, [repo.join("src/Lib/Lib.csproj")]);
        assert_eq!(alone.projects, 2);
    }

    #[test]
    fn a_solution_lists_its_projects_in_either_format() {
        let sln = "Project(\"{FAE04EC0}\") = \"Lib\", \"..\\Lib\\Lib.csproj\", \"{1}\"\nProject(\"{2150E333}\") = \"docs\", \"docs\", \"{2}\"\n";
        assert_eq!(sln_projects(sln), [r"..\Lib\Lib.csproj"]);
        let slnx = "<Solution><Folder Name=\"/x/\"><Project Path=\"a/A.csproj\" /></Folder><Project Path=\"B.csproj\" /></Solution>";
        assert_eq!(xml_attributes(slnx, "Project", "Path"), ["a/A.csproj", "B.csproj"]);
        assert!(xml_attributes("<not xml", "Project", "Path").is_empty());
    }
}
