//! find_tests: the tests a change reaches. The change is a symbol, the files' difference from a git revision,
//! an operation of the history or a kept plan; the host follows the solution's uses from it up to the tests.

pub(crate) mod run;

pub use run::run_tests;

use super::changes;
use super::{Call, Paged, Resolved, convert, git};
use crate::offload;
use crate::plans::Plan;
use convert::RootGate;
use protocol::host::ask;
use protocol::host::{ChangeOrigin, ChangedLines, EditKind, FindTestsRequest, FoundTest, FoundTests, LineRange};
use protocol::tools::SymbolItem;
use protocol::tools::plans::OperationState;
use protocol::tools::testing::{FindTestsInput, FindTestsOutput, NotFollowed, TestItem, TestProjectItem};
use protocol::{ErrorCode, ToolError};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// What the whole listing carries besides its tests.
struct Header {
    changed: Vec<SymbolItem>,
    projects: Vec<TestProjectItem>,
}

pub async fn find_tests(call: &Call, input: FindTestsInput) -> Result<FindTestsOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let change = Change::of_find(&input);
    if change.given() != 1 {
        return Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            "Give exactly one origin: filePath with line and column, changedSince, operationId or planId",
        )
        .detail("field", "changedSince"));
    }
    let (resolved, origin, not_followed) = origin(call, &change).await?;
    let canonical = serde_json::json!({
        "solution": resolved.target.solution, "origin": convert::stable_id(&format!("{origin:?}")),
        "project": input.project,
    });
    let paged = Paged::new("find_tests", canonical, page_size, input.cursor.as_deref(), "the tests");
    let request = FindTestsRequest { origin, project: input.project.clone() };
    let page = call.page(&resolved, paged, ask::find_tests(request), |found, gate| Ok(listing(gate, &found))).await?;
    Ok(FindTestsOutput {
        changed_symbols: page.listing.header.changed.clone(),
        tests: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        projects: page.listing.header.projects.clone(),
        selection: "static".into(),
        not_followed,
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

/// What of the tests found lies inside the roots: a test project the solution lists from elsewhere, and a test
/// declared in a file from elsewhere, are left out of find_tests, run_tests and verify alike, each counted
/// by the gate that refused it.
pub(crate) struct Inside<'a> {
    projects: HashSet<&'a str>,
}

impl<'a> Inside<'a> {
    /// The projects of `found` whose files `gate` admits.
    pub fn of(found: &'a FoundTests, gate: &RootGate) -> Self {
        Self {
            projects: found.projects.iter().map(|p| p.file_path.as_str()).filter(|path| gate.admits(path)).collect(),
        }
    }

    pub fn project(&self, file_path: &str) -> bool {
        self.projects.contains(file_path)
    }

    /// Whether the test is of a project inside and declared inside (asked of `gate` only then).
    pub fn test(&self, test: &FoundTest, gate: &RootGate) -> bool {
        self.project(&test.project_path) && test.method.location.as_ref().is_none_or(|l| gate.admits(&l.span.file))
    }
}

/// The tests and test projects found, those outside the roots left out and counted ([`Inside`]).
fn listing(gate: &RootGate, found: &FoundTests) -> (Header, Vec<TestItem>) {
    let inside = Inside::of(found, gate);
    let mut tests: Vec<TestItem> = found
        .tests
        .iter()
        .filter(|test| inside.test(test, gate))
        .map(|test| TestItem {
            id: test.fully_qualified_name.clone(),
            framework: test.framework.name().into(),
            project: test.project.clone(),
            target_frameworks: test.target_frameworks.clone(),
            method: convert::symbol(&test.method.symbol),
            location: test.method.location.as_ref().map(convert::site),
            reason: test.reason.clone(),
        })
        .collect();
    convert::canonical(&mut tests, |a, b| (&a.project, &a.id).cmp(&(&b.project, &b.id)));
    let mut selected: HashMap<&str, u32> = HashMap::new();
    for test in &tests {
        *selected.entry(test.project.as_str()).or_default() += 1;
    }
    let projects = found
        .projects
        .iter()
        .filter(|project| inside.project(&project.file_path))
        .map(|project| {
            let taken = selected.get(project.name.as_str()).copied().unwrap_or(0);
            TestProjectItem {
                name: project.name.clone(),
                project_path: project.file_path.clone(),
                frameworks: project.frameworks.iter().map(|f| f.name().to_owned()).collect(),
                target_frameworks: project.target_frameworks.clone(),
                test_count: project.test_count,
                selected: taken,
                not_selected: project.test_count.saturating_sub(taken),
            }
        })
        .collect();
    let changed = found.changed.iter().map(|symbol| gate.symbol_item(symbol)).collect();
    (Header { changed, projects }, tests)
}

/// A change as `find_tests` and `run_tests` take it: a position, `changedSince`, `operationId` or `planId`.
struct Change<'a> {
    file_path: Option<&'a str>,
    line: Option<u32>,
    column: Option<u32>,
    solution_path: Option<&'a str>,
    changed_since: Option<&'a str>,
    operation_id: Option<&'a str>,
    plan_id: Option<&'a str>,
}

macro_rules! change_of {
    ($input:expr) => {
        Change {
            file_path: $input.file_path.as_deref(),
            line: $input.line,
            column: $input.column,
            solution_path: $input.solution_path.as_deref(),
            changed_since: $input.changed_since.as_deref(),
            operation_id: $input.operation_id.as_deref(),
            plan_id: $input.plan_id.as_deref(),
        }
    };
}

impl<'a> Change<'a> {
    fn of_find(input: &'a FindTestsInput) -> Self {
        change_of!(input)
    }

    fn of_run(input: &'a protocol::tools::testing::RunTestsInput) -> Self {
        change_of!(input)
    }

    fn has_position(&self) -> bool {
        self.file_path.is_some() || self.line.is_some() || self.column.is_some()
    }

    /// How many of the origins are given.
    fn given(&self) -> usize {
        [self.has_position(), self.changed_since.is_some(), self.operation_id.is_some(), self.plan_id.is_some()]
            .iter()
            .filter(|g| **g)
            .count()
    }
}

/// The solution and the change, from the one origin `input` gives, and what of a `changedSince` change
/// could not be followed.
async fn origin(call: &Call, input: &Change<'_>) -> Result<(Resolved, ChangeOrigin, Vec<NotFollowed>), ToolError> {
    let solution_path = input.solution_path;
    if input.has_position() {
        let (Some(file), Some(line), Some(column)) = (input.file_path, input.line, input.column) else {
            let missing = if input.file_path.is_none() {
                "filePath"
            } else if input.line.is_none() {
                "line"
            } else {
                "column"
            };
            return Err(ToolError::new(
                ErrorCode::MISSING_REQUIRED_PARAM,
                "A position needs filePath, line and column",
            )
            .detail("field", missing));
        };
        let (resolved, position) = call.position_at(file, line, column, solution_path)?;
        return Ok((resolved, ChangeOrigin::Symbol(position), Vec::new()));
    }
    if let Some(id) = input.plan_id {
        let plan = &call.services.plans.get(id)?.plan;
        let resolved = call.resolve(Some(&plan.solution.display().to_string()))?;
        let origin = plan_lines(&resolved, plan).await?;
        return Ok((resolved, origin, Vec::new()));
    }
    let resolved = call.resolve(solution_path)?;
    if let Some(id) = input.operation_id {
        let history = resolved.workspace.history();
        let id = id.to_owned();
        let operation = tokio::task::spawn_blocking(move || history.read(&id))
            .await
            .map_err(|e| ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("reading the history failed: {e}")))??;
        // The files hold the side the operation is in now; the other side is what it changed.
        let applied = operation.state == OperationState::Applied;
        let files = operation
            .files
            .into_iter()
            .filter_map(|file| {
                let (now, other) = if applied { (file.after, file.before) } else { (file.before, file.after) };
                now.map(|_| (file.path, other.map(|c| String::from_utf8_lossy(&c.bytes).into_owned())))
            })
            .collect();
        let origin = lines(&resolved, files).await?;
        return Ok((resolved, origin, Vec::new()));
    }
    let revision = input.changed_since.unwrap_or_default();
    // The solution's folder and those of the projects it reaches in its repository.
    let target = &resolved.target;
    let folders: Vec<PathBuf> =
        target.solution.parent().map(PathBuf::from).into_iter().chain(target.reach.inside.iter().cloned()).collect();
    let changed = git::changed_lines(&folders, revision, resolved.workspace.request_timeout()).await?;
    // Each path resolved on disk, symlinks followed: work in proportion to the diff, off the async workers.
    let (changed, elsewhere): (Vec<(PathBuf, Vec<LineRange>)>, Vec<_>) =
        offload::cpu(|| changed.into_iter().partition(|(path, _)| target.contains(path)));
    let not_followed = [
        not_followed("projectOutsideRepository", target.reach.outside.iter()),
        not_followed("fileOutsideRoots", elsewhere.iter().map(|(path, _)| path)),
    ]
    .into_iter()
    .flatten()
    .collect();
    // The lines are the files' on disk now: the host must see the same texts.
    let workspace = call.load(&resolved.workspace).await?;
    workspace.sync_files(changed.iter().map(|(path, _)| path.clone()).collect(), &call.cancel).await?;
    let files =
        changed.into_iter().map(|(path, ranges)| ChangedLines { file: path.display().to_string(), ranges }).collect();
    Ok((resolved, ChangeOrigin::Lines(files), not_followed))
}

/// `paths` left out for `reason`, counted, the first named; none when there are none.
fn not_followed<'p>(reason: &str, paths: impl ExactSizeIterator<Item = &'p PathBuf>) -> Option<NotFollowed> {
    let count = paths.len() as u32;
    let paths = paths.take(20).map(|path| path.display().to_string()).collect();
    (count > 0).then(|| NotFollowed { reason: reason.into(), count, paths })
}

/// What `plan` would change, on the files as they are now.
pub(crate) async fn plan_lines(resolved: &Resolved, plan: &Plan) -> Result<ChangeOrigin, ToolError> {
    let files = plan
        .edits
        .iter()
        .filter(|edit| edit.kind != EditKind::Create)
        .map(|edit| (PathBuf::from(&edit.path), (edit.kind == EditKind::Modify).then(|| edit.new_text.clone())))
        .collect();
    lines(resolved, files).await
}

/// Each file's changed lines, from its text on disk now and the other side of the change (none: the change
/// removes it, or it created it: the whole file); files outside the roots, or gone, are left out.
async fn lines(resolved: &Resolved, files: Vec<(PathBuf, Option<String>)>) -> Result<ChangeOrigin, ToolError> {
    let target = resolved.target.clone();
    let lines = tokio::task::spawn_blocking(move || {
        files
            .into_iter()
            .filter(|(path, _)| target.contains(path))
            .filter_map(|(path, other)| {
                let current = String::from_utf8_lossy(&std::fs::read(&path).ok()?).into_owned();
                let ranges = other.map_or_else(changes::whole, |other| changes::changed_lines(&current, &other));
                Some(ChangedLines { file: path.display().to_string(), ranges })
            })
            .collect()
    })
    .await
    .map_err(|e| ToolError::new(ErrorCode::FILESYSTEM_ERROR, format!("reading the changed files failed: {e}")))?;
    Ok(ChangeOrigin::Lines(lines))
}
