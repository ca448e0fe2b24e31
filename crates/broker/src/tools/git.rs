//! A git revision's view of the solution's `.cs` files: the lines that differ from it (find_tests'
//! `changedSince`) and its files' texts (compare_public_api's `since`). Git lists the revision's files and
//! gives their bytes by object id; the files on disk are read and compared here, never by git, which would
//! run what the repository's configuration names (clean filters, external diff, text conversion,
//! file-system monitor). No lock is taken and no object is fetched from elsewhere.

use super::changes;
use crate::offload;
use protocol::host::LineRange;
use protocol::{ErrorCode, ToolError};
use sha1::Digest;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// Changed lines per file (absolute path) between `revision` and the `.cs` files on disk under `folders`
/// (the first one's repository; build output folders `bin` and `obj` left out): edited files by the lines of
/// their text now, files the revision lacks (untracked or only staged) whole, deleted ones not at all.
pub async fn changed_lines(
    folders: &[PathBuf],
    revision: &str,
    limit: Duration,
) -> Result<Vec<(PathBuf, Vec<LineRange>)>, ToolError> {
    let first = folders.first().map_or(Path::new("/"), PathBuf::as_path);
    let (top, commit) = commit_of(first, revision, "changedSince", limit).await?;
    let pathspecs: Vec<String> = folders.iter().map(|folder| pathspec(folder, &top)).collect();
    let then: HashMap<String, String> = tree_files(&top, &commit, &pathspecs, limit).await?.into_iter().collect();
    let mut ls_files = vec!["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"];
    ls_files.extend(pathspecs.iter().map(String::as_str));
    let listed = git(&top, &ls_files, limit).await?;
    let now: BTreeSet<&str> = listed.split('\0').filter(|path| is_source(path)).collect();
    // Every file on disk is read, off the async workers; only those whose bytes are not the revision's blob
    // are asked of git and compared.
    let mut changed = Vec::new();
    let (mut edited, mut texts_now) = (Vec::new(), Vec::new());
    offload::cpu(|| {
        for path in now {
            match (on_disk(&top.join(path)), then.get(path)) {
                (Disk::Gone, _) => {}
                (Disk::File(bytes), Some(id)) if is_blob(id, &bytes) => {}
                (Disk::File(bytes), Some(id)) => {
                    edited.push((path.to_owned(), id.clone()));
                    texts_now.push(String::from_utf8_lossy(&bytes).into_owned());
                }
                _ => changed.push((top.join(path), changes::whole())),
            }
        }
    });
    let texts_then = texts(&top, &commit, &edited, limit).await?;
    offload::cpu(|| {
        for (((path, _), now), then) in edited.iter().zip(texts_now).zip(texts_then) {
            // Line ends as git stores them: a checkout's CRLF is no change.
            let ranges = changes::changed_lines(&now.replace("\r\n", "\n"), &then.replace("\r\n", "\n"));
            if !ranges.is_empty() {
                changed.push((top.join(path), ranges));
            }
        }
    });
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
    let files = tree_files(&top, &commit, &[pathspec(folder, &top)], limit).await?;
    let texts = texts(&top, &commit, &files, limit).await?;
    Ok((commit, files.iter().map(|(path, _)| top.join(path)).zip(texts).collect()))
}

/// `folder` as a pathspec from the repository's top.
fn pathspec(folder: &Path, top: &Path) -> String {
    let relative = folder.strip_prefix(top).unwrap_or(Path::new("")).to_string_lossy().into_owned();
    if relative.is_empty() { ".".to_owned() } else { relative }
}

/// Whether a path from the top is a C# source, not build output.
fn is_source(path: &str) -> bool {
    path.ends_with(".cs") && !path.split('/').any(|s| s == "bin" || s == "obj")
}

/// The `.cs` files of `commit` under `pathspecs`: path from the top, and blob id.
async fn tree_files(
    top: &Path,
    commit: &str,
    pathspecs: &[String],
    limit: Duration,
) -> Result<Vec<(String, String)>, ToolError> {
    let mut ls_tree = vec!["ls-tree", "-r", "-z", commit, "--"];
    ls_tree.extend(pathspecs.iter().map(String::as_str));
    let listed = git(top, &ls_tree, limit).await?;
    // `<mode> <type> <id>\t<path>`, each ended by a NUL.
    Ok(listed
        .split('\0')
        .filter_map(|entry| {
            let (meta, path) = entry.split_once('\t')?;
            let mut meta = meta.split(' ');
            let (kind, id) = (meta.nth(1)?, meta.next()?);
            (kind == "blob" && is_source(path)).then(|| (path.to_owned(), id.to_owned()))
        })
        .collect())
}

/// The texts of `files` (path, blob id) of `commit`, in order, from one git asked by id: a file's name
/// never reaches git's line-by-line input.
async fn texts(
    top: &Path,
    commit: &str,
    files: &[(String, String)],
    limit: Duration,
) -> Result<Vec<String>, ToolError> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let ids: String = files.iter().map(|(_, id)| format!("{id}\n")).collect();
    let output = run(top, &["cat-file", "--batch"], Some(ids.into_bytes()), limit).await?;
    blobs(&output, files.len()).map_err(|(at, why)| {
        let path = files.get(at).map_or("", |(path, _)| path.as_str());
        ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("git cat-file gave no text for {path} of {commit}: {why}"))
            .detail("file", path)
    })
}

/// A working-tree path, never read through a link nor as anything but a plain file.
enum Disk {
    Gone,
    File(Vec<u8>),
    /// A link, a folder or a device where a file was; or a file that cannot be read.
    Other,
}

fn on_disk(path: &Path) -> Disk {
    match std::fs::symlink_metadata(path) {
        Err(_) => Disk::Gone,
        Ok(entry) if entry.is_file() => std::fs::read(path).map_or(Disk::Other, Disk::File),
        Ok(_) => Disk::Other,
    }
}

/// Whether `bytes` are the blob `id` names: the hash of `blob <length>\0` and the bytes, SHA-1 or in a
/// SHA-256 repository SHA-256.
fn is_blob(id: &str, bytes: &[u8]) -> bool {
    fn hash<D: Digest>(bytes: &[u8]) -> String {
        hex::encode(D::new().chain_update(format!("blob {}\0", bytes.len())).chain_update(bytes).finalize())
    }
    match id.len() {
        40 => hash::<sha1::Sha1>(bytes) == id,
        64 => hash::<sha2::Sha256>(bytes) == id,
        _ => false,
    }
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
        // A partial clone's missing object stays missing: fetching it would run the remote's transport.
        .env("GIT_NO_LAZY_FETCH", "1")
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

/// The texts of `cat-file --batch` output for `count` objects, in the order asked: `<id> blob <size>`, the
/// bytes, a line break. Else which answer did not parse, and why.
fn blobs(mut output: &[u8], count: usize) -> Result<Vec<String>, (usize, String)> {
    let mut texts = Vec::with_capacity(count);
    for at in 0..count {
        let end = output.iter().position(|&b| b == b'\n').ok_or((at, "git's answer stops short".to_owned()))?;
        let header = String::from_utf8_lossy(&output[..end]);
        let size = match header.split(' ').collect::<Vec<_>>()[..] {
            [_, "blob", size] => size.parse::<usize>().ok(),
            _ => None,
        };
        let body = size
            .and_then(|size| output.get(end + 1..end + 1 + size))
            .ok_or_else(|| (at, format!("git answered `{header}`, not the file's bytes")))?;
        texts.push(String::from_utf8_lossy(body).into_owned());
        output = output.get(end + 2 + body.len()..).unwrap_or_default();
    }
    Ok(texts)
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
        assert_eq!(blobs(output, 3), Ok(vec!["class\n".to_owned(), String::new(), "a\nb".to_owned()]));
        assert_eq!(blobs(b"1111 blob 9\nshort\n", 1).map_err(|(at, _)| at), Err(0), "a cut output is no answer");
        let (at, why) = blobs(b"1111 blob 1\na\nHEAD:x missing\n", 2).expect_err("no blob");
        assert_eq!(at, 1, "the answer that did not parse is named");
        assert!(why.contains("HEAD:x missing"), "{why}");
    }

    #[test]
    fn bytes_are_the_blob_whose_sha1_or_sha256_id_they_hash_to() {
        assert!(is_blob("ce013625030ba8dba906f756967f9e9ca394464a", b"hello\n"));
        assert!(is_blob("2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4", b"hello\n"));
        assert!(!is_blob("ce013625030ba8dba906f756967f9e9ca394464a", b"hello\r\n"));
        assert!(!is_blob("ce01", b"hello\n"));
    }

    fn git_in(top: &Path, args: &[&str]) {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(top)
            .args(["-c", "user.name=unit", "-c", "user.email=unit@localhost", "-c", "commit.gpgsign=false"])
            .args(args)
            .stdout(Stdio::null())
            .status()
            .expect("git runs");
        assert!(status.success(), "git {args:?}");
    }

    fn write(top: &Path, path: &str, text: &str) {
        let path = top.join(path);
        std::fs::create_dir_all(path.parent().expect("folder")).expect("folder");
        std::fs::write(path, text).expect("write");
    }

    #[tokio::test]
    async fn edited_staged_untracked_and_deleted_files_give_the_new_sides_lines_and_no_filter_runs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let top = std::fs::canonicalize(dir.path()).expect("canonical");
        let old: String = (1..=25).map(|n| format!("l{n}\n")).collect();
        for path in ["src/A.cs", "src/B.cs", "src/bin/X.cs", "other/O.cs", "src/E.cs", "lib/L.cs"] {
            write(&top, path, &old);
        }
        write(&top, "src/D.cs", "a\nb\n");
        git_in(&top, &["init", "-q"]);
        git_in(&top, &["add", "-A"]);
        git_in(&top, &["commit", "-q", "-m", "base"]);
        // Lines 3-4 become three, line 10 goes, a line comes after line 20.
        let new = old.replace("l3\nl4\n", "x3\nx4\nx5\n").replace("l10\n", "").replace("l20\n", "l20\nnew\n");
        for path in ["src/A.cs", "src/bin/X.cs", "other/O.cs", "lib/L.cs"] {
            write(&top, path, &new);
        }
        std::fs::remove_file(top.join("src/B.cs")).expect("delete");
        write(&top, "src/D.cs", "a\r\nb\r\n");
        write(&top, "src/C.cs", "untracked");
        write(&top, "src/S.cs", "staged");
        git_in(&top, &["add", "src/S.cs"]);
        // From here on, git running the repository's clean filter would leave a marker.
        let marker = top.join("filtered");
        write(&top, ".gitattributes", "*.cs filter=evil\n");
        git_in(&top, &["config", "filter.evil.clean", &format!("touch {}; cat", marker.display())]);

        let folders = [top.join("src"), top.join("lib")];
        let mut changed = changed_lines(&folders, "HEAD", Duration::from_secs(60)).await.expect("changes");
        changed.sort_by(|a, b| a.0.cmp(&b.0));
        let range = |start_line, end_line| LineRange { start_line, end_line };
        assert_eq!(
            changed,
            vec![
                (top.join("lib/L.cs"), vec![range(3, 5), range(11, 10), range(21, 21)]),
                (top.join("src/A.cs"), vec![range(3, 5), range(11, 10), range(21, 21)]),
                (top.join("src/C.cs"), changes::whole()),
                (top.join("src/S.cs"), changes::whole()),
            ]
        );
        assert!(!marker.exists(), "the repository's clean filter ran");
    }
}
