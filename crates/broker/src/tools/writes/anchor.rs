//! Where a replayed request points: a request that names a place (a rename's position, a move's declaration
//! line) names it in the text its plan was computed from; on a newer text of that file the place moves with
//! the lines inserted or removed above it. A place whose own line changed is gone.

use protocol::host::{DeleteTarget, RequestBody};
use similar::{Algorithm, DiffOp, capture_diff_slices};

/// The file and the 1-based line a request points at, to move.
pub fn of(body: &mut RequestBody) -> Option<(&str, &mut u32)> {
    match body {
        RequestBody::PlanRename(r) => Some((&r.position.file, &mut r.position.line)),
        RequestBody::PlanChangeSignature(r) => Some((&r.position.file, &mut r.position.line)),
        RequestBody::PlanSafeDelete(r) => match &mut r.target {
            DeleteTarget::Symbol(position) => Some((&position.file, &mut position.line)),
            DeleteTarget::File(_) => None,
        },
        RequestBody::PlanMove(r) => r.line.as_mut().map(|line| (r.source_file.as_str(), line)),
        _ => None,
    }
}

/// `line` of `before` in `after`: shifted by what was inserted or removed above it; none when the line
/// itself changed.
pub fn moved(before: &str, after: &str, line: u32) -> Option<u32> {
    let (old, new): (Vec<&str>, Vec<&str>) = (before.split('\n').collect(), after.split('\n').collect());
    let at = usize::try_from(line).ok()?.checked_sub(1)?;
    for op in capture_diff_slices(Algorithm::Myers, &old, &new) {
        if let DiffOp::Equal { old_index, new_index, len } = op
            && (old_index..old_index + len).contains(&at)
        {
            return u32::try_from(new_index + (at - old_index) + 1).ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_moves_with_the_lines_above_it_and_is_gone_when_its_line_changed() {
        let before = "a\nb\nc\nd\n";
        assert_eq!(moved(before, "x\ny\na\nb\nc\nd\n", 3), Some(5));
        assert_eq!(moved(before, "a\nc\nd\n", 4), Some(3));
        assert_eq!(moved(before, "a\nb\nC\nd\n", 3), None);
        assert_eq!(moved(before, before, 0), None);
    }
}
