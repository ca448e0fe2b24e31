//! The copy of a repository that a test run builds and runs in. Tests find their data relative to their
//! output folder (`bin/Debug/net8.0/../../..` is the project) or to their source files, so the copy keeps the
//! repository's layout; the user's tree never gets a `bin/` or `obj/` from a run, and the files compiled are
//! those of the moment the copy was brought up to date.
//!
//! Bringing it up to date copies only what changed (by size and modification time, which the copy keeps, so
//! MSBuild's incremental build sees the same times the user's files have) and removes what is gone. Build
//! output folders are neither copied nor removed: the copy keeps its own between runs.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// Folders that hold what a build, an IDE or a package manager made, not sources.
const NOT_SOURCES: [&str; 7] = [".git", ".vs", ".idea", "bin", "obj", "node_modules", "TestResults"];

/// What bringing the copy up to date did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Synced {
    pub files: u64,
    pub copied: u64,
    pub removed: u64,
    /// A file that restoring packages reads changed, came or went (or a folder went): the copy's projects must
    /// be restored again before they build.
    pub restore_inputs: bool,
}

/// Whether restoring packages reads the file: project files, MSBuild's imports, package versions and sources.
fn restore_reads(name: &OsStr) -> bool {
    let name = name.to_string_lossy().to_ascii_lowercase();
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(extension, "csproj" | "fsproj" | "vbproj" | "proj" | "props" | "targets")
        || matches!(name.as_str(), "global.json" | "nuget.config" | "packages.lock.json" | "directory.build.rsp")
}

/// Files a build reads from the folders above its projects.
const READ_FROM_ABOVE: [&str; 7] = [
    "Directory.Build.props",
    "Directory.Build.targets",
    "Directory.Packages.props",
    "Directory.Build.rsp",
    "global.json",
    "NuGet.config",
    ".editorconfig",
];

/// The folder a copy for `solution_dir` starts at: the topmost folder, up to the repository's root (its
/// `.git`), holding a file the build reads from above (so a `Directory.Build.props` or `.editorconfig` there
/// comes along), and never below the solution's folder or a test project's. It never climbs to a folder
/// `inside` refuses (above the session's roots): a repository that is a whole home folder, or a test project
/// listed from elsewhere, never brings in what the session may not read; such a project is left out.
pub fn source_root<'a>(
    solution_dir: &Path,
    projects: impl IntoIterator<Item = &'a Path>,
    inside: impl Fn(&Path) -> bool,
) -> PathBuf {
    let mut root = solution_dir;
    if let Some(repository) = solution_dir.ancestors().find(|dir| dir.join(".git").exists()) {
        for dir in solution_dir.ancestors().take_while(|dir| inside(dir)) {
            if READ_FROM_ABOVE.iter().any(|file| dir.join(file).exists()) {
                root = dir;
            }
            if dir == repository {
                break;
            }
        }
    }
    for project in projects {
        if let Some(common) = root.ancestors().find(|dir| project.starts_with(dir)).filter(|dir| inside(dir)) {
            root = common;
        }
    }
    root.to_path_buf()
}

/// Makes `copy` hold what `source` holds (build output folders aside), leaving out the service's own folder
/// `state` wherever it lies: a copy that held it would copy itself into itself until the disk is full.
pub fn sync(source: &Path, copy: &Path, state: &Path) -> io::Result<Synced> {
    let mut synced = Synced::default();
    sync_dir(source, copy, state, &mut synced)?;
    Ok(synced)
}

fn sync_dir(source: &Path, copy: &Path, state: &Path, synced: &mut Synced) -> io::Result<()> {
    match fs::symlink_metadata(copy) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            fs::remove_file(copy)?;
            fs::create_dir(copy)?;
        }
        Err(_) => fs::create_dir(copy)?,
    }
    let mut present: HashSet<OsString> = HashSet::new();
    for entry in fs::read_dir(source)? {
        let entry = entry?;
        let name = entry.file_name();
        let meta = entry.metadata()?;
        let (from, to) = (entry.path(), copy.join(&name));
        if meta.is_dir() && (is_output(&name) || from == state) {
            continue;
        }
        if meta.is_dir() {
            sync_dir(&from, &to, state, synced)?;
        } else if meta.is_symlink() {
            sync_link(&from, &to, synced)?;
        } else if meta.is_file() {
            sync_file(&from, &meta, &to, synced)?;
        } else {
            continue;
        }
        present.insert(name);
    }
    for entry in fs::read_dir(copy)? {
        let entry = entry?;
        let name = entry.file_name();
        let meta = entry.metadata()?;
        if present.contains(&name) || (meta.is_dir() && is_output(&name)) {
            continue;
        }
        remove(&entry.path(), &meta)?;
        synced.removed += 1;
        synced.restore_inputs |= meta.is_dir() || restore_reads(&name);
    }
    Ok(())
}

/// Removes what is at `path` in the copy, a folder with all it holds (`meta` read without following a link).
fn remove(path: &Path, meta: &Metadata) -> io::Result<()> {
    if meta.is_dir() { fs::remove_dir_all(path) } else { fs::remove_file(path) }
}

fn is_output(name: &OsString) -> bool {
    NOT_SOURCES.iter().any(|n| name == *n)
}

fn sync_file(from: &Path, meta: &Metadata, to: &Path, synced: &mut Synced) -> io::Result<()> {
    synced.files += 1;
    let modified = meta.modified()?;
    if let Ok(old) = fs::symlink_metadata(to) {
        if old.is_file() && old.len() == meta.len() && old.modified().ok() == Some(modified) {
            return Ok(());
        }
        remove(to, &old)?;
    }
    fs::copy(from, to)?;
    fs::File::options().write(true).open(to)?.set_modified(modified)?;
    synced.copied += 1;
    synced.restore_inputs |= from.file_name().is_some_and(restore_reads);
    Ok(())
}

/// A link stays a link: a relative one reaches the same file in the copy, an absolute one the same file as
/// in the repository.
fn sync_link(from: &Path, to: &Path, synced: &mut Synced) -> io::Result<()> {
    synced.files += 1;
    let target = fs::read_link(from)?;
    if let Ok(old) = fs::symlink_metadata(to) {
        if old.is_symlink() && fs::read_link(to).ok().as_ref() == Some(&target) {
            return Ok(());
        }
        remove(to, &old)?;
    }
    std::os::unix::fs::symlink(&target, to)?;
    synced.copied += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().expect("test files")).expect("test files");
        fs::write(path, text).expect("test files");
    }

    #[test]
    fn the_copy_follows_the_source_and_keeps_its_own_build_output() {
        let dir = tempfile::tempdir().expect("test files");
        let (source, copy) = (dir.path().join("repo"), dir.path().join("copy"));
        let state = source.join("state");
        write(&source.join("src/A.cs"), "class A {}");
        write(&source.join("src/Data/spec.md"), "# spec");
        write(&source.join("src/bin/Debug/user.dll"), "the user's build");
        write(&source.join(".git/HEAD"), "ref");
        std::os::unix::fs::symlink("Data/spec.md", source.join("src/linked.md")).expect("test files");

        // The service's own folder, inside the repository here, is never copied.
        write(&state.join("test-runs/x/tree/big.bin"), "a run's copy");
        let first = sync(&source, &copy, &state).expect("test files");
        assert!(!copy.join("state").exists(), "the service's state folder was copied");
        assert_eq!(first, Synced { files: 3, copied: 3, removed: 0, restore_inputs: false });
        assert_eq!(fs::read_to_string(copy.join("src/linked.md")).expect("test files"), "# spec");
        assert!(!copy.join("src/bin").exists() && !copy.join(".git").exists());
        let times = |p: &Path| fs::metadata(p).expect("test files").modified().expect("test files");
        assert_eq!(times(&copy.join("src/A.cs")), times(&source.join("src/A.cs")));

        // The copy's own build output stays; a changed file is copied again, a removed one goes.
        write(&copy.join("src/obj/A.dll"), "the copy's build");
        write(&source.join("src/A.cs"), "class A { int changed; }");
        fs::remove_file(source.join("src/Data/spec.md")).expect("test files");
        let second = sync(&source, &copy, &state).expect("test files");
        assert_eq!((second.copied, second.removed, second.restore_inputs), (1, 1, false), "{second:?}");
        assert_eq!(fs::read_to_string(copy.join("src/A.cs")).expect("test files"), "class A { int changed; }");
        assert!(copy.join("src/obj/A.dll").exists() && !copy.join("src/Data/spec.md").exists());

        assert_eq!(
            sync(&source, &copy, &state).expect("test files"),
            Synced { files: 2, copied: 0, removed: 0, restore_inputs: false }
        );

        // A project file, a package source or a whole folder: the next build restores.
        write(&source.join("src/A.csproj"), "<Project />");
        assert!(sync(&source, &copy, &state).expect("test files").restore_inputs);
        write(&source.join("NuGet.Config"), "<configuration />");
        assert!(sync(&source, &copy, &state).expect("test files").restore_inputs);
        fs::remove_dir_all(source.join("src/Data")).expect("test files");
        assert!(sync(&source, &copy, &state).expect("test files").restore_inputs);
        write(&source.join("src/B.cs"), "class B {}");
        assert!(!sync(&source, &copy, &state).expect("test files").restore_inputs);
    }

    #[test]
    fn the_copy_starts_where_the_build_reads_from_within_the_repository() {
        let dir = tempfile::tempdir().expect("test files");
        let (repo, solution) = (dir.path().join("home/repo"), dir.path().join("home/repo/src"));
        fs::create_dir_all(&solution).expect("test files");
        let none: [&Path; 0] = [];
        let anywhere = |_: &Path| true;
        // Outside a repository: the solution's folder, and what its test projects need.
        write(&dir.path().join("home/.editorconfig"), "root = true");
        assert_eq!(source_root(&solution, none, anywhere), solution);
        let outside = dir.path().join("home/repo/tests/T.csproj");
        assert_eq!(source_root(&solution, [outside.as_path()], anywhere), repo);
        // In a repository (here the whole home folder): up to the topmost folder with a build file in it.
        fs::create_dir(dir.path().join("home/.git")).expect("test files");
        fs::remove_file(dir.path().join("home/.editorconfig")).expect("test files");
        assert_eq!(source_root(&solution, none, anywhere), solution);
        write(&repo.join("Directory.Build.props"), "<Project />");
        assert_eq!(source_root(&solution, none, anywhere), repo);
    }

    #[test]
    fn the_copy_never_climbs_above_the_roots() {
        let dir = tempfile::tempdir().expect("test files");
        let (home, solution) = (dir.path().join("home"), dir.path().join("home/ws/acme"));
        fs::create_dir_all(&solution).expect("test files");
        fs::create_dir(home.join(".git")).expect("test files");
        write(&home.join("Directory.Build.props"), "<Project />");
        let roots = |path: &Path| path.starts_with(&solution);
        // Neither the build file above the roots nor a test project listed from elsewhere widens the copy.
        let elsewhere = dir.path().join("home/shared/X.Tests/X.Tests.csproj");
        assert_eq!(source_root(&solution, [elsewhere.as_path()], roots), solution);
        let inside = solution.join("tests/A.Tests/A.Tests.csproj");
        assert_eq!(source_root(&solution, [inside.as_path()], roots), solution);
    }
}
