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
            // The default and most per page: `Limits`; the descriptions of paged tools say how to page.
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub page_size: Option<u32>,
            #[serde(default)]
            pub cursor: Option<String>,
        ]);
    };
    (@tail $decl:tt $head:tt [write] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@tail $decl $head [preview] [
            $($fields)*
            #[serde(default)]
            pub solution_path: Option<String>,
        ]);
    };
    (@tail $decl:tt $head:tt [preview] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl $head [
            $($fields)*
            // What these do is stated once, in apply_plan's description (`tools::catalog`'s write rules).
            #[serde(default)]
            pub preview: Option<bool>,
            #[serde(default)]
            pub verify: Option<$crate::tools::plans::Verify>,
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
            // Positions and paths as the server's instructions say: 1-based, columns in UTF-16 code units,
            // paths absolute or relative to the workspace root; the solution found from the file when omitted.
            pub file_path: String,
            #[schemars(range(min = 1))]
            pub line: u32,
            #[schemars(range(min = 1))]
            pub column: u32,
            #[serde(default)]
            pub solution_path: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [target] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [place] [
            /// Fully qualified (`Ns.Repo<T>` or `Ns.Repo`1`); or give a position.
            #[serde(default)]
            pub type_name: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [change] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [place] [
            /// A git revision: what differs on disk from it.
            #[serde(default)]
            pub changed_since: Option<String>,
            /// A write's: what it changed.
            #[serde(default)]
            pub operation_id: Option<String>,
            /// A preview's: what applying it would change.
            #[serde(default)]
            pub plan_id: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [place] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [] [
            #[serde(default)]
            pub file_path: Option<String>,
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub line: Option<u32>,
            #[serde(default)]
            #[schemars(range(min = 1))]
            pub column: Option<u32>,
            #[serde(default)]
            pub solution_path: Option<String>,
            $($fields)*
        ]);
    };
    (@head $decl:tt [moved] [$($fields:tt)*]) => {
        $crate::tools::groups::tool_input!(@head $decl [] [
            pub source_file: String,
            /// Simple or fully qualified.
            #[schemars(regex(pattern = $crate::tools::groups::NAME_PATTERN))]
            pub symbol_name: String,
            /// Picks among same-named types.
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
