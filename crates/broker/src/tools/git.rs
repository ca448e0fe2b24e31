//! A git revision's view of the solution's `.cs` files: the lines that differ from it (find_tests'
//! `changedSince`) and its files' texts (compare_public_api's `since`), read from git itself, with nothing of
//! the repository's configuration that runs a program (external diff, text conversion, file-system monitor)
//! and no lock taken.

use protocol::host::LineRange;
use protocol::{ErrorCode, ToolError};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// Changed lines per file (absolute path) between `revision` and the files on disk under `folder`'s
/// repository: modified tracked files by their hunks, untracked ones whole.
pub async fn changed_lines(
    folder: &Path,
    revision: &str,
    limit: Duration,
) -> Result<Vec<(PathBuf, Vec<LineRange>)>, ToolError> {
    let (top, commit) = commit_of(folder, revision, "changedSince", limit).await?;
    let commit = commit.as_str();
    let diff = git(
        &top,
        &["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "-U0", commit, "--", "*.cs"],
        limit,
    )
    .await?;
    let mut changed = hunks(&top, &diff);
    let untracked = git(&top, &["ls-files", "-z", "--others", "--exclude-standard", "--", "*.cs"], limit).await?;
    for path in untracked.split('\0').filter(|p| !p.is_empty()) {
        changed.push((top.join(path), vec![LineRange { start_line: 1, end_line: u32::MAX }]));
    }
    Ok(changed)
}

/// The commit `revision` names, and the repository's top folder; the field names the argument in a refusal.
async fn commit_of(
    folder: &Path,
    revision: &str,
    field: &str,
    limit: Duration,
) -> Result<(PathBuf, String), ToolError> {
    if revision.starts_with('-') || revision.chars().any(char::is_control) {
        return Err(not_found(field, revision, "a revision does not start with '-' or hold control characters"));
    }
    let top = git(folder, &["rev-parse", "--show-toplevel"], limit)
        .await
        .map_err(|e| not_found(field, revision, &format!("{} is not in a git repository: {e}", folder.display())))?;
    let top = PathBuf::from(top.trim_end_matches('\n'));
    let commit =
        git(&top, &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{revision}^{{commit}}")], limit)
            .await
            .map_err(|_| not_found(field, revision, "git knows no commit of that name"))?;
    Ok((top, commit.trim().to_owned()))
}

/// The `.cs` files under `folder` as `revision` has them, where they would be in the working tree (build
/// output folders `bin` and `obj` left out), and the commit.
pub async fn files_at(
    folder: &Path,
    revision: &str,
    field: &str,
    limit: Duration,
) -> Result<(String, Vec<(PathBuf, String)>), ToolError> {
    let (top, commit) = commit_of(folder, revision, field, limit).await?;
    let relative = folder.strip_prefix(&top).unwrap_or(Path::new("")).to_string_lossy().into_owned();
    let pathspec = if relative.is_empty() { ".".to_owned() } else { relative };
    let listed = git(&top, &["ls-tree", "-r", "-z", "--name-only", &commit, "--", &pathspec], limit).await?;
    let paths: Vec<&str> =
        listed.split('\0').filter(|p| p.ends_with(".cs") && !p.split('/').any(|s| s == "bin" || s == "obj")).collect();
    // One git for every file: its objects by name, one per line.
    let names: String = paths.iter().map(|path| format!("{commit}:{path}\n")).collect();
    let output = run(&top, &["cat-file", "--batch"], Some(names.into_bytes()), limit).await?;
    let texts = blobs(&output).filter(|texts| texts.len() == paths.len()).ok_or_else(|| {
        ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("git cat-file gave no text for every file of {commit}"))
    })?;
    Ok((commit, paths.iter().map(|path| top.join(path)).zip(texts).collect()))
}

/// The new side's ranges of a `-U0` diff, per file; a deleted file has none to give.
fn hunks(top: &Path, diff: &str) -> Vec<(PathBuf, Vec<LineRange>)> {
    let mut files: Vec<(PathBuf, Vec<LineRange>)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in diff.lines() {
        if let Some(path) = line.strip_prefix("+++ ") {
            current = path.strip_prefix("b/").map(|path| {
                files.push((top.join(path), Vec::new()));
                files.len() - 1
            });
        } else if let (Some(at), Some(range)) = (current, line.strip_prefix("@@ ").and_then(new_side)) {
            files[at].1.push(range);
        }
    }
    files.retain(|(_, ranges)| !ranges.is_empty());
    files
}

/// `-a,b +c,d @@`: lines c..c+d-1, or for `d = 0` the removal after line c.
fn new_side(header: &str) -> Option<LineRange> {
    let new = header.split(' ').find_map(|part| part.strip_prefix('+'))?;
    let (start, count) = match new.split_once(',') {
        Some((start, count)) => (start.parse::<u32>().ok()?, count.parse::<u32>().ok()?),
        None => (new.parse::<u32>().ok()?, 1),
    };
    Some(if count == 0 {
        LineRange { start_line: start + 1, end_line: start }
    } else {
        LineRange { start_line: start, end_line: start + count - 1 }
    })
}

async fn git(dir: &Path, args: &[&str], limit: Duration) -> Result<String, ToolError> {
    String::from_utf8(run(dir, args, None, limit).await?).map_err(|_| {
        ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("git {} wrote a path that is not UTF-8", args[0]))
    })
}

/// Runs git with `input` on its standard input (written while its output is read, so that neither pipe fills).
async fn run(dir: &Path, args: &[&str], input: Option<Vec<u8>>, limit: Duration) -> Result<Vec<u8>, ToolError> {
    let mut command = tokio::process::Command::new("git");
    command
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.quotePath=false", "-c", "core.fsmonitor=false"])
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let work = async {
        let mut child = command.spawn()?;
        if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
            tokio::spawn(async move {
                use tokio::io::AsyncWriteExt;
                let _ = stdin.write_all(&bytes).await;
            });
        }
        child.wait_with_output().await
    };
    let output = match tokio::time::timeout(limit, work).await {
        Err(_) => {
            return Err(ToolError::new(ErrorCode::TIMEOUT, format!("git {} took longer than {limit:?}", args[0])));
        }
        Ok(Err(e)) => {
            return Err(ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("cannot run git: {e}"))
                .suggest("Revisions are read with git: it must be on the service's PATH"));
        }
        Ok(Ok(output)) => output,
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(ToolError::new(
            ErrorCode::FILESYSTEM_ERROR,
            format!("git {} failed: {}", args[0], stderr.lines().next().unwrap_or("no message")),
        ));
    }
    Ok(output.stdout)
}

/// The texts of `cat-file --batch` output, in the order asked: `<oid> blob <size>`, the bytes, a line break.
fn blobs(mut output: &[u8]) -> Option<Vec<String>> {
    let mut texts = Vec::new();
    while !output.is_empty() {
        let end = output.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&output[..end]).ok()?;
        let size: usize = header.rsplit(' ').next()?.parse().ok()?;
        let body = output.get(end + 1..end + 1 + size)?;
        texts.push(String::from_utf8_lossy(body).into_owned());
        output = output.get(end + 2 + size..).unwrap_or_default();
    }
    Some(texts)
}

fn not_found(field: &str, revision: &str, why: &str) -> ToolError {
    ToolError::new(ErrorCode::REVISION_NOT_FOUND, format!("No revision '{revision}': {why}"))
        .detail(field, revision)
        .suggest("Pass a branch, tag or commit of the solution's repository (HEAD, main, HEAD~1, a commit id)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_of_blobs_gives_each_text_whole_line_breaks_and_all() {
        let output = b"1111 blob 6\nclass\n\n2222 blob 0\n\n3333 blob 3\na\nb\n";
        assert_eq!(blobs(output), Some(vec!["class\n".to_owned(), String::new(), "a\nb".to_owned()]));
        assert_eq!(blobs(b"1111 blob 9\nshort\n"), None, "a cut output is no answer");
    }

    #[test]
    fn hunks_give_the_new_sides_lines_and_removals() {
        let diff = "diff --git a/src/A.cs b/src/A.cs\n--- a/src/A.cs\n+++ b/src/A.cs\n@@ -3,2 +3,3 @@ class A\n-x\n+y\n\
                    @@ -10 +11,0 @@\n-gone\n@@ -20,0 +21 @@\n+new\ndiff --git a/B.cs b/B.cs\n--- a/B.cs\n+++ /dev/null\n\
                    @@ -1,4 +0,0 @@\n";
        let files = hunks(Path::new("/repo"), diff);
        assert_eq!(
            files,
            vec![(
                PathBuf::from("/repo/src/A.cs"),
                vec![
                    LineRange { start_line: 3, end_line: 5 },
                    LineRange { start_line: 12, end_line: 11 },
                    LineRange { start_line: 21, end_line: 21 },
                ]
            )]
        );
    }
}
