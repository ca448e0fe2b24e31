//! A preview's unified diffs, bounded: whatever the texts, a diff costs at most a time budget of comparison
//! and a byte budget of output. Lines both texts share at the start and end are skipped in linear time;
//! the lines between are compared line by line (Myers, with a deadline after which it settles for a
//! coarser diff), or shown as one block when there are too many of them; the output stops at the budget
//! with a note of what was left out. Runs off the async threads (the caller's `spawn_blocking`).

use similar::{Algorithm, DiffOp, DiffTag};
use std::time::{Duration, Instant};

/// Lines compared one by one between the shared start and end; beyond, the changed region is one block.
const MAX_COMPARED_LINES: usize = 100_000;
/// Output of one file's diff (or a new file's content).
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// Output of every diff of one preview together.
pub const MAX_PREVIEW_BYTES: usize = 2 * 1024 * 1024;
/// Time the comparisons of one preview may take before falling back to coarser diffs.
pub const COMPARE_TIME: Duration = Duration::from_secs(2);
/// Lines of context around each change.
const CONTEXT: usize = 3;

/// What a preview's diffs may still spend.
pub struct Budget {
    deadline: Instant,
    bytes: usize,
}

impl Budget {
    pub fn new(compare: Duration, bytes: usize) -> Self {
        Self { deadline: Instant::now() + compare, bytes }
    }

    /// Bytes one more file may take.
    fn file_limit(&self) -> usize {
        self.bytes.min(MAX_FILE_BYTES)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self::new(COMPARE_TIME, MAX_PREVIEW_BYTES)
    }
}

/// A rendered text and, when it was cut, what was left out.
#[derive(Debug, PartialEq)]
pub struct Shown {
    pub text: String,
    pub cut: Option<String>,
}

/// The unified diff from `old` to `new` under `a/{name}` and `b/{name}`, within the budget.
pub fn unified(name: &str, old: &str, new: &str, budget: &mut Budget) -> Shown {
    let (old_lines, new_lines) = (lines(old), lines(new));
    let ops = compare(&old_lines, &new_lines, budget.deadline);
    let limit = budget.file_limit();
    let mut out = format!("--- a/{name}\n+++ b/{name}\n");
    let mut cut = None;
    let groups = similar::group_diff_ops(ops, CONTEXT);
    'groups: for (index, group) in groups.iter().enumerate() {
        let header = hunk_header(group);
        if out.len() + header.len() > limit {
            cut = Some(left_out(limit, &groups[index..], 0));
            break;
        }
        out.push_str(&header);
        for (at, op) in group.iter().enumerate() {
            for (shown, (tag, line)) in op_lines(op, &old_lines, &new_lines).enumerate() {
                let hint = if line.ends_with('\n') { "" } else { "\n\\ No newline at end of file\n" };
                if out.len() + 1 + line.len() + hint.len() > limit {
                    let rest = &groups[index..];
                    let skipped: usize = group[..at].iter().map(op_len).sum::<usize>() + shown;
                    cut = Some(left_out(limit, rest, skipped));
                    break 'groups;
                }
                out.push(tag);
                out.push_str(line);
                out.push_str(hint);
            }
        }
    }
    budget.bytes = budget.bytes.saturating_sub(out.len());
    Shown { text: out, cut }
}

/// A new file's whole text, within the budget: cut at a line's end.
pub fn content(text: &str, budget: &mut Budget) -> Shown {
    let limit = budget.file_limit();
    if text.len() <= limit {
        budget.bytes -= text.len();
        return Shown { text: text.to_owned(), cut: None };
    }
    let end = text[..text.floor_char_boundary(limit)].rfind('\n').map_or(0, |at| at + 1);
    budget.bytes = budget.bytes.saturating_sub(end);
    let total = text.lines().count();
    let shown = text[..end].lines().count();
    Shown {
        text: text[..end].to_owned(),
        cut: Some(format!("content cut at {}: {} of its {total} lines not shown", size(limit), total - shown)),
    }
}

/// The text's lines, each with its line ending.
pub(crate) fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The operations turning `old` into `new`: the shared start and end found in linear time, the rest
/// compared line by line unless it is too long or the deadline has passed.
pub(crate) fn compare(old: &[&str], new: &[&str], deadline: Instant) -> Vec<DiffOp> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..].iter().rev().zip(new[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    let mut ops = Vec::new();
    if prefix > 0 {
        ops.push(DiffOp::Equal { old_index: 0, new_index: 0, len: prefix });
    }
    let (old_len, new_len) = (old_end - prefix, new_end - prefix);
    if old_len + new_len <= MAX_COMPARED_LINES && Instant::now() < deadline {
        ops.extend(similar::capture_diff_deadline(
            Algorithm::Myers,
            old,
            prefix..old_end,
            new,
            prefix..new_end,
            Some(deadline),
        ));
    } else if old_len > 0 && new_len > 0 {
        ops.push(DiffOp::Replace { old_index: prefix, old_len, new_index: prefix, new_len });
    } else if old_len > 0 {
        ops.push(DiffOp::Delete { old_index: prefix, old_len, new_index: prefix });
    } else if new_len > 0 {
        ops.push(DiffOp::Insert { old_index: prefix, new_index: prefix, new_len });
    }
    if suffix > 0 {
        ops.push(DiffOp::Equal { old_index: old_end, new_index: new_end, len: suffix });
    }
    ops
}

/// `@@ -start,len +start,len @@`, as `diff -u` writes it.
fn hunk_header(group: &[DiffOp]) -> String {
    let (first, last) = (&group[0], &group[group.len() - 1]);
    let range = |start: usize, end: usize| {
        let len = end - start;
        match len {
            0 => format!("{start},0"),
            1 => format!("{}", start + 1),
            _ => format!("{},{len}", start + 1),
        }
    };
    format!(
        "@@ -{} +{} @@\n",
        range(first.old_range().start, last.old_range().end),
        range(first.new_range().start, last.new_range().end)
    )
}

/// The diff lines of one operation: context, then removed, then added.
fn op_lines<'a>(op: &DiffOp, old: &'a [&'a str], new: &'a [&'a str]) -> impl Iterator<Item = (char, &'a str)> + 'a {
    let (tag, old_range, new_range) = op.as_tag_tuple();
    let (old_tag, old_lines): (char, &[&str]) = match tag {
        DiffTag::Equal => (' ', &old[old_range]),
        DiffTag::Delete | DiffTag::Replace => ('-', &old[old_range]),
        DiffTag::Insert => ('-', &[]),
    };
    let added: &[&str] = if matches!(tag, DiffTag::Insert | DiffTag::Replace) { &new[new_range] } else { &[] };
    old_lines.iter().map(move |l| (old_tag, *l)).chain(added.iter().map(|l| ('+', *l)))
}

/// Diff lines an operation renders to.
fn op_len(op: &DiffOp) -> usize {
    match op.as_tag_tuple() {
        (DiffTag::Equal, old, _) => old.len(),
        (_, old, new) => old.len() + new.len(),
    }
}

/// The note of a diff cut at `limit`: how many of the remaining hunks' lines (less `skipped` already shown)
/// were left out.
fn left_out(limit: usize, rest: &[Vec<DiffOp>], skipped: usize) -> String {
    let lines: usize = rest.iter().flatten().map(op_len).sum::<usize>() - skipped;
    let hunks = rest.len();
    format!("diff cut at {}: {lines} more diff lines in {hunks} hunk{} not shown", size(limit), plural(hunks))
}

fn size(bytes: usize) -> String {
    if bytes >= 1024 { format!("{} KiB", bytes / 1024) } else { format!("{bytes} bytes") }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str) -> Shown {
        unified("A.cs", old, new, &mut Budget::default())
    }

    #[test]
    fn a_small_change_is_the_unified_diff_that_diff_u_writes() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\n";
        let shown = diff(old, new);
        assert_eq!(shown.text, "--- a/A.cs\n+++ b/A.cs\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n");
        assert_eq!(shown.cut, None);
        let expected = similar::TextDiff::from_lines(old, new).unified_diff().header("a/A.cs", "b/A.cs").to_string();
        assert_eq!(shown.text, expected, "the same text as before the budget");
    }

    #[test]
    fn insertions_deletions_and_a_missing_final_newline_are_marked() {
        assert_eq!(diff("", "x\n").text, "--- a/A.cs\n+++ b/A.cs\n@@ -0,0 +1 @@\n+x\n");
        assert_eq!(diff("x\ny\n", "y\n").text, "--- a/A.cs\n+++ b/A.cs\n@@ -1,2 +1 @@\n-x\n y\n");
        assert_eq!(
            diff("x\n", "x\ny").text,
            "--- a/A.cs\n+++ b/A.cs\n@@ -1 +1,2 @@\n x\n+y\n\\ No newline at end of file\n"
        );
        assert_eq!(diff("same\n", "same\n").text, "--- a/A.cs\n+++ b/A.cs\n");
    }

    #[test]
    fn a_huge_replacement_is_cut_at_the_file_limit_with_a_note_of_what_was_left_out() {
        // A find/replace of one token by 100,000 line breaks at 20 places.
        let old: String = (0..200).map(|i| format!("    var x{i} = Foo(a, b);\n")).collect();
        let new = old.replace("Foo", &"\n".repeat(100_000));
        let shown = diff(&old, &new);
        assert!(shown.text.len() <= MAX_FILE_BYTES, "{} bytes", shown.text.len());
        let note = shown.cut.expect("cut");
        assert!(note.starts_with("diff cut at 256 KiB: "), "{note}");
        let more: usize = note.split(' ').nth(5).and_then(|n| n.parse().ok()).expect("a count");
        assert!(more > 1_900_000, "{note}");
    }

    #[test]
    fn a_preview_s_files_share_one_byte_budget() {
        let old = "a\n".repeat(10);
        let new = "b\n".repeat(5_000);
        let mut budget = Budget::new(COMPARE_TIME, 30_000);
        let first = unified("A.cs", &old, &new, &mut budget);
        assert!(first.cut.is_none(), "{:?}", first.cut);
        let second = unified("B.cs", &old, &new, &mut budget);
        assert!(second.cut.is_some());
        assert!(first.text.len() + second.text.len() <= 30_000);
        let third = unified("C.cs", &old, &new, &mut budget);
        assert_eq!(third.text, "--- a/C.cs\n+++ b/C.cs\n", "nothing is left for a third");
        assert!(third.cut.expect("cut").contains("5010 more diff lines in 1 hunk"));
    }

    #[test]
    fn past_the_deadline_the_changed_lines_are_one_block_and_still_a_correct_diff() {
        let old = "a\nb\nc\n";
        let new = "a\nx\nc\n";
        let mut spent = Budget::new(Duration::ZERO, MAX_PREVIEW_BYTES);
        let shown = unified("A.cs", old, new, &mut spent);
        assert_eq!(shown.text, "--- a/A.cs\n+++ b/A.cs\n@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n");
    }

    #[test]
    fn a_new_file_s_content_is_cut_at_a_line_end() {
        let text = "line\n".repeat(100_000);
        let shown = content(&text, &mut Budget::default());
        assert_eq!(shown.text.len(), MAX_FILE_BYTES / 5 * 5);
        assert!(shown.text.ends_with('\n'));
        let note = shown.cut.expect("cut");
        assert_eq!(
            note,
            format!("content cut at 256 KiB: {} of its 100000 lines not shown", 100_000 - MAX_FILE_BYTES / 5)
        );
    }
}
