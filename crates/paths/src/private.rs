//! Folders only this user can enter: host sockets, the daemon's run files, write journals.
//!
//! A folder someone else made first (a predictable name in a shared `/tmp`, say) would let its owner
//! unlink our socket and bind their own, or plant files we later trust. So every such folder is either
//! created exclusively under an unpredictable name, or checked before use: a real folder (never a
//! symlink), owned by this user, mode 0700 (tightened when it is ours but looser). The check is made on an
//! open handle of the folder (`O_NOFOLLOW`), so the folder cannot be swapped between check and chmod.

use std::fs::File;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

const PRIVATE_MODE: u32 = 0o700;

/// Creates `dir` (and missing parents, 0700) or checks the one that exists: it must be a folder of this
/// user that no one else can enter; a looser mode is tightened to 0700. Anything else is refused with an
/// error naming the folder and what is wrong with it.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", dir.display()));
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::DirBuilder::new().recursive(true).mode(PRIVATE_MODE).create(parent).map_err(named)?;
    }
    match std::fs::DirBuilder::new().mode(PRIVATE_MODE).create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(named(e)),
        _ => {}
    }
    check(dir, Mode::Tighten)
}

/// Whether `dir` is already private (a folder, not a symlink, of this user, 0700), changing nothing.
pub fn is_private_dir(dir: &Path) -> bool {
    check(dir, Mode::Require).is_ok()
}

/// A folder created exclusively, 0700, under an unpredictable name; removed with what it holds on drop.
#[derive(Debug)]
pub struct PrivateTempDir {
    path: PathBuf,
}

impl PrivateTempDir {
    /// `<base>/<prefix><random>`: `mkdir` fails rather than reuse anything already there (a symlink
    /// included), so no one can have prepared it.
    pub fn create_in(base: &Path, prefix: &str) -> io::Result<Self> {
        let path = base.join(format!("{prefix}{}", uuid::Uuid::new_v4().simple()));
        std::fs::DirBuilder::new().mode(PRIVATE_MODE).create(&path)?;
        let created = Self { path };
        check(&created.path, Mode::Tighten)?;
        Ok(created)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PrivateTempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The effective uid: the owner every private folder must have.
pub fn user_id() -> u32 {
    nix::unistd::geteuid().as_raw()
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// A looser mode of our own folder is made 0700.
    Tighten,
    /// A looser mode is refused.
    Require,
}

fn check(dir: &Path, mode: Mode) -> io::Result<()> {
    let refuse = |why: String| io::Error::new(io::ErrorKind::PermissionDenied, format!("{}: {why}", dir.display()));
    // Not `O_DIRECTORY`: a file must be told apart below, not fail with a vague ENOTDIR; `O_NONBLOCK` so
    // that a FIFO in the folder's place cannot hang us.
    let flags = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    let handle = match File::options().read(true).custom_flags(flags).open(dir) {
        Ok(handle) => handle,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(refuse("is a symbolic link; a private folder must be a real folder".into()));
        }
        Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", dir.display()))),
    };
    let metadata = handle.metadata()?;
    if !metadata.is_dir() {
        return Err(refuse("is not a folder".into()));
    }
    let me = user_id();
    if metadata.uid() != me {
        return Err(refuse(format!(
            "is owned by uid {}, not by this user (uid {me}); another user may control it",
            metadata.uid()
        )));
    }
    let bits = metadata.mode() & 0o7777;
    if bits != PRIVATE_MODE {
        if mode == Mode::Require {
            return Err(refuse(format!("has mode {bits:o}, not 700")));
        }
        handle.set_permissions(std::fs::Permissions::from_mode(PRIVATE_MODE))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode_of(path: &Path) -> u32 {
        std::fs::metadata(path).expect("metadata").mode() & 0o7777
    }

    #[test]
    fn a_new_folder_and_its_parents_are_private() {
        let base = tempfile::tempdir().expect("tempdir");
        let dir = base.path().join("state/run");
        create_private_dir(&dir).expect("created");
        assert_eq!(mode_of(&dir), 0o700);
        assert_eq!(mode_of(&base.path().join("state")), 0o700);
        assert!(is_private_dir(&dir));
    }

    #[test]
    fn a_looser_folder_of_ours_is_tightened() {
        let base = tempfile::tempdir().expect("tempdir");
        let dir = base.path().join("open");
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        assert!(!is_private_dir(&dir), "a 0777 folder is not private as it is");
        create_private_dir(&dir).expect("tightened");
        assert_eq!(mode_of(&dir), 0o700);
    }

    #[test]
    fn a_symlink_to_a_private_folder_is_refused_and_left_alone() {
        let base = tempfile::tempdir().expect("tempdir");
        let real = base.path().join("real");
        create_private_dir(&real).expect("real folder");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let link = base.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        let refused = create_private_dir(&link).expect_err("a symlink is refused").to_string();
        assert!(refused.contains(&link.display().to_string()) && refused.contains("symbolic link"), "{refused}");
        assert_eq!(mode_of(&real), 0o755, "the link's target is not touched");
        assert!(!is_private_dir(&link));
    }

    #[test]
    fn a_file_in_the_folders_place_is_refused() {
        let base = tempfile::tempdir().expect("tempdir");
        let file = base.path().join("run");
        std::fs::write(&file, "").expect("file");
        let refused = create_private_dir(&file).expect_err("a file is refused").to_string();
        assert!(refused.contains("is not a folder"), "{refused}");
    }

    #[test]
    fn a_folder_of_another_user_is_refused_untouched() {
        // Only root can make a folder another user owns.
        if user_id() != 0 {
            eprintln!("skipped: needs root to give a folder to another user");
            return;
        }
        let base = tempfile::tempdir().expect("tempdir");
        let dir = base.path().join("theirs");
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).expect("chown");
        let refused = create_private_dir(&dir).expect_err("another user's folder is refused").to_string();
        assert!(refused.contains("owned by uid 65534"), "{refused}");
        assert_eq!(mode_of(&dir), 0o777, "their folder keeps its mode");
    }

    #[test]
    fn temporary_folders_are_fresh_private_and_removed() {
        let base = tempfile::tempdir().expect("tempdir");
        let one = PrivateTempDir::create_in(base.path(), "p-").expect("one");
        let two = PrivateTempDir::create_in(base.path(), "p-").expect("two");
        assert_ne!(one.path(), two.path());
        assert_eq!(mode_of(one.path()), 0o700);
        let path = one.path().to_path_buf();
        std::fs::write(path.join("host.sock"), "").expect("a file inside");
        drop(one);
        assert!(!path.exists(), "removed on drop");
    }
}
