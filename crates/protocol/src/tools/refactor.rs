//! rename_symbol (seeds 003, 004) and organize_usings (seed 004's organize imports, the C# way): inputs and
//! what their plans report besides the files.

use super::actions::CodeActionOutline;
use super::cleanup::{FindReplaceOutline, FormatOutline, RemoveUnusedOutline};
use super::groups::tool_input;
use super::moves::{FilePosition, MoveOutline};
use super::plans::{Applied, WriteOutput};
use super::signature::{ChangeSignatureOutline, SafeDeleteOutline};
pub use crate::host::{AddedReference, MovedFile, NamespaceChange};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

tool_input! {
    pub struct RenameSymbolInput(position; preview) {
        pub new_name: String,
        #[serde(default)]
        pub rename_overloads: Option<bool>,
        #[serde(default)]
        pub rename_in_comments: Option<bool>,
        #[serde(default)]
        pub rename_in_strings: Option<bool>,
        #[serde(default)]
        pub rename_file: Option<bool>,
    }
}

/// What a rename did, or (in a preview) would do.
pub type RenameOutput = WriteOutput<RenameOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameOutline {
    pub symbol: RenamedSymbol,
    /// Files whose text changes (a renamed file counts once).
    pub files_modified: u32,
    /// Text spans replaced over every file, each source place once however many target frameworks see it.
    pub total_edits: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenamedSymbol {
    pub name: String,
    pub new_name: String,
    /// Class, Method, Property, Parameter, Local, Namespace, TypeParameter, ...
    pub kind: String,
    pub fully_qualified_name: String,
    pub new_fully_qualified_name: String,
    /// The first declaration's name, before the rename.
    pub location: FilePosition,
}

tool_input! {
    pub struct RenameFileInput(; write) {
        pub file_path: String,
        pub new_name: String,
    }
}

/// What rename_file did, or (in a preview) would do.
pub type RenameFileOutput = WriteOutput<RenameFileOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameFileOutline {
    pub file: String,
    pub new_file: String,
    /// The type the file was named after, renamed with it (absent when the file moved alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed_type: Option<RenamedSymbol>,
    /// Files whose text changes (a renamed file counts once).
    pub files_modified: u32,
    pub total_edits: u32,
}

tool_input! {
    pub struct SyncNamespacesInput(; write) {
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        pub folder: Option<String>,
    }
}

/// What sync_namespaces did, or (in a preview) would do.
pub type SyncNamespacesOutput = WriteOutput<SyncNamespacesOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncNamespacesOutline {
    /// The files whose namespace changes, sorted by path (as move_files' `namespaces`).
    pub namespaces: Vec<NamespaceChange>,
    /// Files examined.
    pub documents: u32,
    pub files_modified: u32,
}

tool_input! {
    pub struct MoveFilesInput(; write) {
        #[serde(default)]
        pub files: Option<Vec<String>>,
        #[serde(default)]
        pub folder: Option<String>,
        pub destination: String,
        #[serde(default)]
        pub keep_namespaces: Option<bool>,
    }
}

/// What move_files did, or (in a preview) would do.
pub type MoveFilesOutput = WriteOutput<MoveFilesOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveFilesOutline {
    /// Each file and its new path, sorted by path.
    pub moved: Vec<MovedFile>,
    /// The moved files whose namespace follows the destination.
    pub namespaces: Vec<NamespaceChange>,
    /// Project references added: the destination's to what the moved code uses, and its users' to it.
    pub project_references: Vec<AddedReference>,
    pub files_modified: u32,
    pub total_edits: u32,
}

tool_input! {
    pub struct OrganizeUsingsInput(; write) {
        #[serde(default)]
        pub file_path: Option<String>,
        #[serde(default)]
        pub project: Option<String>,
        #[serde(default)]
        pub remove_unused: Option<bool>,
        #[serde(default)]
        pub sort: Option<bool>,
    }
}

/// What organize_usings did, or (in a preview) would do.
pub type OrganizeUsingsOutput = WriteOutput<OrganizeUsingsOutline>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganizeUsingsOutline {
    /// Files examined.
    pub documents: u32,
    pub files_modified: u32,
    pub usings_removed: u32,
}

/// What a writing tool reports besides the files, whichever tool it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Outline {
    Move(MoveOutline),
    Rename(RenameOutline),
    OrganizeUsings(OrganizeUsingsOutline),
    CodeAction(CodeActionOutline),
    Format(FormatOutline),
    FindReplace(FindReplaceOutline),
    RemoveUnused(RemoveUnusedOutline),
    ChangeSignature(ChangeSignatureOutline),
    SafeDelete(SafeDeleteOutline),
    RenameFile(RenameFileOutline),
    SyncNamespaces(SyncNamespacesOutline),
    MoveFiles(MoveFilesOutline),
}

/// What `apply_plan` answers: what the tool that computed the plan answers when it applies directly.
pub type AppliedPlan = Applied<Outline>;
