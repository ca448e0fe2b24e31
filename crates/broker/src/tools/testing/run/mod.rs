//! run_tests: builds the test projects a selection needs in the service's copy of the repository, runs them
//! with their runner (VSTest through `dotnet test`, or the project itself on Microsoft.Testing.Platform) under
//! an exact filter, and answers from the runner's TRX files.

mod platform;
mod settings;
mod trx;

use crate::test_runs::{RunFolders, TestRuns, build_log, process};

use super::{Change, Inside, origin};
use crate::tools::convert::RootGate;
use crate::tools::{Call, Resolved};
use process::{Ended, Stop, Watchdog};
use protocol::host::ask;
use protocol::host::{ChangeOrigin, FindTestsRequest, FoundTests, TestFramework, TestProject};
use protocol::tools::testing::{
    NotFollowed, RunTestsInput, RunTestsOutput, StackFrame, TestOutcome, TestResultItem, TestRunSummary,
};
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostInstall;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::time::Instant;
use workspace_actor::WriteGuard;

pub(crate) const DEFAULT_TIMEOUT_SECS: u32 = 300;
/// What the runner needs after its own session limit to write the results so far.
const RUNNER_MARGIN: Duration = Duration::from_secs(15);
/// What a stack frame's text says in place of a file outside the roots.
const OUTSIDE_THE_ROOTS: &str = "<outside the roots>";
/// How a runner's console line starts when a test case finished.
const FINISHED: [&str; 6] = ["Passed ", "Failed ", "Skipped ", "passed ", "failed ", "skipped "];

/// One test project's part of the run.
pub struct ProjectRun {
    name: String,
    path: PathBuf,
    /// It is its own runner, on Microsoft.Testing.Platform, run once per target framework.
    platform: bool,
    target_frameworks: Vec<String>,
    /// Test methods it declares.
    test_count: u32,
    /// Its selected tests (`Namespace.Class.Method`) with their framework; none: every test, or `filter`.
    tests: BTreeMap<String, TestFramework>,
}

/// A selection this large, and a third or more of its project, runs whole: the runners match every case
/// against every name of a filter, which on NodaTime (1,509 of its test methods) took longer than running
/// all 22,134 cases. Only the selected tests are reported.
const WHOLE_FROM: usize = 200;

pub async fn run_tests(call: &Call, input: RunTestsInput) -> Result<RunTestsOutput, ToolError> {
    enabled(call)?;
    input.filter.as_deref().map_or(Ok(()), platform::check_filter)?;
    let limits = RunLimits::new(input.timeout_seconds, input.test_timeout_seconds);
    let (resolved, origin, not_followed) = selection(call, &input).await?;
    let found = find(call, &resolved, origin.clone(), input.project.clone(), Some(limits.remaining())).await?;
    // Every project and test file resolved at the root gate: off the async workers.
    let (plan, outside) = crate::offload::cpu(|| plan(&origin, input.tests.as_deref(), &found, &resolved.gate()))?;
    let mut output = execute(call, &resolved, &plan, &limits, input.filter.as_deref(), None).await?;
    output.omitted_outside_roots += outside;
    output.not_followed.splice(0..0, not_followed);
    crate::offload::cpu(|| fit(&mut output, call.services.limits.response_bytes));
    Ok(output)
}

/// A suite of thousands of cases under the response cap: what went wrong is listed, the passed cases only if
/// they fit; and if even what went wrong does not fit, as much of it as does, the worst first.
fn fit(output: &mut RunTestsOutput, cap: usize) {
    let size = |output: &RunTestsOutput| serde_json::to_vec(output).map_or(0, |json| json.len());
    if size(output) <= cap {
        return;
    }
    output.results.retain(|r| r.outcome != TestOutcome::Passed);
    output.passed_omitted = output.summary.passed;
    let mut bytes = size(output);
    while bytes > cap && !output.results.is_empty() {
        // Each case's share of the answer, so that one pass takes off about what is too much.
        let each = bytes / output.results.len();
        let keep = output.results.len().saturating_sub((bytes - cap).div_ceil(each.max(1)).max(1));
        output.results_omitted += (output.results.len() - keep) as u32;
        output.results.truncate(keep);
        bytes = size(output);
    }
}

/// The refusal when the service does not run tests.
pub fn enabled(call: &Call) -> Result<&TestRuns, ToolError> {
    call.services.test_runs.as_ref().ok_or_else(|| {
        ToolError::new(ErrorCode::TEST_RUNS_DISABLED, "This service does not run tests")
            .suggest("Start the service with --test-runs true (ROSLYN_MCP_TEST_RUNS) to allow run_tests")
    })
}

/// A run's time limits: the whole call's, and one test's before it counts as hung.
pub struct RunLimits {
    limit: Duration,
    deadline: Instant,
    test_timeout: Option<u32>,
}

impl RunLimits {
    pub fn new(timeout_seconds: Option<u32>, test_timeout: Option<u32>) -> Self {
        let limit = Duration::from_secs(timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_SECS).clamp(10, 3600).into());
        Self { limit, deadline: Instant::now() + limit, test_timeout }
    }

    /// What is left of the call's time: a run's own question to the host (which tests) may take it, as a
    /// first question after a load builds the whole reach graph of a large solution.
    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// The tests `origin` selects, as the host finds them, within `limit` (else the service's request limit).
pub async fn find(
    call: &Call,
    resolved: &Resolved,
    origin: ChangeOrigin,
    project: Option<String>,
    limit: Option<Duration>,
) -> Result<FoundTests, ToolError> {
    let body = ask::find_tests(FindTestsRequest { origin, project });
    Ok(call.ask_within(&resolved.workspace, body, limit).await?.body)
}

/// Brings the run's copy of the repository up to date (holding the write lock while it copies: `held` when
/// the caller already does), builds the projects of `plan` there, then runs their tests, project by project.
pub async fn execute(
    call: &Call,
    resolved: &Resolved,
    plan: &[ProjectRun],
    limits: &RunLimits,
    filter: Option<&str>,
    held: Option<&WriteGuard>,
) -> Result<RunTestsOutput, ToolError> {
    let runs = enabled(call)?;
    let dotnet = call.services.located.install()?;
    let mut output = RunTestsOutput {
        results: Vec::new(),
        passed_omitted: 0,
        results_omitted: 0,
        summary: TestRunSummary::default(),
        projects: Vec::new(),
        complete: true,
        files_changed_during_run: false,
        not_followed: Vec::new(),
        omitted_outside_roots: 0,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    };
    if plan.is_empty() {
        return Ok(output);
    }
    let projects: Vec<&Path> = plan.iter().map(|p| p.path.as_path()).collect();
    let (solution, roots) = (&resolved.target.solution, &resolved.target.roots);
    let folders =
        runs.begin(solution, &projects, roots, &resolved.target.reach.inside, limits.deadline, &call.cancel).await?;
    // The copy lies inside the roots: a project it cannot hold is not built in place, but left out; so is one
    // referencing a library it cannot hold, which its build would build where it lies, or miss.
    let (plan, elsewhere): (Vec<&ProjectRun>, Vec<&ProjectRun>) = plan.iter().partition(|p| folders.holds(&p.path));
    let beyond: Vec<(&ProjectRun, Vec<PathBuf>)> = crate::offload::cpu(|| {
        plan.iter().map(|p| (*p, crate::reach::beyond(&p.path, |dir| folders.holds(dir)))).collect()
    });
    let (plan, unbuildable): (Vec<_>, Vec<_>) = beyond.into_iter().partition(|(_, beyond)| beyond.is_empty());
    let plan: Vec<&ProjectRun> = plan.into_iter().map(|(p, _)| p).collect();
    let libraries: BTreeSet<PathBuf> = unbuildable.iter().flat_map(|(_, beyond)| beyond.iter().cloned()).collect();
    output.not_followed.extend(super::not_followed("referenceOutsideRoots", libraries.iter()));
    output.omitted_outside_roots =
        elsewhere.iter().chain(unbuildable.iter().map(|(p, _)| p)).map(|p| p.tests.len().max(1) as u32).sum();
    output.projects = plan.iter().map(|p| p.name.clone()).collect();
    let deadline = limits.deadline;
    let runner = Runner { call, dotnet: &dotnet, folders: &folders, deadline, resolved, filter };

    // The files compiled are those on disk now: no write of the service lands while they are copied.
    let began = Instant::now();
    let version = {
        let _no_writes = match held {
            None => Some(call.begin_write(&resolved.workspace, None).await?),
            Some(_) => None,
        };
        call.progress.step("Copying the solution's changed files for the run").await;
        folders.sync()?;
        resolved.workspace.status().workspace_version
    };
    for (at, project) in plan.iter().enumerate() {
        call.progress.step(format!("Building {} ({} of {})", project.name, at + 1, plan.len())).await;
        runner.build(project, at).await?;
    }
    output.summary.build_ms = began.elapsed().as_millis() as u64;

    let began = Instant::now();
    let selected: u32 = plan.iter().map(|p| p.tests.len() as u32).sum();
    let mut finished = 0u32;
    for (at, project) in plan.iter().enumerate() {
        let ran = runner.test(project, at, limits.test_timeout, selected, &mut finished).await?;
        output.complete &= ran.complete;
        output.results.extend(ran.results);
        if let Some(hung) = ran.hung {
            output.summary.run_ms = began.elapsed().as_millis() as u64;
            crate::offload::cpu(|| fit(&mut output, call.services.limits.response_bytes));
            return Err(hang(project, hung.as_deref(), limits, &output));
        }
        if !ran.complete {
            break;
        }
    }
    output.summary.run_ms = began.elapsed().as_millis() as u64;
    output.files_changed_during_run = resolved.workspace.status().workspace_version != version;
    finish(&mut output);
    Ok(output)
}

/// The solution and what selects the tests: exactly one of the tests named, a change, a filter, or a
/// project alone.
async fn selection(
    call: &Call,
    input: &RunTestsInput,
) -> Result<(Resolved, ChangeOrigin, Vec<NotFollowed>), ToolError> {
    let change = Change::of_run(input);
    let given = change.given() + usize::from(input.tests.is_some()) + usize::from(input.filter.is_some());
    if given > 1 || (given == 0 && input.project.is_none()) {
        return Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            "Give exactly one of tests, filePath with line and column, changedSince, operationId, planId or filter; or project alone",
        )
        .detail("field", "tests"));
    }
    if change.given() == 1 {
        return origin(call, &change).await;
    }
    let resolved = call.resolve(input.solution_path.as_deref())?;
    Ok((resolved, ChangeOrigin::Tests(input.tests.clone().unwrap_or_default()), Vec::new()))
}

/// Each test project to run with its tests, and how many projects and tests were left out as outside the
/// roots (a test project the solution lists from elsewhere, a test in a file from elsewhere: never built,
/// run or reported); a test id no test of the solution has is refused.
pub fn plan(
    origin: &ChangeOrigin,
    named: Option<&[String]>,
    found: &FoundTests,
    gate: &RootGate,
) -> Result<(Vec<ProjectRun>, u32), ToolError> {
    let mut runs: BTreeMap<&str, ProjectRun> = BTreeMap::new();
    let inside = Inside::of(found, gate);
    let mut outside_tests = 0;
    let whole_projects = matches!(origin, ChangeOrigin::Tests(named) if named.is_empty());
    if whole_projects {
        for project in found.projects.iter().filter(|p| inside.project(&p.file_path)) {
            runs.insert(&project.file_path, ProjectRun::new(project));
        }
    }
    let project_of = |path: &str| found.projects.iter().find(|p| p.file_path == path);
    for test in &found.tests {
        // The host lists the project of every test it selects.
        let Some(project) = project_of(&test.project_path) else { continue };
        if !inside.test(test, gate) {
            outside_tests += 1;
            continue;
        }
        runs.entry(&test.project_path)
            .or_insert_with(|| ProjectRun::new(project))
            .tests
            .insert(test.fully_qualified_name.clone(), test.framework);
    }
    if let Some(named) = named {
        let known: BTreeSet<&str> = found.tests.iter().map(|t| t.fully_qualified_name.as_str()).collect();
        let unknown: Vec<&String> = named.iter().filter(|id| !known.contains(id.as_str())).collect();
        if !unknown.is_empty() {
            return Err(ToolError::new(
                ErrorCode::TEST_NOT_FOUND,
                format!("No test of the solution is named {}", unknown[0]),
            )
            .detail("unknown", serde_json::json!(unknown))
            .suggest("Pass ids as find_tests returns them: Namespace.Class.Method"));
        }
    }
    let mut runs: Vec<ProjectRun> = runs.into_values().collect();
    runs.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    Ok((runs, gate.omitted() + outside_tests))
}

impl ProjectRun {
    fn new(project: &TestProject) -> Self {
        Self {
            name: project.name.clone(),
            path: PathBuf::from(&project.file_path),
            platform: platform::runs_on_platform(&project.frameworks),
            target_frameworks: project.target_frameworks.clone(),
            test_count: project.test_count,
            tests: BTreeMap::new(),
        }
    }

    /// The selection in the runner's filter syntax (`write`); none when the project runs whole.
    fn selection_filter(&self, write: fn(&BTreeMap<String, TestFramework>) -> Option<String>) -> Option<String> {
        let whole = self.tests.len() >= WHOLE_FROM && self.tests.len() * 3 >= self.test_count as usize;
        if whole { None } else { write(&self.tests) }
    }

    /// The test methods it runs.
    pub fn tests(&self) -> impl Iterator<Item = &str> {
        self.tests.keys().map(String::as_str)
    }

    /// The same project with only those of its tests in `keep`; none when it keeps no test.
    pub fn only(&self, keep: &BTreeSet<String>) -> Option<Self> {
        let tests: BTreeMap<String, TestFramework> =
            self.tests.iter().filter(|(t, _)| keep.contains(*t)).map(|(t, f)| (t.clone(), *f)).collect();
        (!tests.is_empty()).then(|| Self {
            name: self.name.clone(),
            path: self.path.clone(),
            platform: self.platform,
            target_frameworks: self.target_frameworks.clone(),
            test_count: self.test_count,
            tests,
        })
    }
}

/// What one test project's run gave.
struct ProjectResults {
    results: Vec<TestResultItem>,
    complete: bool,
    /// A test ran past the hang limit: which one, when the runner knows.
    hung: Option<Option<String>>,
}

struct Runner<'a> {
    call: &'a Call,
    dotnet: &'a HostInstall,
    folders: &'a RunFolders,
    deadline: Instant,
    resolved: &'a Resolved,
    /// The caller's own filter, for projects run without a selection.
    filter: Option<&'a str>,
}

impl Runner<'_> {
    /// Builds the project (and what it references) in the run's copy of the repository, restoring its
    /// packages unless they are restored as its files are now. A build without the restore that fails over
    /// packages (a cache cleared since) is done once more with it.
    async fn build(&self, project: &ProjectRun, at: usize) -> Result<(), ToolError> {
        let restored = self.folders.restored(&project.path);
        let errors = match self.compile(project, at, !restored).await? {
            Some(errors) if restored && over_packages(&errors) => self.compile(project, at, true).await?,
            outcome => outcome,
        };
        let Some(errors) = errors else {
            self.folders.mark_restored(&project.path);
            return Ok(());
        };
        let first = errors.first().map_or_else(|| "dotnet build failed".to_owned(), |e| e.message.clone());
        Err(ToolError::new(
            ErrorCode::BUILD_FAILED,
            format!("Building {} failed with {} error(s): {first}", project.name, errors.len()),
        )
        .detail("project", project.name.clone())
        .detail("errors", serde_json::to_value(errors.iter().take(50).collect::<Vec<_>>()).unwrap_or_default())
        .suggest("Fix the errors (get_compilation_diagnostics shows them in the workspace), then run again"))
    }

    /// One `dotnet build` of the project in the copy, with the service's compiler server: its errors if it
    /// failed.
    async fn compile(
        &self,
        project: &ProjectRun,
        at: usize,
        restore: bool,
    ) -> Result<Option<Vec<build_log::BuildError>>, ToolError> {
        let log = self.folders.results.join(format!("build-{at}.log"));
        let command = process::build(self.dotnet, &self.folders.in_copy(&project.path), restore, &log);
        match process::run(command, self.deadline, &self.call.cancel, &self.call.progress, None, |_| None).await?.0 {
            Ended::Exited(status) if status.success() => Ok(None),
            // Read, and each place resolved against the roots, off the async workers.
            Ended::Exited(_) => Ok(Some(crate::offload::cpu(|| {
                let log = self.folders.in_source(&std::fs::read_to_string(&log).unwrap_or_default());
                let mut errors = build_log::errors(&log);
                // Only the solution's own files are named; a place outside the roots keeps its message.
                for error in &mut errors {
                    if error.file_path.as_ref().is_some_and(|f| !self.resolved.target.contains(Path::new(f))) {
                        (error.file_path, error.line, error.column) = (None, None, None);
                    }
                }
                errors
            }))),
            Ended::TimedOut => Err(timed_out(&format!("building {}", project.name))),
            Ended::Cancelled => Err(cancelled()),
        }
    }

    /// Runs the project's selected tests and reads their results.
    async fn test(
        &self,
        project: &ProjectRun,
        at: usize,
        test_timeout: Option<u32>,
        selected: u32,
        finished: &mut u32,
    ) -> Result<ProjectResults, ToolError> {
        let results = self.folders.results.join(format!("project-{at}"));
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        // The runner stops itself first, so that it writes what ran; the kill at the deadline is the backstop.
        let session = remaining.saturating_sub(RUNNER_MARGIN).max(Duration::from_secs(1));
        let hang = test_timeout.map_or(session, |s| Duration::from_secs(s.into()).min(session));
        let commands = if project.platform {
            self.platform_commands(project, &results, session, hang)
        } else {
            vec![(self.vstest_command(project, at, &results, session, hang).await?, None)]
        };
        let name = &project.name;
        let (mut exited, mut stopped, mut crashed) = (true, None, false);
        for (command, watchdog) in commands {
            let (ended, stop) =
                process::run(command, self.deadline, &self.call.cancel, &self.call.progress, watchdog, |line| {
                    // Progress only: the results themselves come from the TRX. VSTest prints `Passed Name`, the
                    // platform `passed Name (12ms)`.
                    let line = line.trim_start();
                    FINISHED.iter().any(|p| line.starts_with(p)).then(|| {
                        *finished += 1;
                        let of = if selected > 0 { format!(" (tests selected: {selected})") } else { String::new() };
                        format!("{finished} test case(s) finished{of}; running {name}")
                    })
                })
                .await?;
            match ended {
                Ended::Cancelled => return Err(cancelled()),
                Ended::TimedOut => exited = false,
                Ended::Exited(status) => crashed |= project.platform && platform::crashed(status),
            }
            stopped = stopped.or(stop);
            if !exited || stopped.is_some() {
                break;
            }
        }
        // The files read and every frame's path resolved, in proportion to the suite: off the async workers.
        let (report, results) = crate::offload::cpu(|| {
            let mut report = trx::read(&results).unwrap_or_default();
            if project.platform {
                platform::unfinished(&mut report, &project.tests, stopped == Some(Stop::Hung), crashed);
            }
            let items = self.items(project, &mut report);
            (report, items)
        });
        let complete = exited && stopped.is_none() && !report.timed_out;
        let hung = report.hung.then(|| report.unfinished.first().map(|(_, case)| case.clone()));
        Ok(ProjectResults { results, complete, hung })
    }

    /// VSTest's run of the project: `dotnet test` with a settings file holding the filter and the session's
    /// limit, the blame collector naming a hung or crashed test.
    async fn vstest_command(
        &self,
        project: &ProjectRun,
        at: usize,
        results: &Path,
        session: Duration,
        hang: Duration,
    ) -> Result<tokio::process::Command, ToolError> {
        let settings = self.folders.results.join(format!("project-{at}.runsettings"));
        let selection = project.selection_filter(settings::filter);
        let filter = selection.as_deref().or(self.filter);
        tokio::fs::write(&settings, settings::run_settings(session, filter)).await.map_err(|e| {
            ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("writing the run settings failed: {e}"))
        })?;
        let copied = self.folders.in_copy(&project.path);
        let mut command = process::dotnet(self.dotnet, working_dir(&copied));
        command
            .arg("test")
            .arg(&copied)
            .arg("--no-build")
            .arg("--settings")
            .arg(&settings)
            .args(["--results-directory"])
            .arg(results)
            .args(["--logger", "trx", "--logger", "console;verbosity=normal", "-nologo"])
            .arg(format!("--blame-hang-timeout={}s", hang.as_secs().max(1)))
            .args(["--blame-hang-dump-type", "none"]);
        Ok(command)
    }

    /// The platform's runs of the project, one per target framework, each watched for a hang and for the
    /// session's end (the platform has no hang collector of its own that every project references).
    fn platform_commands(
        &self,
        project: &ProjectRun,
        results: &Path,
        session: Duration,
        hang: Duration,
    ) -> Vec<(tokio::process::Command, Option<Watchdog>)> {
        let selection = project.selection_filter(platform::tree_filter);
        let filter = selection.as_deref().or(self.filter);
        let copied = self.folders.in_copy(&project.path);
        let frameworks: Vec<Option<&str>> = match project.target_frameworks.as_slice() {
            [] => vec![None],
            many => many.iter().map(|f| Some(f.as_str())).collect(),
        };
        let session_end = Instant::now() + session;
        frameworks
            .into_iter()
            .map(|framework| {
                let mut command = process::dotnet(self.dotnet, working_dir(&copied));
                command.arg("run").arg("--project").arg(&copied).arg("--no-build");
                if let Some(framework) = framework {
                    command.args(["--framework", framework]);
                }
                command.arg("--").args(platform::arguments(results, framework, filter));
                (command, Some(Watchdog { session_end, idle: hang }))
            })
            .collect()
    }

    /// Each case's result, crashed ones from the blame sequence, and the selected tests that never ran.
    fn items(&self, project: &ProjectRun, report: &mut trx::RunReport) -> Vec<TestResultItem> {
        let mut items: Vec<TestResultItem> = std::mem::take(&mut report.cases)
            .into_iter()
            // A filter by name part may take a test that was not selected: it is not reported.
            .filter(|case| project.tests.is_empty() || project.tests.contains_key(&case.test))
            .map(|case| TestResultItem {
                id: case.id,
                test: case.test,
                project: project.name.clone(),
                target_framework: case.target_framework,
                outcome: case.outcome,
                duration_ms: case.duration_ms,
                message: case.message.map(|m| self.folders.in_source(&m)),
                stack_trace: case
                    .stack_trace
                    .map(|trace| self.frames(&self.folders.in_source(&trace)))
                    .unwrap_or_default(),
            })
            .collect();
        let aborted = report.aborted.join("; ");
        for (test, case) in &report.unfinished {
            let message = if report.hung {
                "It ran past the hang limit and its test process was stopped".to_owned()
            } else {
                format!("Its test process ended while it ran: {aborted}")
            };
            items.push(bare(project, case, test, TestOutcome::Crashed, Some(message)));
        }
        let seen: BTreeSet<String> = items.iter().map(|i| i.test.clone()).collect();
        for test in project.tests.keys().filter(|t| !seen.contains(*t)) {
            items.push(bare(project, test, test, TestOutcome::NotRun, None));
        }
        items
    }

    /// A stack trace's frames, those in the solution's files with their place.
    fn frames(&self, trace: &str) -> Vec<StackFrame> {
        let inside = |file: &Path| self.resolved.target.contains(file);
        trace.lines().map(str::trim).filter(|line| !line.is_empty()).map(|line| frame(line, inside)).collect()
    }
}

/// One line of a stack trace: placed when its file is `inside` the roots; a file outside keeps its method but
/// not where that file lies.
fn frame(line: &str, inside: impl Fn(&Path) -> bool) -> StackFrame {
    let named = line.rsplit_once(" in ").and_then(|(_, place)| place.rsplit_once(":line "));
    let place = named
        .and_then(|(file, line)| Some((PathBuf::from(file), line.trim().parse::<u32>().ok()?)))
        .filter(|(file, _)| inside(file));
    let text = match (named, &place) {
        (Some((file, _)), None) => line.replacen(file, OUTSIDE_THE_ROOTS, 1),
        _ => line.to_owned(),
    };
    StackFrame {
        text,
        file_path: place.as_ref().map(|(file, _)| file.display().to_string()),
        line: place.map(|(_, line)| line),
    }
}

/// Whether a failed build's errors may come from packages missing since the last restore: none from the
/// compiler but a referenced assembly not found (CS0006); the SDK's, NuGet's or MSBuild's otherwise.
fn over_packages(errors: &[build_log::BuildError]) -> bool {
    errors.iter().all(|e| !e.code.starts_with("CS") || e.code == "CS0006")
}

/// A project's folder: the SDK finds its `global.json` and NuGet configuration from there.
fn working_dir(project: &Path) -> &Path {
    project.parent().unwrap_or(Path::new("/"))
}

/// A result the runner did not report itself: a crashed case or a selected test that never ran.
fn bare(project: &ProjectRun, id: &str, test: &str, outcome: TestOutcome, message: Option<String>) -> TestResultItem {
    TestResultItem {
        id: id.to_owned(),
        test: test.to_owned(),
        project: project.name.clone(),
        target_framework: None,
        outcome,
        duration_ms: None,
        message,
        stack_trace: Vec::new(),
    }
}

/// Orders the results (worst first) and counts them.
fn finish(output: &mut RunTestsOutput) {
    output.results.sort_by(|a, b| (a.outcome, &a.project, &a.id).cmp(&(b.outcome, &b.project, &b.id)));
    let summary = &mut output.summary;
    summary.total = output.results.len() as u32;
    for result in &output.results {
        *match result.outcome {
            TestOutcome::Passed => &mut summary.passed,
            TestOutcome::Failed => &mut summary.failed,
            TestOutcome::Skipped => &mut summary.skipped,
            TestOutcome::NotRun => &mut summary.not_run,
            TestOutcome::Crashed => &mut summary.crashed,
        } += 1;
    }
}

/// A test that ran past the hang limit: refused, naming it (when the runner knows it), with what ran before it.
fn hang(project: &ProjectRun, test: Option<&str>, limits: &RunLimits, so_far: &RunTestsOutput) -> ToolError {
    let mut so_far = so_far.clone();
    finish(&mut so_far);
    let seconds = limits.test_timeout.map_or(limits.limit.as_secs(), u64::from);
    let (message, suggestion) = match test {
        Some(test) => (
            format!("The test {test} of {} ran past its limit of {seconds} s and was stopped", project.name),
            "Fix the hang, or raise testTimeoutSeconds if the test is only slow",
        ),
        // The platform's runner reports finished tests only: without a selection, the hung one has no name.
        None => (
            format!("A test of {} ran past its limit of {seconds} s and was stopped", project.name),
            "Run its tests by id (as find_tests returns them) to have the hanging one named",
        ),
    };
    let mut error = ToolError::new(ErrorCode::TIMEOUT, message);
    if let Some(test) = test {
        error = error.detail("test", test);
    }
    error
        .detail("project", project.name.clone())
        .detail("limitSeconds", seconds)
        .detail("resultsSoFar", serde_json::to_value(&so_far).unwrap_or_default())
        .suggest(suggestion)
}

fn timed_out(what: &str) -> ToolError {
    ToolError::new(ErrorCode::TIMEOUT, format!("The call's time limit passed while {what}"))
        .suggest("Raise timeoutSeconds, or run fewer tests")
}

fn cancelled() -> ToolError {
    ToolError::new(ErrorCode::TIMEOUT, "The call was cancelled; the test run was stopped")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_outside_the_roots_keeps_its_method_but_not_its_file() {
        let inside = |file: &Path| file.starts_with("/ws");
        let placed = frame("at Lib.Greeter.Hello() in /ws/Lib/Greeter.cs:line 5", inside);
        assert_eq!((placed.file_path.as_deref(), placed.line), (Some("/ws/Lib/Greeter.cs"), Some(5)));
        assert_eq!(placed.text, "at Lib.Greeter.Hello() in /ws/Lib/Greeter.cs:line 5");
        let outside = frame("at Evil.Leak() in /home/me/secret/Leak.cs:line 9", inside);
        assert_eq!((outside.file_path, outside.line), (None, None));
        assert_eq!(outside.text, "at Evil.Leak() in <outside the roots>:line 9");
        let bare = frame("at System.Threading.Thread.StartCallback()", inside);
        assert_eq!(bare.text, "at System.Threading.Thread.StartCallback()");
    }

    #[test]
    fn a_large_share_of_a_large_project_runs_without_a_filter() {
        let project = |selected: usize, test_count: u32| ProjectRun {
            name: "Tests".to_owned(),
            path: PathBuf::from("/s/Tests.csproj"),
            platform: false,
            target_frameworks: Vec::new(),
            test_count,
            tests: (0..selected).map(|i| (format!("Tests.T.M{i}"), TestFramework::XUnit)).collect(),
        };
        assert_eq!(project(200, 600).selection_filter(settings::filter), None);
        assert_eq!(project(1509, 2400).selection_filter(settings::filter), None);
        // A small project's selection, however large a share, and a small share of a large one keep their filter.
        assert!(project(2, 5).selection_filter(settings::filter).is_some_and(|f| f.contains("Tests.T.M1")));
        assert!(project(300, 1000).selection_filter(settings::filter).is_some());
    }

    #[test]
    fn an_answer_over_the_cap_drops_the_passed_cases_then_the_least_bad() {
        let case = |id: usize, outcome| TestResultItem {
            id: format!("Tests.T.M{id:05}"),
            test: format!("Tests.T.M{id:05}"),
            project: "Tests".to_owned(),
            target_framework: Some("net10.0".to_owned()),
            outcome,
            duration_ms: Some(1),
            message: Some("x".repeat(200)),
            stack_trace: Vec::new(),
        };
        let mut output = RunTestsOutput {
            results: (0..10).map(|i| case(i, TestOutcome::Crashed)).collect(),
            passed_omitted: 0,
            results_omitted: 0,
            summary: TestRunSummary { passed: 2000, ..TestRunSummary::default() },
            projects: vec!["Tests".to_owned()],
            complete: true,
            files_changed_during_run: false,
            not_followed: Vec::new(),
            omitted_outside_roots: 0,
            resolved_from_solution: "/s.sln".to_owned(),
        };
        output.results.extend((10..3000).map(|i| case(i, TestOutcome::Failed)));
        output.results.extend((3000..5000).map(|i| case(i, TestOutcome::Passed)));
        fit(&mut output, 100_000);
        let bytes = serde_json::to_vec(&output).expect("json").len();
        assert!(bytes <= 100_000, "{bytes}");
        assert_eq!(output.passed_omitted, 2000);
        assert_eq!(output.results.len() as u32 + output.results_omitted, 3000);
        assert!(output.results[..10].iter().all(|r| r.outcome == TestOutcome::Crashed));
        assert!(output.results.len() > 100, "as many as fit: {}", output.results.len());
    }
}
