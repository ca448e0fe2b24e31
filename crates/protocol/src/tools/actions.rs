//! get_code_actions and apply_code_action: Roslyn's own refactorings and code fixes (the IDE's light bulb),
//! listed at a place under ids bound to the solution's state, applied as plans.

use super::groups::{tool_input, tool_output};
use super::plans::WriteOutput;
use super::{Location, diagnostics::SeverityName};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct GetCodeActionsInput(position;) {
        /// Selection end, with `endColumn` (exclusive).
        #[serde(default)]
        #[schemars(range(min = 1))]
        pub end_line: Option<u32>,
        #[serde(default)]
        #[schemars(range(min = 1))]
        pub end_column: Option<u32>,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// Offered by a refactoring provider at the place.
    Refactoring,
    /// Fixes a diagnostic that touches the place.
    Fix,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FixAllScopeName {
    Document,
    Project,
    Solution,
}

tool_output! {
    pub struct CodeActionsOutput {
        /// Fixes first (by the diagnostic's place), then refactorings; nested variants listed one by one.
        pub actions: Vec<CodeActionItem>,
        pub count: u32,
        /// The solution snapshot the ids are bound to changes with any edit of its files: list again then.
        pub expires_at: String,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeActionItem {
    /// Pass to `apply_code_action`. The same action on the same solution state has the same id; any change
    /// of the solution makes it stale (CODE_ACTION_STALE).
    pub id: String,
    /// The action's own title (the last of `path`).
    pub title: String,
    /// Titles from the top-level action down, for a variant of a nested action.
    pub path: Vec<String>,
    pub kind: ActionKind,
    /// The Roslyn provider that offers it.
    pub provider: String,
    /// The diagnostic a fix fixes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostic: Option<FixedDiagnostic>,
    /// Scopes `apply_code_action { fixAll }` accepts for this fix: every occurrence of the diagnostic there.
    pub fix_all_scopes: Vec<FixAllScopeName>,
    /// The action takes `options` (Roslyn would show a dialog); these are its defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<CodeActionOptions>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FixedDiagnostic {
    pub code: String,
    pub message: String,
    pub severity: SeverityName,
    pub location: Location,
}

/// What an action that would show a dialog takes instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeActionOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extract_interface: Option<ExtractInterfaceArgs>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtractInterfaceArgs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_file: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<String>>,
}

tool_input! {
    pub struct ApplyCodeActionInput(; preview) {
        pub id: String,
        /// One of the action's `fixAllScopes`.
        #[serde(default)]
        pub fix_all: Option<FixAllScopeName>,
        #[serde(default)]
        pub options: Option<CodeActionOptions>,
    }
}

/// What apply_code_action did, or (in a preview) would do.
pub type ApplyCodeActionOutput = WriteOutput<CodeActionOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeActionOutline {
    /// The action's title, with ` (fix all in <scope>)` for a fix-all.
    pub action: String,
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix_all: Option<FixAllScopeName>,
    pub files_changed: u32,
}
