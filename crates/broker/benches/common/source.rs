//! Places in a checkout's sources, found by text so that a bench names what it measures, not a line number.

use std::path::Path;

/// 1-based line and column of `name` on the first line holding `needle`.
pub fn position_of(file: &Path, needle: &str, name: &str) -> (u32, u32) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let (index, line) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).expect("the declaring line");
    let column = line.find(needle).and_then(|at| line[at..].find(name).map(|n| at + n)).expect("the name");
    (index as u32 + 1, line[..column].encode_utf16().count() as u32 + 1)
}
