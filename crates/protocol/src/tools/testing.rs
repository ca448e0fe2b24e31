//! find_tests: the tests a change reaches.

use super::common::{SourceSite, SymbolInfo, SymbolItem};
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    /// Exactly one origin: a position (`filePath`, `line`, `column`), `changedSince`, `operationId` or `planId`.
    pub struct FindTestsInput(place; page "Tests") {
        /// A git revision (`HEAD`, `main`, `HEAD~3`, a commit id): the members whose declarations or bodies
        /// differ between it and the files on disk, uncommitted and untracked `.cs` files included.
        #[serde(default)]
        #[schemars(length(min = 1, max = 256))]
        pub changed_since: Option<String>,
        /// An operation of `list_operations`: the members the write changed.
        #[serde(default)]
        pub operation_id: Option<String>,
        /// A plan a preview returned: the members applying it would change.
        #[serde(default)]
        pub plan_id: Option<String>,
        /// Only the tests of this test project (name or project file path).
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
    }
}
