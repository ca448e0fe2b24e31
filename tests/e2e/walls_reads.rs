//! Reads never return what lies outside the roots, and the service's private folders cannot be
//! prepared by someone else. Each test is the attack it prevents: a `.cs` symlink (to a file with a type,
//! and to /etc/passwd) or a linked folder inside a project; a socket folder another user made first in a
//! shared temporary folder; a state folder that is a symlink or another user's.

use crate::support::other_user::OtherUser;
use crate::support::{Fixture, Server, diagnostics, eventually};
use serde_json::{Value, json};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A folder outside every root, with a type the project can see only through a symlink.
struct Outside {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Outside {
    fn new() -> Self {
        let dir = tempfile::Builder::new().prefix("rmcp-outside-").tempdir().expect("outside folder");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        std::fs::write(
            root.join("Secret.cs"),
            "namespace Broken;\n\npublic class OutsideSecret\n{\n    public void Leak() { int unusedOutside; }\n}\n",
        )
        .expect("Secret.cs");
        Self { _dir: dir, root }
    }
}

/// The Broken fixture (one error, one warning of its own) with a file that uses the outside type.
fn project_using_the_outside_type() -> Fixture {
    let broken = Fixture::copy("Broken");
    std::fs::write(
        broken.path("User.cs"),
        "namespace Broken;\n\npublic class User\n{\n    public void Run() => new OutsideSecret().Leak();\n}\n",
    )
    .expect("User.cs");
    broken
}

/// Nothing of the outside files in an answer: not their paths, not their text, not their diagnostics.
fn assert_nothing_outside(answer: &Value, outside: &Path, what: &str) {
    let text = answer.to_string();
    let leaks = ["Evil.cs", "Linked.cs", "Vendor/", "Secret.cs", "class OutsideSecret", "unusedOutside"];
    for leak in leaks.map(str::to_owned).into_iter().chain([outside.display().to_string()]) {
        assert!(!text.contains(&leak), "{what} returned {leak:?} from outside the roots: {answer}");
    }
    for word in ["passwd", "nologin", "bash"] {
        assert!(!text.contains(word), "{what} returned words of /etc/passwd ({word}): {answer}");
    }
}

/// The reads an agent would make, each checked to return nothing of the outside files and to count what
/// it left out. `links` are the paths inside the project that lead outside (the first to the outside type).
async fn reads_stay_inside(broken: &Fixture, outside: &Path, links: &[PathBuf]) {
    let server = Server::start(&broken.root, &[]).await;

    let found = server.ok("search_symbols", json!({"query": "OutsideSecret"})).await;
    assert_nothing_outside(&found, outside, "search_symbols");
    assert_eq!(found["symbols"], json!([]), "{found}");
    assert_eq!(found["omittedOutsideRoots"], json!(1), "the outside declaration is counted: {found}");

    let user = broken.file("User.cs");
    let (line, column) = broken.position_of("User.cs", "Leak", 0);
    let args = json!({"filePath": user, "line": line, "column": column, "includeDeclaration": true});
    let references = server.ok("find_references", args).await;
    assert_nothing_outside(&references, outside, "find_references");
    let files: Vec<&str> = references["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| r["filePath"].as_str().expect("filePath"))
        .collect();
    assert_eq!(files, vec![user.as_str()], "only the use inside remains: {references}");
    assert_eq!(references["omittedOutsideRoots"], json!(1), "{references}");

    let (line, column) = broken.position_of("User.cs", "OutsideSecret", 0);
    let definition =
        server.ok("find_symbol_definition", json!({"filePath": user, "line": line, "column": column})).await;
    assert_nothing_outside(&definition, outside, "find_symbol_definition");
    assert_eq!(definition["locations"], json!([]), "{definition}");
    assert_eq!(definition["omittedOutsideRoots"], json!(1), "{definition}");

    for link in links {
        let error = server.fails("get_document_symbols", json!({"filePath": link}), "SOURCE_NOT_IN_WORKSPACE").await;
        assert_eq!(error["details"]["workspaceRoots"], json!([broken.root]), "{error}");
    }

    for scope in [json!({"solutionPath": broken.file("Broken.csproj")}), json!({"project": "Broken"})] {
        let answer = server.ok("get_compilation_diagnostics", scope.clone()).await;
        assert_nothing_outside(&answer, outside, "get_compilation_diagnostics");
        let found = diagnostics(&answer);
        let codes: Vec<(&str, &str)> = found
            .as_array()
            .expect("diagnostics")
            .iter()
            .map(|d| (d["code"].as_str().expect("code"), d["location"]["filePath"].as_str().expect("filePath")))
            .collect();
        let own = broken.file("Broken.cs");
        assert_eq!(codes, vec![("CS0168", own.as_str()), ("CS0029", own.as_str())], "only the project's own: {answer}");
        assert_eq!((answer["errorCount"].clone(), answer["warningCount"].clone()), (json!(1), json!(1)), "{answer}");
        let omitted = answer["omittedOutsideRoots"].as_u64().expect("omittedOutsideRoots");
        assert!(omitted >= links.len() as u64, "each linked file's diagnostics are counted ({scope}): {answer}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn cs_symlinks_to_files_outside_the_roots_return_nothing() {
    let outside = Outside::new();
    let broken = project_using_the_outside_type();
    let links = [broken.path("Linked.cs"), broken.path("Evil.cs")];
    std::os::unix::fs::symlink(outside.root.join("Secret.cs"), &links[0]).expect("Linked.cs -> Secret.cs");
    std::os::unix::fs::symlink("/etc/passwd", &links[1]).expect("Evil.cs -> /etc/passwd");
    reads_stay_inside(&broken, &outside.root, &links).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_linked_folder_pointing_outside_the_roots_returns_nothing() {
    let outside = Outside::new();
    let broken = project_using_the_outside_type();
    std::os::unix::fs::symlink(&outside.root, broken.path("Vendor")).expect("Vendor -> outside");
    reads_stay_inside(&broken, &outside.root, &[broken.path("Vendor/Secret.cs")]).await;
}

/// Owner, mode and entries of a folder: what "untouched" compares.
fn state_of(dir: &Path) -> (u32, u32, Vec<String>) {
    let metadata = std::fs::symlink_metadata(dir).expect("folder");
    let mut names: Vec<String> =
        std::fs::read_dir(dir).expect("entries").flatten().map(|e| e.file_name().to_string_lossy().into()).collect();
    names.sort();
    (metadata.uid(), metadata.mode() & 0o7777, names)
}

/// A world-writable, sticky temporary folder, like /tmp, that only this test uses.
fn shared_tmp() -> tempfile::TempDir {
    let tmp = tempfile::Builder::new().prefix("rmcp-tmp-").tempdir().expect("shared tmp");
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o1777)).expect("chmod 1777");
    tmp
}

#[tokio::test(flavor = "multi_thread")]
async fn a_socket_folder_another_user_prepared_is_never_used() {
    let Some(nobody) = OtherUser::new() else { return };
    let tmp = shared_tmp();
    // The name the service used to pick for its host sockets when XDG_RUNTIME_DIR is unset.
    let theirs = tmp.path().join("roslyn-mcp-0");
    nobody.run(&["mkdir", "-m", "0777", &theirs.display().to_string()]);
    nobody.run(&["touch", &theirs.join("planted").display().to_string()]);
    let before = state_of(&theirs);

    let alpha = Fixture::copy("tiny/Alpha");
    let tmp_dir = tmp.path().display().to_string();
    let server = Server::start_with_env(&alpha.root, &[("TMPDIR", &tmp_dir), ("XDG_RUNTIME_DIR", "")]).await;
    let found = server.ok("search_symbols", json!({"query": "AlphaThing"})).await;
    assert_eq!(found["totalCount"], json!(1), "the host started and answered: {found}");

    assert_eq!(state_of(&theirs), before, "the other user's folder is untouched");
    // The next spare host may be starting, its folder still there until it connects.
    let ours = || state_of(tmp.path()).2.into_iter().filter(|n| n.starts_with("roslyn-mcp-")).collect::<Vec<String>>();
    let gone = eventually(Duration::from_secs(60), || async { (ours() == ["roslyn-mcp-0"]).then_some(()) }).await;
    assert!(gone.is_some(), "a host's socket folder is still there after it connected: {:?}", ours());
    server.stop().await;
}

/// A spare host rehearses a load on a project of its own in the temporary folder; MSBuild
/// imports a `Directory.Build.props` from any folder above a project, and another user may put one in a
/// shared temporary folder: its targets must never run.
#[tokio::test(flavor = "multi_thread")]
async fn build_files_another_user_plants_in_the_temporary_folder_never_run() {
    let Some(nobody) = OtherUser::new() else { return };
    let tmp = shared_tmp();
    let ran = tmp.path().join("planted-target-ran");
    let props = format!(
        "<Project InitialTargets=\"Planted\"><Target Name=\"Planted\"><WriteLinesToFile File=\"{}\" Lines=\"ran\" /></Target></Project>",
        ran.display()
    );
    for planted in ["Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props"] {
        let path = tmp.path().join(planted).display().to_string();
        nobody.run(&["sh", "-c", &format!("printf '%s' '{props}' > {path}")]);
    }

    let alpha = Fixture::copy("tiny/Alpha");
    let tmp_dir = tmp.path().display().to_string();
    // The spare host's rehearsal is the load that builds in the temporary folder.
    let server = Server::start_with_env(&alpha.root, &[("TMPDIR", &tmp_dir), ("ROSLYN_MCP_SPARE_HOST", "true")]).await;
    assert!(server.logs("load rehearsed", Duration::from_secs(120)).await, "the spare host never rehearsed a load");
    assert!(!ran.exists(), "a target another user planted ran in the service's build host");
    server.stop().await;
}

/// `roslyn-mcp serve` (the daemon) and `roslyn-mcp stdio` (a bridge, which would connect to the socket in
/// the state folder) on `state`: each must exit with an error naming the folder; their logs.
async fn refused(state: &Path) -> String {
    let mut logs = String::new();
    for command in ["serve", "stdio"] {
        logs += &exits_with_an_error(command, state).await;
    }
    logs
}

async fn exits_with_an_error(command: &str, state: &Path) -> String {
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"))
        .arg(command)
        .stdin(std::process::Stdio::null())
        .env("ROSLYN_MCP_STATE_DIR", state)
        .env("ROSLYN_MCP_HTTP", "127.0.0.1:0")
        .env("ROSLYN_MCP_LOG", "info")
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(60), run).await.expect("serve exits").expect("serve ran");
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{command} must refuse {}: {log}", state.display());
    assert!(log.contains(&state.display().to_string()), "{command}: the message names the folder: {log}");
    log
}

#[tokio::test(flavor = "multi_thread")]
async fn a_state_folder_that_is_a_symlink_or_another_users_is_refused() {
    let base = tempfile::Builder::new().prefix("rmcp-state-").tempdir().expect("base");
    let real = base.path().join("real");
    std::fs::create_dir(&real).expect("real");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let link = base.path().join("link");
    std::os::unix::fs::symlink(&real, &link).expect("link -> real");
    let log = refused(&link).await;
    assert_eq!(log.matches("is a symbolic link").count(), 2, "{log}");
    assert_eq!(state_of(&real).2, Vec::<String>::new(), "nothing is created through the link");

    let Some(nobody) = OtherUser::new() else { return };
    std::fs::set_permissions(base.path(), std::fs::Permissions::from_mode(0o1777)).expect("shared like /tmp");
    let theirs = base.path().join("theirs");
    nobody.run(&["mkdir", "-m", "0777", &theirs.display().to_string()]);
    let before = state_of(&theirs);
    let log = refused(&theirs).await;
    assert_eq!(log.matches("is owned by uid 65534").count(), 2, "{log}");
    assert_eq!(state_of(&theirs), before, "their folder is untouched: no run folder, same mode");
}
