//! What a write did to each file, before and after: what the history keeps to undo or redo it.

use std::path::PathBuf;

/// One side of a file in an operation: its bytes and mode, or nothing when it did not exist.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    pub bytes: Vec<u8>,
    pub mode: u32,
}

/// A file an operation touched.
#[derive(Debug, Clone)]
pub struct FileRecord {
    pub path: PathBuf,
    pub before: Option<Content>,
    pub after: Option<Content>,
}
