//! The test harness: a real `roslyn-mcp stdio` process driven by rmcp's MCP client, on a private copy
//! of a fixture solution.

#![allow(dead_code)] // each test binary module uses a different part of the harness

pub mod builds;
pub mod daemon;
pub mod haproxy;
pub mod hold;
pub mod large;
pub mod other_user;
pub mod raw_session;
pub mod restored;
pub mod schemas;
pub mod shared;
pub mod stateless;
pub mod timing;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, SemaphorePermit};

/// A private copy of `tests/fixtures/<name>` (without build output) in a temporary folder.
pub struct Fixture {
    /// The temporary folder the copy is in, removed with it; none for a copy shared for the whole run.
    _dir: Option<tempfile::TempDir>,
    pub root: PathBuf,
}

impl Fixture {
    /// A copy restored as a user's checkout is: with the restore output of the fixture, restored once per
    /// process (a fixture whose restore fails has none).
    pub fn copy(name: &str) -> Self {
        let fixture = Self::unrestored(name);
        if let Some(output) = restored::of_fixture(name) {
            output.write_into(&fixture.root);
        }
        fixture
    }

    /// A copy as the fixture is in the repository, never restored: for what the service does before a restore.
    pub fn unrestored(name: &str) -> Self {
        let fixture = Self::empty(name);
        copy_tree(&Self::source(name), &fixture.root);
        fixture
    }

    /// A temporary folder whose `root` (`<tmp>/<name>`) is not made yet: for solutions a test writes itself.
    pub fn empty(name: &str) -> Self {
        timing::touch();
        let dir = tempfile::Builder::new().prefix("roslyn-mcp-e2e-").tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical temp dir").join(name);
        Self { _dir: Some(dir), root }
    }

    /// `tests/fixtures/<name>`, the fixture as the repository has it.
    pub fn source(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
    }

    /// A copy kept for the whole run at `root` (not made yet).
    pub fn at(root: PathBuf) -> Self {
        Self { _dir: None, root }
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// The text of a file of the copy.
    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
    }

    pub fn file(&self, relative: &str) -> String {
        self.path(relative).display().to_string()
    }

    /// 1-based (line, column) of the `nth` (0-based) occurrence of `needle` in a fixture file.
    pub fn position_of(&self, relative: &str, needle: &str, nth: usize) -> (u32, u32) {
        let text = std::fs::read_to_string(self.path(relative)).expect("fixture file");
        let mut seen = 0;
        for (index, line) in text.lines().enumerate() {
            for (column, _) in line.match_indices(needle) {
                if seen == nth {
                    return (index as u32 + 1, line[..column].encode_utf16().count() as u32 + 1);
                }
                seen += 1;
            }
        }
        panic!("{needle:?} occurs fewer than {} times in {relative}", nth + 1);
    }
}

/// Copies the tree `from` to `to`, build and restore output (`bin/`, `obj/`) aside.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create fixture copy");
    for entry in std::fs::read_dir(from).expect("fixture folder").flatten() {
        let name = entry.file_name();
        let target = to.join(&name);
        if entry.path().is_dir() {
            if name != "bin" && name != "obj" {
                copy_tree(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), &target).expect("copy fixture file");
        }
    }
}

/// Services running at once: each loads solutions with MSBuild, and this machine has two cores.
pub static SLOTS: Semaphore = Semaphore::const_new(2);

/// The answer bound raised past any test's length, for a test whose client does not follow a call's job, or
/// that reads a call's progress (notified only until the call answers with its job): its calls answer as a
/// whole, however busy the machine is.
pub const ANSWER_AS_A_WHOLE: (&str, &str) = ("ROSLYN_MCP_ANSWER_WITHIN_SECS", "3600");

/// A connected MCP client (of any transport), with what tests ask of a session.
pub struct Client<H: ClientHandler = ()> {
    service: RunningService<RoleClient, H>,
    /// The log of the service that answers, named in failure messages.
    pub log: PathBuf,
}

/// A running service with a connected MCP client.
pub struct Server {
    client: Client,
    pub pid: u32,
    pub log: PathBuf,
    /// Removes the log when the test passes.
    _log: timing::ServiceLog,
    /// The service's private state folder (write journal), unless the test named one.
    _state: Option<tempfile::TempDir>,
    _slots: SemaphorePermit<'static>,
}

/// A tool result split into what tests look at.
#[derive(Debug)]
pub struct Outcome {
    pub is_error: bool,
    pub value: Value,
    /// Milliseconds the Roslyn host spent on the call, from the result's `_meta`.
    pub host_ms: f64,
    /// Milliseconds the service spent on the call (host included), from the result's `_meta`.
    pub service_ms: f64,
    /// What the solution says of itself (a generator not built), from the result's `_meta`.
    pub notices: Vec<String>,
}

/// What a test's service runs without unless the test asks: seconds of CPU each, which the tests on this
/// machine share. A spare host rehearses a load of its own as the service starts and after each load takes
/// it; a warm-up compiles every project after a load. The benches (every crate but the `e2e` test; cargo
/// builds them with `cfg(test)` too) measure the service with its warm-up.
pub fn lean() -> &'static [(&'static str, &'static str)] {
    if env!("CARGO_CRATE_NAME") == "e2e" {
        &[("ROSLYN_MCP_SPARE_HOST", "false"), ("ROSLYN_MCP_WARM_UP", "false")]
    } else {
        &[("ROSLYN_MCP_SPARE_HOST", "false")]
    }
}

impl Server {
    pub async fn start(cwd: &Path, extra: &[&str]) -> Self {
        Self::start_with_slots(cwd, extra, &[], 1).await
    }

    /// A service with extra environment variables.
    pub async fn start_with_env(cwd: &Path, env: &[(&str, &str)]) -> Self {
        Self::start_with_slots(cwd, &[], env, 1).await
    }

    /// A service that runs alone, for tests that measure latency.
    pub async fn start_alone(cwd: &Path) -> Self {
        Self::start_with_slots(cwd, &[], &[], 2).await
    }

    /// A service run by another build of roslyn-mcp, alone: a bench's baseline of the same run.
    pub async fn start_binary(binary: &Path, cwd: &Path) -> Self {
        Self::start_process(binary, cwd, &[], &[], 2).await
    }

    async fn start_with_slots(cwd: &Path, extra: &[&str], env: &[(&str, &str)], slots: u32) -> Self {
        Self::start_process(Path::new(env!("CARGO_BIN_EXE_roslyn-mcp")), cwd, extra, env, slots).await
    }

    async fn start_process(binary: &Path, cwd: &Path, extra: &[&str], env: &[(&str, &str)], slots: u32) -> Self {
        let permit = SLOTS.acquire_many(slots).await.expect("semaphore open");
        let service_log = timing::ServiceLog::create();
        let log = service_log.path.clone();
        let state = (!env.iter().any(|(k, _)| *k == "ROSLYN_MCP_STATE_DIR"))
            .then(|| tempfile::Builder::new().prefix("roslyn-mcp-state-").tempdir().expect("state dir"));
        let mut command = tokio::process::Command::new(binary);
        command.args(["stdio", "--embedded"]).args(extra).current_dir(cwd).env("ROSLYN_MCP_LOG", "info,rmcp=warn");
        command.envs(lean().iter().copied());
        if let Some(state) = &state {
            command.env("ROSLYN_MCP_STATE_DIR", state.path());
        }
        command.envs(env.iter().copied());
        let stderr = std::fs::File::create(&log).expect("log file");
        let transport = TokioChildProcess::builder(command).stderr(stderr).spawn().expect("spawn roslyn-mcp").0;
        let pid = transport.id().expect("server pid");
        let service = ().serve(transport).await.expect("MCP initialize");
        let client = Client { service, log: log.clone() };
        Self { client, pid, log, _log: service_log, _state: state, _slots: permit }
    }

    /// Closes the session, which ends the service; then checks that the service and every process of
    /// every host it ran are gone.
    pub async fn stop(self) {
        let hosts = daemon::host_pids(&self.ok("diagnose", json!({})).await);
        let pid = self.pid;
        self.client.close().await;
        let exited = eventually(Duration::from_secs(20), || async { (!alive(pid)).then_some(()) }).await;
        assert!(exited.is_some(), "the service {pid} did not exit when its session closed");
        for host in hosts {
            // SIGKILLed group members take a moment to disappear.
            let gone =
                eventually(Duration::from_secs(5), || async { group_members(host).is_empty().then_some(()) }).await;
            assert!(gone.is_some(), "host {host} left processes behind: {:?}", group_members(host));
        }
    }
}

impl std::ops::Deref for Server {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl<H: ClientHandler> Client<H> {
    pub fn new(service: RunningService<RoleClient, H>, log: PathBuf) -> Self {
        Self { service, log }
    }

    /// A call as a patient client makes it: one that answered with its job (the work outlasted the service's
    /// answer bound on a busy machine, or waited for its solution to load: LOADING) is followed with get_job to
    /// the call's own answer; so is a get_job, unless it says how long to wait (a test looking at a job).
    pub async fn call(&self, tool: &str, arguments: Value) -> Outcome {
        let patient = tool != "get_job" || arguments.get("waitSeconds").is_none();
        let mut outcome = self.call_once(tool, arguments).await;
        let job_of = |outcome: &Outcome| match outcome.is_error {
            false if outcome.value["status"] == "running" => outcome.value["jobId"].as_str().map(str::to_owned),
            true if outcome.value["error"]["code"] == "LOADING" => {
                outcome.value["error"]["details"]["jobId"].as_str().map(str::to_owned)
            }
            _ => None,
        };
        while let Some(job) = job_of(&outcome).filter(|_| patient) {
            let job = json!({"jobId": job});
            outcome = self.call_once("get_job", job).await;
            #[cfg(test)]
            schemas::check(tool, &outcome.value);
        }
        outcome
    }

    /// One call, answered as the service answers it.
    pub async fn call_once(&self, tool: &str, arguments: Value) -> Outcome {
        let Value::Object(arguments) = arguments else { panic!("arguments must be an object") };
        let result: CallToolResult = self
            .service
            .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
            .await
            .unwrap_or_else(|e| panic!("{tool}: protocol error {e}; server log: {}", self.log.display()));
        let value = result.structured_content.clone().unwrap_or_else(|| panic!("{tool}: no structuredContent"));
        let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).expect("text content");
        assert_eq!(serde_json::from_str::<Value>(&text).expect("text is JSON"), value, "{tool}: text copy differs");
        // In the tests (not the benches, whose timings it would add to).
        #[cfg(test)]
        schemas::check(tool, &value);
        let timing = result.meta.as_ref().and_then(|m| m.0.get("roslyn-mcp/timing")).expect("timing in _meta");
        let host_ms = timing["hostMs"].as_f64().expect("hostMs");
        let service_ms = timing["totalMs"].as_f64().expect("totalMs");
        assert!(host_ms <= service_ms, "{tool}: host time {host_ms} ms exceeds the call's {service_ms} ms");
        let notices: Vec<String> = result
            .meta
            .as_ref()
            .and_then(|m| m.0.get("roslyn-mcp/notices"))
            .map(|n| serde_json::from_value(n.clone()).expect("notices are strings"))
            .unwrap_or_default();
        // A model reads the content: the notices are there too, after the payload.
        if !notices.is_empty() {
            let last = result.content.last().and_then(|c| c.as_text()).map(|t| t.text.clone()).expect("notice text");
            assert!(notices.iter().all(|n| last.contains(n.as_str())), "{tool}: notices not in the content: {last}");
        }
        Outcome { is_error: result.is_error == Some(true), value, host_ms, service_ms, notices }
    }

    /// Whether the service's log comes to hold `text` within `limit`.
    pub async fn logs(&self, text: &str, limit: Duration) -> bool {
        let read = || async { std::fs::read_to_string(&self.log).ok().filter(|log| log.contains(text)).map(drop) };
        eventually(limit, read).await.is_some()
    }

    /// Diagnose's answer once the first workspace's warm-up has ended; panics past `limit`.
    pub async fn warm_up_finished(&self, limit: Duration) -> Value {
        let done = eventually(limit, || async {
            let diagnose = self.ok("diagnose", json!({})).await;
            (diagnose["workspaces"][0]["warmUp"]["phase"] == json!("done")).then_some(diagnose)
        })
        .await;
        done.expect("the warm-up did not end")
    }

    /// A call that must succeed; its structured payload.
    pub async fn ok(&self, tool: &str, arguments: Value) -> Value {
        let outcome = self.call(tool, arguments.clone()).await;
        assert!(!outcome.is_error, "{tool} {arguments} failed: {}\nserver log: {}", outcome.value, self.log.display());
        outcome.value
    }

    /// A call that must fail with `code`; its error object.
    pub async fn fails(&self, tool: &str, arguments: Value, code: &str) -> Value {
        let outcome = self.call(tool, arguments.clone()).await;
        assert!(outcome.is_error, "{tool} {arguments} should fail with {code}, got {}", outcome.value);
        assert_eq!(outcome.value["success"], json!(false));
        assert_eq!(outcome.value["error"]["code"], json!(code), "{tool} {arguments}: {}", outcome.value);
        outcome.value["error"].clone()
    }

    /// The MCP client, for requests the methods above do not send (a request cancelled mid-way).
    pub fn peer(&self) -> &rmcp::service::Peer<RoleClient> {
        self.service.peer()
    }

    pub async fn tools(&self) -> Vec<rmcp::model::Tool> {
        self.service.list_all_tools().await.expect("tools/list")
    }

    /// The workspace entry diagnose reports for `solution`.
    pub async fn workspace_status(&self, solution: &Path) -> Option<Value> {
        let diagnose = self.ok("diagnose", json!({})).await;
        diagnose["workspaces"]
            .as_array()
            .expect("workspaces")
            .iter()
            .find(|w| w["solutionPath"] == json!(solution.display().to_string()))
            .cloned()
    }

    /// Ends the session from the client's side.
    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}

/// No process mentioning the state folder (a test run's builds and test hosts) is left within 10 s.
pub async fn nothing_left_running(state: &Path) {
    let state = state.display().to_string();
    let gone = eventually(Duration::from_secs(10), || async { processes_mentioning(&state).is_empty().then_some(()) });
    assert!(gone.await.is_some(), "left running: {:?}", processes_mentioning(&state));
}

/// Calls `probe` until it returns Some or `limit` passes.
pub async fn eventually<T, F, Fut>(limit: Duration, mut probe: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let began = Instant::now();
    loop {
        if let Some(value) = probe().await {
            return Some(value);
        }
        if began.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether a process is running (a zombie counts as gone).
/// Running processes whose command line mentions `text`.
pub fn processes_mentioning(text: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.parse::<u32>().is_ok()))
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(text))
        .collect()
}

pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

/// A memory figure of a process from `/proc/<pid>/status`, in KiB: `VmRSS` (now), `VmHWM` (its peak so far).
pub fn memory_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("process status");
    let line = status.lines().find(|l| l.strip_prefix(field).is_some_and(|rest| rest.starts_with(':')));
    line.and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).expect(field)
}

pub fn kill9(pid: u32) {
    let status = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status().expect("kill");
    assert!(status.success(), "kill -9 {pid}");
}

/// Running processes whose process group is `pgid` (a host leads its own group).
pub use roslyn_host::group_members;

/// Child processes of `pid`.
pub fn children(pid: u32) -> Vec<u32> {
    let tasks =
        std::fs::read_dir(format!("/proc/{pid}/task")).map(|d| d.flatten().collect::<Vec<_>>()).unwrap_or_default();
    let mut kids = Vec::new();
    for task in tasks {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            kids.extend(text.split_whitespace().filter_map(|p| p.parse::<u32>().ok()));
        }
    }
    kids
}

/// (relative path, line, column) of each location in a list, for comparing with FIXTURE.md tables.
pub fn sites(fixture: &Fixture, items: &Value) -> Vec<(String, u64, u64)> {
    let mut sites: Vec<(String, u64, u64)> = items
        .as_array()
        .expect("list")
        .iter()
        .map(|item| {
            let path = item["filePath"].as_str().expect("filePath");
            let relative =
                Path::new(path).strip_prefix(&fixture.root).unwrap_or_else(|_| panic!("{path} outside fixture"));
            (
                relative.display().to_string(),
                item["line"].as_u64().expect("line"),
                item["column"].as_u64().expect("column"),
            )
        })
        .collect();
    sites.sort();
    sites
}

/// How many tools the service lists: those of `tests/golden/tools-list.json`, which tools_list checks.
pub fn tool_count() -> usize {
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/tools-list.json");
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(golden).expect("the golden tools list"))
        .expect("the golden tools list is JSON");
    listed["tools"].as_array().expect("tools").len()
}

/// The places find_references gives for the symbol at a position, declarations included, as sorted (file,
/// line): independent of the columns a longer or shorter name shifts.
pub async fn reference_lines(server: &Server, file: &str, line: u32, column: u32) -> Vec<(String, u64)> {
    let found = server
        .ok("find_references", json!({"filePath": file, "line": line, "column": column, "includeDeclaration": true}))
        .await;
    let mut places: Vec<_> = found["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| (r["filePath"].as_str().expect("filePath").to_owned(), r["line"].as_u64().expect("line")))
        .collect();
    places.sort();
    places
}

/// Every diagnostic of a get_compilation_diagnostics answer (one page), its file groups flattened.
pub fn diagnostics(answer: &Value) -> Value {
    let files = answer["files"].as_array().unwrap_or_else(|| panic!("no files in {answer}"));
    Value::Array(files.iter().flat_map(|f| f["diagnostics"].as_array().expect("diagnostics").clone()).collect())
}

pub fn site(path: &str, line: u64, column: u64) -> (String, u64, u64) {
    (path.to_owned(), line, column)
}

/// Every file under `root` (build output aside) with its bytes, to compare a tree before and after (or to
/// watch one while a write runs: a file renamed away between listing and reading is left out).
pub fn tree(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    files(root, Part::Sources)
}

/// Which files of a tree `files` reads.
#[derive(Clone, Copy, PartialEq)]
pub enum Part {
    /// Everything outside build and restore output (`bin/`, `obj/`).
    Sources,
    /// The files under `obj/` folders: restore output (and what a design-time build left there).
    RestoreOutput,
    /// The files under `bin/` folders: what a build wrote.
    BuildOutput,
}

/// The files of `part` of the tree at `root`, by path relative to it, with their bytes.
pub fn files(root: &Path, part: Part) -> std::collections::BTreeMap<String, Vec<u8>> {
    type Files = std::collections::BTreeMap<String, Vec<u8>>;
    fn walk(root: &Path, dir: &Path, part: Part, (in_obj, in_bin): (bool, bool), into: &mut Files) {
        for entry in std::fs::read_dir(dir).expect("read folder").flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                let (obj, bin) = (name == "obj", name == "bin");
                let skipped = (bin && part != Part::BuildOutput) || (obj && part == Part::Sources);
                if !skipped {
                    walk(root, &path, part, (in_obj || obj, in_bin || bin), into);
                }
            } else if match part {
                Part::Sources => true,
                Part::RestoreOutput => in_obj,
                Part::BuildOutput => in_bin,
            } {
                let relative = path.strip_prefix(root).expect("inside root").display().to_string();
                match std::fs::read(&path) {
                    Ok(bytes) => {
                        into.insert(relative, bytes);
                    }
                    // Listed, then renamed away: a write's temporary, read while the write runs.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => panic!("read {}: {e}", path.display()),
                }
            }
        }
    }
    let mut files = std::collections::BTreeMap::new();
    walk(root, root, part, (false, false), &mut files);
    files
}

/// Asserts that two trees hold the same files with the same bytes, naming the first difference.
pub fn assert_same_tree(before: &std::collections::BTreeMap<String, Vec<u8>>, root: &Path, context: &str) {
    let after = tree(root);
    let names = |t: &std::collections::BTreeMap<String, Vec<u8>>| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&after), names(before), "{context}: files differ");
    for (name, bytes) in before {
        assert!(after[name] == *bytes, "{context}: {name} changed:\n{}", String::from_utf8_lossy(&after[name]));
    }
}

/// `dotnet build` of a solution: the number of errors it reports (the build output is shown on failure).
pub async fn dotnet_build_errors(solution: &Path) -> usize {
    let output = tokio::process::Command::from(builds::dotnet_build())
        .args(["-nologo", "-clp:ErrorsOnly"])
        .arg(solution)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .await
        .expect("run dotnet build");
    let text = String::from_utf8_lossy(&output.stdout);
    let errors = text.lines().filter(|l| l.contains(": error ")).count();
    if !output.status.success() && errors == 0 {
        panic!("dotnet build failed without compiler errors:\n{text}");
    }
    if errors > 0 {
        eprintln!("dotnet build {}:\n{text}", solution.display());
    }
    errors
}

/// Runs git in `root` as a user of its own (no signing), and asserts it succeeded.
pub fn git(root: &std::path::Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["-c", "user.name=e2e", "-c", "user.email=e2e@localhost", "-c", "commit.gpgsign=false"])
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// Starts `command` as a child that gets SIGTERM when this test process exits (from a thread that lives as
/// long as the process, as the signal follows the thread that started it); its pid.
pub fn until_exit(mut command: std::process::Command, name: &str) -> u32 {
    use std::os::unix::process::CommandExt;
    #[allow(unsafe_code)]
    // SAFETY: between fork and exec, one system call on the child alone.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    let (started, pid) = std::sync::mpsc::channel();
    let what = name.to_owned();
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let mut child = command.spawn().unwrap_or_else(|e| panic!("spawn the {what}: {e}"));
            let _ = started.send(child.id());
            let _ = child.wait();
        })
        .expect("thread");
    pid.recv().unwrap_or_else(|_| panic!("the {name} did not start"))
}
