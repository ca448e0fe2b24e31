//! Generated corpora (`cargo xtask corpus`), against a bare in-process Roslyn (`benches/probe`) and
//! `dotnet build` in the same run:
//! - `large` (~50 projects, ~5,000 documents): load, warm-up, first and warm find_references, a rename
//!   preview of the core hub's `Total` (used across most projects) against Roslyn's Renamer on the same loaded
//!   solution, find_tests of it (warm), solution-wide diagnostics (warm, and after an edit of a method body),
//!   get_project_graph (warm, and with `unused` against the probe's compile), the host's resident memory
//!   against the probe's, and with 1, 10, 20 and 50 sessions on one daemon: a new session's first answer,
//!   find_references asked by all at once (p50, p99, host CPU a call, no reload) and the daemon's and host's
//!   resident memory;
//! - `five` (five copies of the `large` corpus, one daemon): each asked in turn, the solutions loaded, their
//!   hosts' resident memory together against the hosts' shared budget (`ROSLYN_MCP_MAX_HOSTS_MEMORY_MB`, as
//!   the daemon reads it) and the machine's available memory, and the least recently used unloaded under it;
//! - `multi-target` (one library, 5 target frameworks, 315 documents): warm find_references against
//!   FindReferencesAsync, solution-wide diagnostics against a no-op `dotnet build --no-restore` and against
//!   `dotnet build --no-restore` after an edit.
//!
//! `cargo bench -p broker --bench corpus` (ROSLYN_MCP_BENCH_CORPUS="large,multi-target" picks the shapes;
//! ROSLYN_MCP_BENCH_PROJECTS=250 ROSLYN_MCP_BENCH_DOCUMENTS=25000 sizes the `large` one as OrchardCore).

#[path = "common/calls.rs"]
mod calls;
#[path = "common/probe.rs"]
mod probe;
#[path = "common/procfs.rs"]
mod procfs;
#[path = "common/stats.rs"]
mod stats;
#[path = "../../../tests/e2e/support/mod.rs"]
mod support;

use futures::future::join_all;
use procfs::{meminfo, vm_rss};
use serde_json::{Value, json};
use stats::{ms, percentiles, quantile};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::daemon::{Agent, StateDir, host_pids, signal};
use support::restored::RestoreOutput;
use support::{Client, Fixture, Server, copy_tree, eventually, group_members};

const WARM_CALLS: usize = 30;
/// Warm rename previews and find_tests of the member: each passes over most of the corpus.
const MEMBER_CALLS: usize = 5;
/// Warm searches of the probe run as the host runs (without TieredPGO): a second baseline, fewer calls.
const PGO_OFF_CALLS: usize = 5;
/// A large corpus's solution-wide diagnostics after an edit may pass the default 30 s limit of a read;
/// its load and warm-up have limits of their own.
const LIMITS: [(&str, &str); 3] = [
    ("ROSLYN_MCP_REQUEST_TIMEOUT_SECS", "120"),
    ("ROSLYN_MCP_WRITE_TIMEOUT_SECS", "120"),
    ("ROSLYN_MCP_LOAD_TIMEOUT_SECS", "1200"),
];
const MIB: f64 = 1024.0 * 1024.0;
/// Longer than the host's idle time before it gives back a burst's heap.
const IDLE: Duration = Duration::from_secs(5);

fn main() {
    let shapes = std::env::var("ROSLYN_MCP_BENCH_CORPUS").unwrap_or_else(|_| "large,multi-target".into());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    probe::build();
    for shape in shapes.split(',').map(str::trim) {
        match shape {
            "large" => runtime.block_on(large(&Corpus::generate(shape))),
            "five" => {
                let first = Corpus::generate("large");
                let output = RestoreOutput::read(&first.fixture.root);
                let mut copies: Vec<Corpus> = (1..5).map(|_| first.relocated(&output)).collect();
                copies.insert(0, first);
                runtime.block_on(five(&copies))
            }
            "multi-target" => runtime.block_on(multi_target(&Corpus::generate(shape))),
            other => panic!("ROSLYN_MCP_BENCH_CORPUS: no shape {other:?}"),
        }
    }
}

/// A corpus written by `cargo xtask corpus` and restored, with the places its benches ask about.
struct Corpus {
    fixture: Fixture,
    solution: PathBuf,
    /// The declaration of the type whose references are found.
    query: (PathBuf, u32, u32),
    /// The declaration of the member renamed and whose tests are found.
    member: (PathBuf, u32, u32),
    /// A line inside a method body where a statement can go without changing any declaration.
    edit: (PathBuf, u32),
}

impl Corpus {
    fn generate(shape: &str) -> Self {
        let fixture = Fixture::empty("Corpus");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let output = Command::new(cargo)
            .args(["run", "-q", "-p", "xtask", "--", "corpus"])
            .arg(&fixture.root)
            .args(["--shape", shape])
            .args(size(shape))
            .output()
            .expect("run cargo xtask corpus");
        assert!(output.status.success(), "corpus: {}", String::from_utf8_lossy(&output.stderr));
        let line: Value = serde_json::from_slice(&output.stdout).expect("the corpus's JSON line");
        let path = |value: &Value| PathBuf::from(value.as_str().expect("a path"));
        let number = |value: &Value| value.as_u64().expect("a number") as u32;
        let corpus = Self {
            solution: path(&line["solution"]),
            query: (path(&line["query"]["file"]), number(&line["query"]["line"]), number(&line["query"]["column"])),
            member: (path(&line["member"]["file"]), number(&line["member"]["line"]), number(&line["member"]["column"])),
            edit: (path(&line["edit"]["file"]), number(&line["edit"]["line"])),
            fixture,
        };
        eprintln!(
            "{shape}: {} projects, {} documents in {}",
            line["projects"],
            line["documents"],
            corpus.fixture.root.display()
        );
        dotnet(&corpus.fixture.root, &["restore", "-nologo", "-v:q"]);
        corpus
    }

    /// A copy in a folder of its own with `output`, this corpus's restore output (read once for every copy), its
    /// paths that name this corpus's folder rewritten to the copy's: what a restore of the copy writes, without
    /// restoring every project again.
    fn relocated(&self, output: &RestoreOutput) -> Corpus {
        let fixture = Fixture::empty("Corpus");
        copy_tree(&self.fixture.root, &fixture.root);
        output.write_into(&fixture.root);
        let moved = |path: &Path| fixture.root.join(path.strip_prefix(&self.fixture.root).expect("in the corpus"));
        let place = |(file, line, column): &(PathBuf, u32, u32)| (moved(file), *line, *column);
        Corpus {
            solution: moved(&self.solution),
            query: place(&self.query),
            member: place(&self.member),
            edit: (moved(&self.edit.0), self.edit.1),
            fixture,
        }
    }

    fn question(&self) -> Value {
        at(&self.query)
    }

    /// The probe on this corpus, the runtime set by `env`.
    fn probe(&self, warm_calls: usize, env: &[(&str, &str)]) -> Value {
        let (file, line, column) = &self.query;
        probe::run(&self.solution, file, (*line, *column), warm_calls, env)
    }

    /// Roslyn's Renamer of the member on this corpus, loaded and compiled as the service's warm-up does.
    fn renamer(&self) -> Value {
        let (file, line, column) = &self.member;
        probe::run_rename(&self.solution, file, (*line, *column), "Summed", MEMBER_CALLS)
    }

    /// Puts a statement (an unused local: warning CS0219) at the edit line.
    fn edit_body(&self) {
        self.insert(0, "        int corpusEdit = 1;");
    }

    /// Declares a method above the edited one (`public int Score()`, two lines above the edit line).
    fn edit_declaration(&self) {
        self.insert(2, "    public int CorpusAdded() => 1;");
    }

    fn insert(&self, lines_above_the_edit: u32, line: &str) {
        let (file, at) = &self.edit;
        let text = std::fs::read_to_string(file).expect("the edited file");
        let mut lines: Vec<&str> = text.split('\n').collect();
        lines.insert((at - 1 - lines_above_the_edit) as usize, line);
        std::fs::write(file, lines.join("\n")).expect("write the edit");
    }
}

/// A tool's position arguments.
fn at((file, line, column): &(PathBuf, u32, u32)) -> Value {
    json!({"filePath": file.display().to_string(), "line": line, "column": column})
}

/// `--projects` and `--documents` of the `large` shape from ROSLYN_MCP_BENCH_PROJECTS and
/// ROSLYN_MCP_BENCH_DOCUMENTS, when set.
fn size(shape: &str) -> Vec<String> {
    let mut arguments = Vec::new();
    for (variable, option) in
        [("ROSLYN_MCP_BENCH_PROJECTS", "--projects"), ("ROSLYN_MCP_BENCH_DOCUMENTS", "--documents")]
    {
        if let (Ok(value), "large") = (std::env::var(variable), shape) {
            arguments.extend([option.to_owned(), value]);
        }
    }
    arguments
}

/// Runs dotnet in `dir`; the milliseconds it took.
fn dotnet(dir: &Path, args: &[&str]) -> f64 {
    let began = Instant::now();
    let output = Command::new("dotnet").args(args).current_dir(dir).output().expect("run dotnet");
    assert!(output.status.success(), "dotnet {args:?}: {}", String::from_utf8_lossy(&output.stdout));
    ms(began.elapsed())
}

/// What the service measured on a corpus, one session.
struct Service {
    load: f64,
    warm_up: f64,
    first: f64,
    warm: f64,
    warm_host: f64,
    references: usize,
    /// Solution-wide diagnostics after the warm-up, after an edit of a method body (the diagnostics of the
    /// edited document are asked again), then after a declaration is added (every body is bound again).
    diagnostics: f64,
    diagnostics_after_edit: f64,
    diagnostics_after_declaration: f64,
    host_resident: f64,
    /// The member's rename preview (first, then warm end to end and in the host), the files it changes, and its
    /// find_tests warm (end to end, host) and the tests found.
    rename: (f64, f64, f64),
    renamed_files: usize,
    tests: (f64, f64),
    tests_found: usize,
    /// get_project_graph of the whole corpus, warm: (end to end, host) p50, then with `unused` once, and the
    /// projects and candidates it answered.
    graph: (f64, f64),
    graph_unused: (f64, f64),
    graph_counts: (u64, usize),
}

async fn measure_service(corpus: &Corpus) -> Service {
    let server = Server::start_with_env(&corpus.fixture.root, &LIMITS).await;
    let began = Instant::now();
    let root = corpus.fixture.root.display().to_string();
    server.ok("initialize_workspace", json!({"workingDirectory": root, "preferredSolution": corpus.solution})).await;
    let load = ms(began.elapsed());
    let began = Instant::now();
    server.warm_up_finished(Duration::from_secs(1800)).await;
    let warm_up = ms(began.elapsed());

    let question = corpus.question();
    let began = Instant::now();
    let first = server.ok("find_references", question.clone()).await;
    let first_ms = ms(began.elapsed());
    let references = first["totalCount"].as_u64().expect("totalCount") as usize;
    calls::measure(&server, "find_references", 10, |_| question.clone()).await;
    let (mut warm, mut warm_host) = calls::measure(&server, "find_references", WARM_CALLS, |_| question.clone()).await;
    // Right after the searches, as the probe reads its own after its compile and searches.
    let diagnose = server.ok("diagnose", json!({})).await;
    let host_resident = diagnose["workspaces"][0]["hostResidentBytes"].as_f64().unwrap_or(0.0) / MIB;

    let rename_to = |round: usize| {
        let mut arguments = at(&corpus.member);
        arguments["newName"] = json!(format!("Summed{round}"));
        arguments["preview"] = json!(true);
        arguments
    };
    let began = Instant::now();
    let preview = server.ok("rename_symbol", rename_to(0)).await;
    let rename_first = ms(began.elapsed());
    let renamed_files = preview["pendingChanges"].as_array().map_or(0, Vec::len);
    let (mut rename, mut rename_host) =
        calls::measure(&server, "rename_symbol", MEMBER_CALLS, |round| rename_to(round + 1)).await;
    let member = at(&corpus.member);
    let found = server.ok("find_tests", member.clone()).await;
    let tests_found = found["tests"].as_array().map_or(0, Vec::len);
    let (mut tests, mut tests_host) = calls::measure(&server, "find_tests", MEMBER_CALLS, |_| member.clone()).await;

    let solution = json!({"solutionPath": corpus.solution.display().to_string()});
    let (mut graph, mut graph_host) =
        calls::measure(&server, "get_project_graph", WARM_CALLS, |_| solution.clone()).await;
    let with_unused = json!({"solutionPath": corpus.solution.display().to_string(), "unused": true});
    let began = Instant::now();
    let unused = server.call("get_project_graph", with_unused).await;
    let graph_unused = (ms(began.elapsed()), unused.host_ms);
    let graph_counts =
        (unused.value["totalCount"].as_u64().unwrap_or(0), unused.value["unused"].as_array().map_or(0, Vec::len));

    let everything = json!({"solutionPath": corpus.solution.display().to_string(), "minSeverity": "error"});
    let began = Instant::now();
    let clean = server.ok("get_compilation_diagnostics", everything.clone()).await;
    let diagnostics = ms(began.elapsed());
    assert_eq!(clean["errorCount"], json!(0), "the corpus compiles: {clean}");
    let diagnostics_after_edit = diagnostics_after(&server, &everything, || corpus.edit_body()).await;
    let diagnostics_after_declaration = diagnostics_after(&server, &everything, || corpus.edit_declaration()).await;
    server.stop().await;
    Service {
        load,
        warm_up,
        first: first_ms,
        warm: percentiles(&mut warm).0,
        warm_host: percentiles(&mut warm_host).0,
        references,
        diagnostics,
        diagnostics_after_edit,
        diagnostics_after_declaration,
        host_resident,
        rename: (rename_first, percentiles(&mut rename).0, percentiles(&mut rename_host).0),
        renamed_files,
        tests: (percentiles(&mut tests).0, percentiles(&mut tests_host).0),
        tests_found,
        graph: (percentiles(&mut graph).0, percentiles(&mut graph_host).0),
        graph_unused,
        graph_counts,
    }
}

/// Makes `edit` on disk, waits until the host has it, then times solution-wide diagnostics.
async fn diagnostics_after(server: &Server, everything: &Value, edit: impl FnOnce()) -> f64 {
    let version = workspace_version(server).await;
    edit();
    let seen =
        eventually(Duration::from_secs(60), || async { (workspace_version(server).await > version).then_some(()) })
            .await;
    assert!(seen.is_some(), "the host never saw the edit");
    let began = Instant::now();
    let edited = server.ok("get_compilation_diagnostics", everything.clone()).await;
    let took = ms(began.elapsed());
    assert_eq!(edited["errorCount"], json!(0), "the edit adds no error: {edited}");
    took
}

async fn workspace_version(server: &Server) -> u64 {
    let diagnose = server.ok("diagnose", json!({})).await;
    diagnose["workspaces"][0]["workspaceVersion"].as_u64().unwrap_or(0)
}

/// The member's rename preview against Renamer's (`renamer`: the probe's), and its find_tests.
fn report_member(service: &Service, renamer: &Value) {
    let (first, warm, warm_host) = service.rename;
    let field = |name: &str| renamer[name].as_f64().unwrap_or_else(|| panic!("renamer {name}"));
    println!(
        "  rename preview of the hub's Total ({} files): first {first:.0} ms, warm p50 {warm:.0} ms end to end ({warm_host:.0} ms in the host); Renamer ({} frameworks) first {:.0} ms, warm p50 {:.0} ms: {:.2}x end to end, {:.2}x in the host",
        service.renamed_files,
        renamer["frameworks"],
        field("renameFirstMs"),
        field("renameWarmMs"),
        warm / field("renameWarmMs"),
        warm_host / field("renameWarmMs")
    );
    println!(
        "  find_tests of the hub's Total: {} tests, warm p50 {:.1} ms end to end ({:.1} ms in the host)",
        service.tests_found, service.tests.0, service.tests.1
    );
}

async fn large(corpus: &Corpus) {
    let bare = corpus.probe(WARM_CALLS, &[]);
    let renamer = corpus.renamer();
    let service = measure_service(corpus).await;
    // The host runs without profile-guided tiering (a load's hot code is not compiled twice more while the
    // calls after it wait): the same search in a probe tiered so tells what that setting costs warm.
    let as_host = corpus.probe(PGO_OFF_CALLS, &[("DOTNET_TieredPGO", "0")]);
    let field = |name: &str| bare[name].as_f64().unwrap_or_else(|| panic!("probe {name}"));
    println!(
        "large corpus, find_references of Entity ({} places; the probe counts {} locations):",
        service.references, bare["locations"]
    );
    println!(
        "  service: load {:.0} ms, warm-up {:.0} ms, first answer {:.1} ms, warm p50 {:.1} ms (host {:.1} ms)",
        service.load, service.warm_up, service.first, service.warm, service.warm_host
    );
    println!(
        "  probe:   load {:.0} ms, compile {:.0} ms, first answer {:.1} ms, warm p50 {:.1} ms",
        field("loadMs"),
        field("compileMs"),
        field("firstReferencesMs"),
        field("warmReferencesP50Ms")
    );
    let service_total = service.load + service.warm_up + service.first;
    let probe_total = field("loadMs") + field("compileMs") + field("firstReferencesMs");
    println!(
        "  load + warm-up + first answer: service {service_total:.0} ms, probe (load + compile + first) {probe_total:.0} ms: {:.2}x",
        service_total / probe_total
    );
    println!(
        "  warm find_references: service / probe {:.2}x end to end, {:.2}x in the host",
        service.warm / field("warmReferencesP50Ms"),
        service.warm_host / field("warmReferencesP50Ms")
    );
    let warm_as_host = as_host["warmReferencesP50Ms"].as_f64().expect("probe warm");
    println!(
        "  the probe without TieredPGO, as the host runs: warm p50 {warm_as_host:.1} ms ({:.2}x the probe's); the host's search against it {:.2}x",
        warm_as_host / field("warmReferencesP50Ms"),
        service.warm_host / warm_as_host
    );
    report_member(&service, &renamer);
    println!(
        "  solution-wide diagnostics: {:.1} ms after the warm-up, {:.0} ms after a body edit, {:.0} ms after a declaration is added (probe compile {:.0} ms)",
        service.diagnostics,
        service.diagnostics_after_edit,
        service.diagnostics_after_declaration,
        field("compileMs")
    );
    println!(
        "  get_project_graph ({} projects): p50 {:.1} ms end to end, {:.1} ms in the host; with unused (every document's names bound, {} candidates): {:.0} ms end to end, {:.0} ms in the host, against the probe's compile {:.0} ms: {:.2}x",
        service.graph_counts.0,
        service.graph.0,
        service.graph.1,
        service.graph_counts.1,
        service.graph_unused.0,
        service.graph_unused.1,
        field("compileMs"),
        service.graph_unused.1 / field("compileMs")
    );
    println!(
        "  resident memory: host {:.0} MiB, probe {:.0} MiB: {:.2}x",
        service.host_resident,
        field("workingSetBytes") / MIB,
        service.host_resident / (field("workingSetBytes") / MIB)
    );
    sessions(corpus, &[1, 10, 20, 50]).await;
}

/// One daemon, sessions added up to each level. Each new session's first call (a find_symbol_definition of the
/// query, one session after another, once the corpus is loaded) is timed; then every session asks
/// find_references at once (the first loads the corpus and warms it up): the latency of each and the host's
/// CPU time per call, with the same host and snapshot throughout (no reload). The host's resident memory is
/// taken right after, and the daemon's and the host's once they have been idle a few seconds.
async fn sessions(corpus: &Corpus, levels: &[usize]) {
    let state = StateDir::default();
    let mut daemon = state.serve(&[], &LIMITS);
    assert_eq!(state.daemon_pid().await, daemon.id(), "the daemon this bench started serves it");
    let question = corpus.question();
    let mut clients: Vec<Client<Agent>> = Vec::new();
    let (mut resident, mut answers) = (Vec::new(), Vec::new());
    let mut loaded: Option<(BTreeSet<u32>, Value)> = None;
    for &level in levels {
        let added = join_all((clients.len()..level).map(|_| state.http_client(None))).await;
        let mut first_answers = Vec::new();
        for client in added.iter().filter(|_| loaded.is_some()) {
            let began = Instant::now();
            client.ok("find_symbol_definition", question.clone()).await;
            first_answers.push(ms(began.elapsed()));
        }
        clients.extend(added);
        let host_cpu = |hosts: &BTreeSet<u32>| hosts.iter().copied().map(procfs::cpu_ms).sum::<f64>();
        let cpu_before = loaded.as_ref().map_or(0.0, |(hosts, _)| host_cpu(hosts));
        // A search that passes the read limit while the others queue for the host's computation slots answers
        // TIMEOUT: counted, not timed.
        let asked = join_all(clients.iter().map(|client| async {
            let began = Instant::now();
            let outcome = client.call("find_references", question.clone()).await;
            (!outcome.is_error).then(|| ms(began.elapsed()))
        }))
        .await;
        let mut latencies: Vec<f64> = asked.into_iter().flatten().collect();
        let warmed = clients[0].warm_up_finished(Duration::from_secs(1800)).await;
        let hosts: BTreeSet<u32> = host_pids(&warmed).into_iter().flat_map(group_members).collect();
        let version = warmed["workspaces"][0]["workspaceVersion"].clone();
        let cpu_per_call = (host_cpu(&hosts) - cpu_before) / level as f64;
        match &loaded {
            Some((first_hosts, first_version)) => {
                assert_eq!((first_hosts, first_version), (&hosts, &version), "the sessions reloaded nothing")
            }
            None => loaded = Some((hosts.clone(), version)),
        }
        let host_mib = || hosts.iter().copied().map(vm_rss).sum::<u64>() as f64 / MIB;
        let burst = host_mib();
        // The host gives back what the burst grew once it has been idle for 2 s (HeapTrim).
        tokio::time::sleep(IDLE).await;
        resident.push((level, vm_rss(daemon.id()) as f64 / MIB, burst, host_mib()));
        let answered = latencies.len();
        let (p50, p99) = p50_p99(&mut latencies);
        answers.push((level, first_answers, answered, p50, p99, cpu_per_call));
    }
    join_all(clients.into_iter().map(Client::close)).await;
    signal(daemon.id(), "-TERM");
    assert!(daemon.wait().expect("daemon exit").success(), "daemon log: {}", state.serve_log());
    for (level, mut first_answers, answered, p50, p99, cpu) in answers.into_iter().skip(1) {
        let (first_p50, first_p99) = p50_p99(&mut first_answers);
        println!(
            "  {level:>2} sessions on the loaded corpus, no reload: a new session's first answer (find_symbol_definition) p50 {first_p50:.1} ms, p99 {first_p99:.1} ms; all at once, find_references answered {answered} of {level} within the read limit, p50 {p50:.0} ms, p99 {p99:.0} ms, host CPU {cpu:.0} ms a call"
        );
    }
    let one = resident[0].1 + resident[0].3;
    for (level, daemon, burst, host) in resident {
        println!(
            "  resident memory, {level:>2} sessions, idle: daemon {daemon:.0} MiB + host {host:.0} MiB = {:.0} MiB, {:.3}x one session's (host right after the burst: {burst:.0} MiB)",
            daemon + host,
            (daemon + host) / one
        );
    }
}

/// Five copies of the corpus asked in turn by one session, then the first again: after each answer, the
/// solutions loaded and their hosts' resident memory together, against the hosts' shared budget and what the
/// machine has available; every call answers, and the solution used last stays loaded.
async fn five(copies: &[Corpus]) {
    let server = Server::start_with_env(&copies[0].fixture.root, &LIMITS).await;
    let settings = server.ok("diagnose", json!({"verbose": true})).await["settings"].clone();
    let budget = settings["maxHostsMemoryMb"].as_f64().expect("maxHostsMemoryMb");
    println!(
        "five large corpora on one daemon, the hosts' shared budget {budget:.0} MiB, the machine's memory {:.0} MiB:",
        meminfo("MemTotal:") as f64 / MIB
    );
    for (step, corpus) in copies.iter().chain(copies.first()).enumerate() {
        let began = Instant::now();
        let answer = server.ok("find_references", corpus.question()).await;
        let took = ms(began.elapsed());
        assert!(answer["totalCount"].as_u64().is_some_and(|n| n > 0), "{answer}");
        let workspaces = server.ok("diagnose", json!({})).await["workspaces"].as_array().cloned().unwrap_or_default();
        let loaded: Vec<&Value> = workspaces.iter().filter(|w| w["hostResidentBytes"].as_f64().is_some()).collect();
        let hosts = loaded.iter().filter_map(|w| w["hostResidentBytes"].as_f64()).sum::<f64>() / MIB;
        let asked = corpus.solution.display().to_string();
        assert!(loaded.iter().any(|w| w["solutionPath"] == json!(asked)), "the solution used last stays loaded");
        let unloaded = std::fs::read_to_string(&server.log).unwrap_or_default().matches("over their shared").count();
        println!(
            "  {:>2}. copy {} answered in {took:.0} ms: {} solutions loaded, hosts {hosts:.0} MiB ({:.2} of the budget), {unloaded} unloaded under pressure so far, machine available {:.0} MiB",
            step + 1,
            step % copies.len() + 1,
            loaded.len(),
            hosts / budget,
            meminfo("MemAvailable:") as f64 / MIB
        );
    }
    server.stop().await;
}

/// The median and 99th percentile of `samples` (NaN when there are none).
fn p50_p99(samples: &mut [f64]) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    match samples {
        [] => (f64::NAN, f64::NAN),
        sorted => (quantile(sorted, 0.50), quantile(sorted, 0.99)),
    }
}

async fn multi_target(corpus: &Corpus) {
    let root = &corpus.fixture.root;
    // The first build compiles; the second finds nothing to do.
    dotnet(root, &["build", "--no-restore", "-nologo", "-v:q"]);
    let no_op_build = dotnet(root, &["build", "--no-restore", "-nologo", "-v:q"]);
    let bare = corpus.probe(WARM_CALLS, &[]);
    let renamer = corpus.renamer();
    let service = measure_service(corpus).await;
    let build_after_edit = dotnet(root, &["build", "--no-restore", "-nologo", "-v:q"]);
    dotnet(root, &["build-server", "shutdown"]);
    let probe_warm = bare["warmReferencesP50Ms"].as_f64().expect("probe warm");
    println!(
        "multi-target library (5 frameworks), find_references: {} places, the probe's FindReferencesAsync {} locations",
        service.references, bare["locations"]
    );
    println!(
        "  warm p50: service {:.2} ms end to end ({:.2} ms in the host), probe {probe_warm:.2} ms: {:.2}x end to end, {:.2}x in the host",
        service.warm,
        service.warm_host,
        service.warm / probe_warm,
        service.warm_host / probe_warm
    );
    report_member(&service, &renamer);
    println!(
        "  solution-wide diagnostics after the warm-up {:.1} ms, no-op dotnet build --no-restore {no_op_build:.0} ms: {:.3}x",
        service.diagnostics,
        service.diagnostics / no_op_build
    );
    println!(
        "  after a body edit: diagnostics {:.0} ms, dotnet build --no-restore {build_after_edit:.0} ms: build / diagnostics {:.1}x",
        service.diagnostics_after_edit,
        build_after_edit / service.diagnostics_after_edit
    );
    println!(
        "  after a declaration is added: diagnostics {:.0} ms: build / diagnostics {:.1}x",
        service.diagnostics_after_declaration,
        build_after_edit / service.diagnostics_after_declaration
    );
}
