//! The error catalog (seed 000 §2.2 plus the codes later contracts add) and the failure envelope every tool
//! returns as `structuredContent` with `isError: true`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

macro_rules! catalog {
    ($($name:ident = $number:literal: $summary:literal,)*) => {
        /// A catalog code: its name travels in tool answers, its position in the catalog to the host (the C#
        /// enum is generated from this list), its number groups it (1xxx input, 2xxx resource, 3xxx semantic,
        /// 4xxx system, 5xxx environment).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, bincode::Encode, bincode::Decode)]
        #[allow(non_camel_case_types)]
        pub enum ErrorCode { $($name,)* }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name,)*];

            pub fn name(self) -> &'static str {
                match self { $(ErrorCode::$name => stringify!($name),)* }
            }

            pub fn number(self) -> u16 {
                match self { $(ErrorCode::$name => $number,)* }
            }

            pub fn summary(self) -> &'static str {
                match self { $(ErrorCode::$name => $summary,)* }
            }
        }
    };
}

catalog! {
    INVALID_SOURCE_PATH = 1001: "Source file path is malformed",
    INVALID_TARGET_PATH = 1002: "Target file path is malformed",
    INVALID_SYMBOL_NAME = 1003: "Symbol name contains invalid characters",
    INVALID_NAMESPACE = 1004: "Namespace format is invalid",
    MISSING_REQUIRED_PARAM = 1005: "Required parameter not provided",
    INVALID_LINE_NUMBER = 1006: "Line number out of valid range",
    INVALID_POSITION = 1007: "Column out of range for the line",
    INVALID_PARAMETER = 1008: "A parameter is unknown or has the wrong type or value",
    CURSOR_INVALID = 1009: "The cursor is malformed or belongs to another request",
    SOURCE_FILE_NOT_FOUND = 2001: "Source file does not exist",
    SOURCE_NOT_IN_WORKSPACE = 2002: "Source file not part of loaded solution or outside the workspace roots",
    SYMBOL_NOT_FOUND = 2003: "No symbol found at specified location",
    SYMBOL_AMBIGUOUS = 2004: "Multiple symbols match; provide line number",
    WORKSPACE_NOT_LOADED = 2005: "No solution currently loaded",
    SOLUTION_NOT_FOUND = 2006: "No solution or project file could be found",
    PROJECT_NOT_FOUND = 2007: "No project of the solution has that name or path",
    CURSOR_EXPIRED = 2008: "The result the cursor pages through is no longer retained",
    CLIENT_ROOTS_UNKNOWN = 2009: "The client offered MCP roots but has not listed them, so no path can be checked",
    PLAN_NOT_FOUND = 2010: "No plan with that id: unknown, expired, evicted or already applied",
    OPERATION_NOT_FOUND = 2011: "No operation with that id in the solution's history",
    CODE_ACTION_NOT_FOUND = 2012: "No code action with that id: unknown, expired, or no longer offered there",
    REVISION_NOT_FOUND = 2013: "The git revision is unknown to the solution's repository",
    TEST_NOT_FOUND = 2014: "No test of the solution has that id",
    JOB_NOT_FOUND = 2015: "No job of yours with that id: unknown, expired or another user's",
    SYMBOL_NOT_MOVEABLE = 3001: "Symbol type cannot be moved (method, field, etc.)",
    SYMBOL_IS_NESTED = 3002: "Nested types cannot be moved independently",
    NAME_COLLISION = 3003: "Target location already has type with same name",
    SAME_LOCATION = 3004: "Source and target are the same",
    CIRCULAR_REFERENCE = 3005: "Move would create circular dependency",
    BREAKS_ACCESSIBILITY = 3006: "Move would break accessibility constraints",
    SAME_NAMESPACE = 3007: "The type is already in the target namespace",
    SYMBOL_NOT_IN_SOURCE = 3008: "The symbol is declared in a referenced assembly, not in the solution's source",
    OPERATION_NOT_APPLICABLE = 3009: "The operation is already undone (undo) or not undone (redo)",
    NOT_A_TEST_PROJECT = 3010: "The project declares no test a test framework runs",
    TESTS_FAILED = 3011: "Tests that passed before the write fail after it; the write was rolled back",
    PARAMETER_IN_USE = 3012: "A parameter to remove is still used in a body",
    BINDING_CHANGED = 3013: "The change would make calls bind to another member",
    EVALUATION_ORDER_CHANGED = 3014: "Arguments with side effects would run in another order, or not at all",
    STILL_REFERENCED = 3015: "What would be deleted is still referenced",
    MAY_BE_USED_ELSEWHERE = 3016: "What would be deleted may be used without a reference in the solution",
    REFERENCE_MISSING = 3017: "The moved code uses a library its destination project does not reference",
    WORKSPACE_BUSY = 4001: "Another operation in progress",
    FILESYSTEM_ERROR = 4002: "Cannot read/write files",
    ROSLYN_ERROR = 4003: "Roslyn operation failed unexpectedly",
    COMPILATION_ERROR = 4004: "Changes would break compilation",
    TIMEOUT = 4005: "Operation exceeded time limit",
    STALE_PLAN = 4006: "The edits cannot be carried onto files changed since them, or differ from the preview (exact)",
    CURSOR_STALE = 4007: "The solution changed since the cursor was issued",
    CAP_EXCEEDED = 4008: "The result exceeds a hard limit of the service",
    TOO_MANY_REQUESTS = 4009: "Too many requests in flight for the session or the service",
    CODE_ACTION_STALE = 4010: "The solution changed since the code action was listed",
    BUILD_FAILED = 4011: "The build a test run needs failed",
    LOADING = 4012: "The solution is still loading; its job answers once it has",
    GENERATOR_NOT_BUILT = 4013: "A project references an analyzer or source generator whose assembly is not built",
    MSBUILD_NOT_FOUND = 5001: "MSBuild not available",
    ROSLYN_NOT_AVAILABLE = 5002: "Roslyn assemblies not loadable",
    SDK_NOT_FOUND = 5003: ".NET SDK not found",
    SOLUTION_LOAD_FAILED = 5004: "Could not load solution",
    TEST_RUNS_DISABLED = 5005: "Running tests is turned off for this service",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A tool failure as the client sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolError {
    // Published as a plain name: every tool's output schema repeats this type, and the whole catalog in each
    // of them would be a sixth of `tools/list`. The catalog is listed in docs/tools.md.
    /// A catalog code (`SYMBOL_NOT_FOUND`, `WORKSPACE_BUSY`, ...).
    #[schemars(with = "String", regex(pattern = CODE_PATTERN))]
    pub code: ErrorCode,
    pub message: String,
    /// Context of the failure, by name (`file`, `line`, `rolledBack`, ...).
    // Boxed to keep `Result<_, ToolError>` small on the happy path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Box<Map<String, Value>>>,
    /// What to try next.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), details: None, suggestions: Vec::new() }
    }

    /// Adds one `details` entry.
    pub fn detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details.get_or_insert_with(Default::default).insert(key.to_owned(), value.into());
        self
    }

    pub fn suggest(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestions.push(suggestion.into());
        self
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

/// A catalog code's name, as answers give it.
pub const CODE_PATTERN: &str = "^[A-Z][A-Z_]*$";

/// `{success: false, error: {...}}`: the `structuredContent` of every failed tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorEnvelope {
    /// Always false.
    pub success: bool,
    pub error: ToolError,
}

impl From<ToolError> for ErrorEnvelope {
    fn from(error: ToolError) -> Self {
        Self { success: false, error }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_unique_and_names_serialize_as_themselves() {
        let mut numbers: Vec<u16> = ErrorCode::ALL.iter().map(|c| c.number()).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), ErrorCode::ALL.len());
        for code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).expect("serializes"), Value::String(code.name().into()));
        }
    }

    #[test]
    fn envelope_matches_seed_shape() {
        let envelope = ErrorEnvelope::from(
            ToolError::new(ErrorCode::SYMBOL_NOT_FOUND, "No symbol").detail("line", 3).suggest("Check the line"),
        );
        let json = serde_json::to_value(&envelope).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({"success": false, "error": {"code": "SYMBOL_NOT_FOUND", "message": "No symbol",
                "details": {"line": 3}, "suggestions": ["Check the line"]}})
        );
    }
}
