//! find_tests: the tests a change reaches.

use super::common::{SourceSite, SymbolInfo, SymbolItem};
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    /// Exactly one origin: a position (`filePath`, `line`, `column`), `changedSince`, `operationId` or `planId`.
    pub struct FindTestsInput(change; page "Tests") {
        #[serde(default)]
        pub project: Option<String>,
    }
}

/// A test method a change reaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestItem {
    /// The test's id as the runners' filters name it: `Namespace.Class.Method` (a nested class joined
    /// with `+`); the cases of a parametrized test share it.
    pub id: String,
    /// `xunit`, `NUnit`, `MSTest` or `TUnit`.
    pub framework: String,
    /// The test project's name.
    pub project: String,
    /// Its target frameworks when it has several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_frameworks: Vec<String>,
    pub method: SymbolInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
    /// How the change reaches it: the symbols from a changed one to the test, each fully qualified; the
    /// shortest such chain.
    pub reason: Vec<String>,
}

/// A test project with what the selection took of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestProjectItem {
    pub name: String,
    pub project_path: String,
    /// The frameworks of its tests.
    pub frameworks: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_frameworks: Vec<String>,
    /// Test methods it declares (a parametrized test counts once).
    pub test_count: u32,
    pub selected: u32,
    pub not_selected: u32,
}

/// Part of a change a selection could not follow, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotFollowed {
    /// `projectOutsideRepository`: a project the solution references lies outside its repository (or, with
    /// none, outside the solution's folder): outside the walls, its files' changes are not seen.
    /// `fileOutsideRoots`: a changed file resolves outside the workspace roots (through a link).
    /// `referenceOutsideRoots` (run_tests): a library a test project references lies outside the run's copy
    /// of the repository; the project is left out, not built where the library lies.
    pub reason: String,
    pub count: u32,
    /// The first of them (at most 20).
    pub paths: Vec<String>,
}

tool_output! {
    pub struct FindTestsOutput {
        /// The members and types the search started from, sorted by name.
        pub changed_symbols: Vec<SymbolItem>,
        /// Sorted by project, then id.
        pub tests: Vec<TestItem>,
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
        /// Every test project of the solution (or the one asked for), sorted by name.
        pub projects: Vec<TestProjectItem>,
        /// `static`: the selection follows the code as the compiler binds it; what reflection, a DI container
        /// or a string names is invisible to it.
        pub selection: String,
        /// What of a `changedSince` change was not followed, with why; absent when all of it was.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub not_followed: Vec<NotFollowed>,
    }
}

tool_input! {
    /// What to run, exactly one of: `tests` (ids `find_tests` returned); the tests a change reaches (a position,
    /// `changedSince`, `operationId` or `planId`, as `find_tests` takes them); `filter`; or `project` alone (all
    /// its tests). `project` also narrows any of the others to one test project.
    pub struct RunTestsInput(change;) {
        #[serde(default)]
        pub tests: Option<Vec<String>>,
        /// A VSTest filter (`FullyQualifiedName~Cart&Category!=Slow`).
        #[serde(default)]
        pub filter: Option<String>,
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        #[schemars(range(min = 10, max = 3600))]
        pub timeout_seconds: Option<u32>,
        #[serde(default)]
        #[schemars(range(min = 1, max = 3600))]
        pub test_timeout_seconds: Option<u32>,
    }
}

/// How a test case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum TestOutcome {
    /// It ended its test process (or was running when the process died).
    Crashed,
    Failed,
    /// Selected, but the run stopped before it (a crash, the time limit).
    NotRun,
    Skipped,
    Passed,
}

/// A frame of a failure's stack trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StackFrame {
    /// The frame as the runtime wrote it (`at Shop.Cart.Total() in /src/Cart.cs:line 12`).
    pub text: String,
    /// Its source file, when it is a file of the solution inside the workspace roots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// One test case's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResultItem {
    /// The case: the test's fully qualified name, with the arguments of a parametrized case as its runner
    /// names them.
    pub id: String,
    /// The test it is a case of, as `find_tests` names it.
    pub test: String,
    pub project: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_framework: Option<String>,
    pub outcome: TestOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stack_trace: Vec<StackFrame>,
}

/// Counts and times of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestRunSummary {
    /// Test cases with a result, and selected tests that did not run.
    pub total: u32,
    pub passed: u32,
    pub failed: u32,
    pub skipped: u32,
    pub not_run: u32,
    pub crashed: u32,
    /// Time building the test projects (and what they reference).
    pub build_ms: u64,
    /// Time running their tests.
    pub run_ms: u64,
}

tool_output! {
    pub struct RunTestsOutput {
        /// Crashed, failed, not run, skipped, then passed; each by project and id.
        pub results: Vec<TestResultItem>,
        /// Passed cases left out of `results` because listing them would pass the service's response cap
        /// (the summary counts them).
        #[serde(default, skip_serializing_if = "is_zero")]
        pub passed_omitted: u32,
        /// Cases that did not pass left out too, the last of `results`' order first, when even those would pass
        /// the cap (a change that breaks thousands of tests): the summary counts them.
        #[serde(default, skip_serializing_if = "is_zero")]
        pub results_omitted: u32,
        pub summary: TestRunSummary,
        /// The test projects that ran, sorted by name.
        pub projects: Vec<String>,
        /// False when the time limit stopped the run: the results are those so far.
        pub complete: bool,
        /// Whether the solution's files changed while the tests ran (the build compiled them as they were
        /// when the call began).
        pub files_changed_during_run: bool,
        /// What of a `changedSince` change was not followed, with why; absent when all of it was.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub not_followed: Vec<NotFollowed>,
    }
}

pub(crate) fn is_zero(n: &u32) -> bool {
    *n == 0
}
