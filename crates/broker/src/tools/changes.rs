//! `operationId`, `planId` and `changedSince`: the lines a write changed, would change, or that differ from a
//! revision, in the files as they are now.

use super::diff;
use protocol::host::LineRange;
use std::time::{Duration, Instant};

/// Comparing two versions of a file line by line gives up after this, as a preview's diff does.
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// The lines of `current` that differ from `other`: replaced or removed ones, and for text `other` adds, the
/// empty range where it goes.
pub fn changed_lines(current: &str, other: &str) -> Vec<LineRange> {
    let (old, new) = (diff::lines(current), diff::lines(other));
    let mut ranges = Vec::new();
    for op in diff::compare(&old, &new, Instant::now() + DIFF_DEADLINE) {
        let lines = op.old_range();
        let start = lines.start as u32 + 1;
        match op.tag() {
            similar::DiffTag::Equal => {}
            similar::DiffTag::Insert => ranges.push(LineRange { start_line: start, end_line: start - 1 }),
            similar::DiffTag::Delete | similar::DiffTag::Replace => {
                ranges.push(LineRange { start_line: start, end_line: lines.end as u32 })
            }
        }
    }
    ranges
}

/// A whole file, created by the change.
pub fn whole() -> Vec<LineRange> {
    vec![LineRange { start_line: 1, end_line: u32::MAX }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaced_removed_and_added_lines_are_named_on_the_current_side() {
        let current = "a\nb\nc\nd\ne\n";
        let other = "a\nB\nc\ne\nf\n";
        assert_eq!(
            changed_lines(current, other),
            vec![
                LineRange { start_line: 2, end_line: 2 },
                LineRange { start_line: 4, end_line: 4 },
                LineRange { start_line: 6, end_line: 5 },
            ]
        );
        assert!(changed_lines(current, current).is_empty());
    }
}
