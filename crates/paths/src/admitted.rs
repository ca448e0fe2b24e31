//! The checked path: what a gate answers, and what file operations take.

use std::fmt;
use std::path::{Path, PathBuf};

/// A path a gate of [`crate::Roots`] admitted: where it really was (its folders' links resolved) at the
/// moment of the check. Only this crate makes one:
///
/// ```compile_fail
/// let forged = paths::Admitted(std::path::PathBuf::from("/etc/passwd"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted(PathBuf);

impl Admitted {
    pub(crate) fn new(real: PathBuf) -> Self {
        Self(real)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Admitted {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl fmt::Display for Admitted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.display().fmt(f)
    }
}
