//! Fields several tools share, written once. `tool_input!`: a tool's input struct with its argument groups
//! (serde's `flatten` cannot do it: it drops `deny_unknown_fields` and the field path of a refusal).
//! `tool_output!`: an answer ending with what every answer from the host says of itself
//! (`omittedOutsideRoots`, `resolvedFromSolution`).
//!
//! `pub struct Name(head; tail) { ... }` puts a group before the struct's own fields and one after them;
//! either may be empty. Heads: `position` (`filePath`, `line`, `column`, `solutionPath`), `place` (the same,
//! optional), `change` (a `place`, `changedSince`, `operationId` or `planId`: what changed), `target` (a type
//! name or a `place`), `moved` (the type a move takes: `sourceFile`, `symbolName`, `line`).
//! Tails: `page "Items"` (`pageSize`, `cursor`), `write` (`solutionPath`, `preview`, `verify`), `preview` alone
//! (`preview`, `verify`: for inputs whose head has `solutionPath`).

/// A C# identifier path: `Name` or `Outer.Name`.
pub const NAME_PATTERN: &str = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$";
/// An absolute Unix or Windows path of a `.cs` file.
pub const CS_PATH_PATTERN: &str = r"^[A-Za-z]:\\.*\.cs$|^/.*\.cs$";

macro_rules! tool_input {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($($head:ident)?; $($tail:tt)*) { $($body:tt)* }
    ) => {
        $crate::tools::groups::tool_input!(@tail [$(#[$meta])* pub struct $name] [$($head)?] [$($tail)*] [$($body)*]);
    };
    (@tail $decl:tt $head:tt [page $unit:literal] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl $head [
            $($fields)*
            #[doc = concat!($unit, " per page (default 100; capped at the service's maximum page size, 200 unless set lower).")]
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub page_size: Option<u32>,
            /// `nextCursor` of the previous page; omit for the first page.
            #[serde(default)]
            pub cursor: Option<String>,
        ]);
    };
    (@tail $decl:tt $head:tt [write] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@tail $decl $head [preview] [
            $($fields)*
            /// Solution or project to use; found from the source file when omitted.
            #[serde(default)]
            pub solution_path: Option<String>,
        ]);
    };
    (@tail $decl:tt $head:tt [preview] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl $head [
            $($fields)*
            /// Compute the plan and return it with its `planId`, writing nothing (default false): `apply_plan`
            /// then writes exactly that plan.
            #[serde(default)]
            pub preview: Option<bool>,
            /// `compile` (default) or `tests`: run the tests the write reaches after it, and roll it back if one
            /// that passed before fails (TESTS_FAILED).
            #[serde(default)]
            pub verify: Option<$crate::tools::plans::Verify>,
            /// Seconds to wait in line, in arrival order, while another write holds the solution (default 30, at most
            /// 300); past it, or at once with 0, WORKSPACE_BUSY naming the holder.
            #[serde(default)]
            #[schemars(range(max = 300))]
            pub wait_seconds: Option<u32>,
        ]);
    };
    (@tail $decl:tt $head:tt [] $fields:tt) => {
        $crate::tools::groups::tool_input!(@head $decl $head $fields);
    };
    (@head $decl:tt [position] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [] [
            /// Source file, absolute or relative to the workspace root.
            pub file_path: String,
            /// 1-based line.
            #[schemars(range(min = 1))]
            pub line: u32,
            /// 1-based column (UTF-16 code units, as editors count for most text).
            #[schemars(range(min = 1))]
            pub column: u32,
            /// Solution or project to use; found from the file when omitted.
            #[serde(default)]
            pub solution_path: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [target] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [place] [
            /// Fully qualified type name (`Shop.Core.Services.IRepository<T>`, or the metadata name
            /// `Shop.Core.Services.IRepository`1`); or give `filePath`, `line` and `column` instead.
            #[serde(default)]
            pub type_name: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [change] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [place] [
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
            $($fields)*
        ]);
    };
    (@head $decl:tt [place] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [] [
            /// Source file of the position (with `line` and `column`), absolute or relative to the workspace root.
            #[serde(default)]
            pub file_path: Option<String>,
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub line: Option<u32>,
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub column: Option<u32>,
            /// Solution or project to use; found from the file (or the session's workspace) when omitted.
            #[serde(default)]
            pub solution_path: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [moved] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [] [
            /// Absolute path of the file declaring the type (relative paths are taken from the workspace root).
            #[schemars(regex(pattern = $crate::tools::groups::CS_PATH_PATTERN))]
            pub source_file: String,
            /// Name of the type to move, simple or fully qualified.
            #[schemars(length(min = 1), regex(pattern = $crate::tools::groups::NAME_PATTERN))]
            pub symbol_name: String,
            /// 1-based line of the declaration, to choose among types of the same name.
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub line: Option<u32>,
            $($fields)*
        ]);
    };
    (@head [$($decl:tt)*] [] [$($fields:tt)*]) => {
        #[derive(Debug, Clone, PartialEq, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        $($decl)* { $($fields)* }
    };
}

pub(crate) use tool_input;

macro_rules! tool_output {
    ($(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        $(#[$meta])*
        pub struct $name {
            $($fields)*
            /// Places the host found in files whose real path (symlinks followed) lies outside the workspace
            /// roots: left out of this answer, with their text, and counted here (over the whole result when paged).
            #[serde(default)]
            pub omitted_outside_roots: u32,
            pub resolved_from_solution: String,
        }
    };
}

pub(crate) use tool_output;
