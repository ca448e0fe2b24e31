//! The 3-way text merge: a change made to a base text carried onto another version of it, word by word, when
//! the two changed different places; a place both changed differently is a conflict. A plan moved onto a newer
//! snapshot and an undo after later operations both use it.

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};
use std::time::{Duration, Instant};

/// How long one diff may take before it settles for a coarser answer (more conflicts, never a wrong merge).
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// Where the two changes met: 1-based lines of the base text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub lines: Vec<u32>,
}

/// `ours` (a change of `base`) carried onto `theirs` (another change of `base`): `theirs` with our changes made
/// where theirs left the text alone. A change both made alike counts once.
pub fn merge3(base: &str, ours: &str, theirs: &str) -> Result<String, Conflict> {
    let base_tokens = tokens(base);
    let (ours_tokens, theirs_tokens) = (tokens(ours), tokens(theirs));
    let mine = hunks(&base_tokens, &ours_tokens);
    let other = hunks(&base_tokens, &theirs_tokens);
    let mut conflicts = Vec::new();
    let mut all: Vec<&Hunk> = Vec::with_capacity(mine.len() + other.len());
    for hunk in &mine {
        match other.iter().find(|o| hunk.meets(o)) {
            Some(o) if o.start == hunk.start && o.end == hunk.end && o.with == hunk.with => {}
            Some(_) => conflicts.push(line_of(&base_tokens, hunk.start)),
            None => all.push(hunk),
        }
    }
    if !conflicts.is_empty() {
        conflicts.dedup();
        return Err(Conflict { lines: conflicts });
    }
    all.extend(other.iter());
    all.sort_by_key(|h| (h.start, h.end));
    let mut merged = String::with_capacity(theirs.len() + ours.len().saturating_sub(base.len()));
    let mut at = 0;
    for hunk in all {
        base_tokens[at..hunk.start].iter().for_each(|t| merged.push_str(t));
        hunk.with.iter().for_each(|t| merged.push_str(t));
        at = hunk.end;
    }
    base_tokens[at..].iter().for_each(|t| merged.push_str(t));
    Ok(merged)
}

/// How many places (runs of changed words) `after` differs from `before` in.
pub fn changed_places(before: &str, after: &str) -> usize {
    hunks(&tokens(before), &tokens(after)).len()
}

/// The words `after` removed from `before` or added to it.
pub fn changed_words<'a>(before: &'a str, after: &'a str) -> Vec<&'a str> {
    let (old, new) = (tokens(before), tokens(after));
    let mut words = Vec::new();
    for op in capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(Instant::now() + DIFF_DEADLINE)) {
        let (removed, added) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete { old_index, old_len, .. } => (old_index..old_index + old_len, 0..0),
            DiffOp::Insert { new_index, new_len, .. } => (0..0, new_index..new_index + new_len),
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (old_index..old_index + old_len, new_index..new_index + new_len)
            }
        };
        words.extend(old[removed].iter().chain(&new[added]).filter(|t| t.chars().next().is_some_and(is_word)));
    }
    words
}

/// The base's tokens `start..end` replaced by `with`.
struct Hunk<'a> {
    start: usize,
    end: usize,
    with: Vec<&'a str>,
}

impl Hunk<'_> {
    /// Two changes meet when their ranges overlap, or both insert at one place.
    fn meets(&self, other: &Hunk) -> bool {
        (self.start < other.end && other.start < self.end) || self.start == other.start
    }
}

fn hunks<'a>(base: &[&str], changed: &[&'a str]) -> Vec<Hunk<'a>> {
    let deadline = Instant::now() + DIFF_DEADLINE;
    let mut hunks: Vec<Hunk<'a>> = Vec::new();
    for op in capture_diff_slices_deadline(Algorithm::Myers, base, changed, Some(deadline)) {
        let (start, end, new) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete { old_index, old_len, new_index } => (old_index, old_index + old_len, new_index..new_index),
            DiffOp::Insert { old_index, new_index, new_len } => (old_index, old_index, new_index..new_index + new_len),
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (old_index, old_index + old_len, new_index..new_index + new_len)
            }
        };
        // Adjacent operations (a delete then an insert) are one change of one place.
        match hunks.last_mut() {
            Some(last) if last.end == start => {
                last.end = end;
                last.with.extend_from_slice(&changed[new]);
            }
            _ => hunks.push(Hunk { start, end, with: changed[new].to_vec() }),
        }
    }
    hunks
}

/// Words, runs of blanks, line ends and single other characters: renames of two words on one line are two
/// places, not one.
fn tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let same: fn(char) -> bool = if is_word(c) {
            is_word
        } else if c == ' ' || c == '\t' {
            |c| c == ' ' || c == '\t'
        } else {
            |_| false
        };
        let mut end = i + c.len_utf8();
        while let Some(&(j, next)) = chars.peek() {
            if !same(next) {
                break;
            }
            end = j + next.len_utf8();
            chars.next();
        }
        tokens.push(&text[i..end]);
    }
    tokens
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn line_of(tokens: &[&str], index: usize) -> u32 {
    1 + tokens[..index].iter().filter(|t| **t == "\n").count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "class Billing\n{\n    decimal Preview(PriceCalculator c) => c.Total();\n}\n";

    #[test]
    fn two_renames_of_different_words_on_one_line_merge() {
        let ours = BASE.replace("Preview", "Estimate");
        let theirs = BASE.replace("PriceCalculator", "Pricer");
        let merged = merge3(BASE, &ours, &theirs).expect("different words");
        assert_eq!(merged, BASE.replace("Preview", "Estimate").replace("PriceCalculator", "Pricer"));
    }

    #[test]
    fn the_changed_words_are_those_removed_and_added() {
        let after = BASE.replace("Preview", "Estimate");
        assert_eq!(changed_words(BASE, &after), ["Preview", "Estimate"]);
        assert!(changed_words(BASE, BASE).is_empty());
    }

    #[test]
    fn the_same_change_made_on_both_sides_counts_once() {
        let both = BASE.replace("Total", "Sum");
        assert_eq!(merge3(BASE, &both, &both).expect("alike"), both);
    }

    #[test]
    fn one_word_changed_two_ways_is_a_conflict_on_its_line() {
        let ours = BASE.replace("Preview", "Estimate");
        let theirs = BASE.replace("Preview", "Quote");
        assert_eq!(merge3(BASE, &ours, &theirs), Err(Conflict { lines: vec![3] }));
    }

    #[test]
    fn insertions_at_one_place_conflict_and_elsewhere_merge() {
        let ours = BASE.replace("{\n", "{\n    int a;\n");
        let theirs = BASE.replace("{\n", "{\n    int b;\n");
        assert!(merge3(BASE, &ours, &theirs).is_err());
        let theirs = format!("{BASE}// end\n");
        assert_eq!(merge3(BASE, &ours, &theirs).expect("apart"), format!("{ours}// end\n"));
    }
}
