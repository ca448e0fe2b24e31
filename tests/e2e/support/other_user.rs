//! Another local user (`nobody`, uid 65534) for the attacks a shared machine allows, available when the
//! tests run as root and `setpriv` is installed; tests without it print why they skip that part.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

pub struct OtherUser {
    home: tempfile::TempDir,
}

impl OtherUser {
    pub const UID: u32 = 65534;

    /// `None` (and a printed reason) unless the tests run as root with `setpriv`.
    pub fn new() -> Option<Self> {
        if uid_of(std::process::id()) != Some(0) || !Path::new("/usr/bin/setpriv").exists() {
            println!("skipped the other-user attack: the tests do not run as root with setpriv");
            return None;
        }
        let home = tempfile::Builder::new().prefix("rmcp-u-").tempdir_in("/tmp").expect("home");
        let user = Self { home };
        user.own(user.home.path());
        Some(user)
    }

    /// Hands a file or folder to this user.
    pub fn own(&self, path: &Path) {
        std::os::unix::fs::chown(path, Some(Self::UID), Some(Self::UID)).expect("chown");
    }

    /// `program` run as this user, with a home of its own.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> tokio::process::Command {
        tokio::process::Command::from(self.std_command(program))
    }

    pub fn std_command(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let uid = Self::UID.to_string();
        let mut command = std::process::Command::new("setpriv");
        command
            .args(["--reuid", &uid, "--regid", &uid, "--clear-groups"])
            .arg(program)
            .env("HOME", self.home.path())
            .env("DOTNET_CLI_HOME", self.home.path())
            .env_remove("XDG_STATE_HOME")
            .env_remove("XDG_RUNTIME_DIR");
        command
    }

    /// Runs `args` as this user; it must succeed.
    pub fn run(&self, args: &[&str]) {
        let status = self.std_command(args[0]).args(&args[1..]).status().expect("setpriv");
        assert!(status.success(), "as uid {}: {args:?}", Self::UID);
    }
}

/// The uid a process runs as.
pub fn uid_of(pid: u32) -> Option<u32> {
    std::fs::metadata(format!("/proc/{pid}")).ok().map(|m| m.uid())
}
