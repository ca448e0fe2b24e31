//! find_implementations, get_type_hierarchy and get_call_hierarchy.

use super::common::{SourceSite, SymbolInfo, SymbolItem};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImplementationsInput {
    /// Fully qualified type name (`Shop.Core.Services.IRepository<T>` or the metadata name
    /// `Shop.Core.Services.IRepository`1`); or give `filePath`, `line` and `column` of a type or member.
    #[serde(default)]
    pub type_name: Option<String>,
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
    /// Classes deriving from a class, interfaces extending an interface, overrides of a member (default true).
    #[serde(default)]
    pub find_derived_types: Option<bool>,
    /// Types implementing an interface, members implementing an interface member (default true).
    #[serde(default)]
    pub find_interface_implementations: Option<bool>,
    /// Items per page (default 100; capped at the service's maximum page size, 200 unless set lower).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub page_size: Option<u32>,
    /// `nextCursor` of the previous page; omit for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImplementationItem {
    #[serde(flatten)]
    pub symbol: SymbolInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
    /// `Implements` (an interface or interface member), `Derives` (a derived class or interface), `Overrides`.
    pub relation: String,
    /// The relation is declared on the item itself (its own base list, or an override of this very member),
    /// not inherited through another type.
    pub implements_directly: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImplementationsOutput {
    /// The type or member asked about.
    pub symbol: SymbolInfo,
    /// Sorted by fully qualified name, then location and relation.
    pub implementations: Vec<ImplementationItem>,
    pub total_count: u32,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Places the host found in files whose real path (symlinks followed) lies outside the workspace
    /// roots: left out of this answer, with their text, and counted here (over the whole result when paged).
    #[serde(default)]
    pub omitted_outside_roots: u32,
    pub resolved_from_solution: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HierarchyDirection {
    /// Base types and interfaces.
    Base,
    /// Derived types (and implementing types of an interface).
    Derived,
    Both,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypeHierarchyInput {
    /// Fully qualified type name; or give `filePath`, `line` and `column` of a type, variable or member.
    #[serde(default)]
    pub type_name: Option<String>,
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
    /// Default `Both`.
    #[serde(default)]
    pub direction: Option<HierarchyDirection>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HierarchyItem {
    #[serde(flatten)]
    pub symbol: SymbolInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
    /// Named in the type's own declaration (its direct base type or a listed interface).
    pub is_direct: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeHierarchyOutput {
    #[serde(rename = "type")]
    pub type_symbol: SymbolItem,
    /// From the direct base type up to `System.Object`, in that order (empty for `Derived`).
    pub base_types: Vec<HierarchyItem>,
    /// Every type of the solution deriving from it, or implementing it, directly or not; sorted by fully
    /// qualified name (empty for `Base`).
    pub derived_types: Vec<HierarchyItem>,
    /// Every interface it implements or extends, sorted by fully qualified name (empty for `Derived`).
    pub interfaces: Vec<HierarchyItem>,
    /// Places the host found in files whose real path (symlinks followed) lies outside the workspace
    /// roots: left out of this answer, with their text, and counted here (over the whole result when paged).
    #[serde(default)]
    pub omitted_outside_roots: u32,
    pub resolved_from_solution: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub enum CallDirection {
    /// Who calls it.
    Incoming,
    /// What it calls.
    Outgoing,
    Both,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallHierarchyInput {
    /// Source file, absolute or relative to the workspace root.
    pub file_path: String,
    /// 1-based line of a method, constructor, property or local function (declaration or use).
    #[schemars(range(min = 1))]
    pub line: u32,
    #[schemars(range(min = 1))]
    pub column: u32,
    #[serde(default)]
    pub solution_path: Option<String>,
    /// Default `Both`.
    #[serde(default)]
    pub direction: Option<CallDirection>,
    /// Callers and callees per page (default 100; capped at the service's maximum page size).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub page_size: Option<u32>,
    /// `nextCursor` of the previous page; omit for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallItem {
    /// `Incoming`: this symbol calls the method. `Outgoing`: the method calls this symbol.
    pub direction: CallDirection,
    #[serde(flatten)]
    pub symbol: SymbolInfo,
    /// Where the caller or callee is declared; absent for referenced assemblies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
    /// The calls, sorted by path and position: in the caller (incoming) or in the method's body (outgoing).
    pub call_sites: Vec<SourceSite>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallHierarchyOutput {
    pub symbol: SymbolItem,
    /// Incoming first, then outgoing; each sorted by fully qualified name, then location.
    pub calls: Vec<CallItem>,
    pub total_count: u32,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Places the host found in files whose real path (symlinks followed) lies outside the workspace
    /// roots: left out of this answer, with their text, and counted here (over the whole result when paged).
    #[serde(default)]
    pub omitted_outside_roots: u32,
    pub resolved_from_solution: String,
}
