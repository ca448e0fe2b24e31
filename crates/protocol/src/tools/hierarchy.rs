//! find_implementations, get_type_hierarchy and get_call_hierarchy.

use super::common::{SourceSite, SymbolInfo, SymbolItem};
use super::groups::{tool_input, tool_output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct ImplementationsInput(target; page "Items") {
        #[serde(default)]
        pub find_derived_types: Option<bool>,
        #[serde(default)]
        pub find_interface_implementations: Option<bool>,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImplementationItem {
    #[serde(flatten)]
    pub symbol: SymbolInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceSite>,
    /// `Implements` (an interface or interface member, or a partial member's implementing part), `Derives` (a
    /// derived class or interface), `Overrides`.
    pub relation: String,
    /// The relation is declared on the item itself (its own base list, or an override of this very member),
    /// not inherited through another type.
    pub implements_directly: bool,
}

tool_output! {
    pub struct ImplementationsOutput {
        /// The type or member asked about.
        pub symbol: SymbolInfo,
        /// Sorted by fully qualified name, then location and relation.
        pub implementations: Vec<ImplementationItem>,
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HierarchyDirection {
    /// Base types and interfaces.
    Base,
    /// Derived types (and implementing types of an interface).
    Derived,
    Both,
}

tool_input! {
    pub struct TypeHierarchyInput(target;) {
        #[serde(default)]
        pub direction: Option<HierarchyDirection>,
    }
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

tool_output! {
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
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub enum CallDirection {
    /// Who calls it.
    Incoming,
    /// What it calls.
    Outgoing,
    Both,
}

tool_input! {
    pub struct CallHierarchyInput(position; page "Callers and callees") {
        #[serde(default)]
        pub direction: Option<CallDirection>,
    }
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

tool_output! {
    pub struct CallHierarchyOutput {
        pub symbol: SymbolItem,
        /// Incoming first, then outgoing; each sorted by fully qualified name, then location.
        pub calls: Vec<CallItem>,
        pub total_count: u32,
        /// Pass it as `cursor` for the next page; null on the last page.
        pub next_cursor: Option<String>,
    }
}
