//! rename_symbol, rename_file, sync_namespaces, move_files and organize_usings: the host computes the plan
//! (Roslyn's renamer with conflict checks, for a file's type too; Roslyn's change namespace service, for moved
//! files too, with the project references they need; the compiler's unnecessary-using judgement and the
//! `.editorconfig` order), checked to compile, and the one write path ([`super::writes`]) previews or applies it.

use super::writes::{WriteMode, edit_plan, plan_then_write, render};
use super::{Call, Documents, convert};
use crate::plans::Plan;
use crate::resolve;
use protocol::host::ask;
use protocol::host::{
    EditKind, MoveFilesPlan, MoveFilesRequest, OrganizeUsingsPlan, OrganizeUsingsRequest, RenameFilePlan,
    RenameFileRequest, RenamePlan, RenameRequest, RenamedSymbol as HostRenamedSymbol, SyncNamespacesPlan,
    SyncNamespacesRequest,
};
use protocol::tools::plans::WriteOutput;
use protocol::tools::refactor::{
    MoveFilesInput, MoveFilesOutline, OrganizeUsingsInput, OrganizeUsingsOutline, Outline, RenameFileInput,
    RenameFileOutline, RenameOutline, RenameSymbolInput, RenamedSymbol, SyncNamespacesInput, SyncNamespacesOutline,
};
use protocol::{ErrorCode, ToolError};
use std::path::Path;
use std::time::Instant;

pub async fn rename_symbol(call: &Call, input: RenameSymbolInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    super::identifier(&input.new_name, "newName")?;
    let (resolved, position) =
        call.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())?;
    call.progress.step(format!("Computing the rename to {}", input.new_name)).await;
    let request = ask::plan_rename(RenameRequest {
        position,
        new_name: input.new_name,
        rename_overloads: input.rename_overloads.unwrap_or(false),
        rename_in_comments: input.rename_in_comments.unwrap_or(false),
        rename_in_strings: input.rename_in_strings.unwrap_or(false),
        rename_file: input.rename_file.unwrap_or(true),
    });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| rename_plan(reply.body, solution)).await
}

pub async fn rename_file(call: &Call, input: RenameFileInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let file = call.file(&input.file_path, "filePath")?;
    let (resolved, file) = call.resolve_file(input.solution_path.as_deref(), &file)?;
    call.progress.step(format!("Computing the rename of the file to {}", input.new_name)).await;
    let request = ask::plan_rename_file(RenameFileRequest { file: file.to_string(), new_name: input.new_name.clone() });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    let (file, new_name) = (file.to_string(), input.new_name);
    plan_then_write(call, resolved, mode, began, request, move |reply, solution| {
        Ok(file_plan(*reply.body, file.clone(), &new_name, solution))
    })
    .await
}

pub async fn sync_namespaces(call: &Call, input: SyncNamespacesInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let solution_path = input.solution_path.as_deref();
    let (resolved, folder) = match input.folder.as_deref() {
        Some(raw) => {
            let folder = resolve::existing_folder(raw, "folder", &call.scope)?;
            let (resolved, folder) = call.resolve_file(solution_path, &folder)?;
            (resolved, Some(folder.to_string()))
        }
        None => (call.resolve(solution_path)?, None),
    };
    call.progress.step("Computing the namespaces the folders imply").await;
    let request = ask::plan_sync_namespaces(SyncNamespacesRequest { project: input.project, folder });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| Ok(namespaces_plan(reply.body, solution)))
        .await
}

pub async fn move_files(call: &Call, input: MoveFilesInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let solution_path = input.solution_path.as_deref();
    let destination = resolve::new_folder(&input.destination, "destination", &call.scope)?;
    let (resolved, folder, files) = match (input.folder.as_deref(), input.files.as_deref()) {
        (Some(raw), None) => {
            let folder = resolve::existing_folder(raw, "folder", &call.scope)?;
            let (resolved, folder) = call.resolve_file(solution_path, &folder)?;
            (resolved, Some(folder.to_string()), Vec::new())
        }
        (None, Some([first, rest @ ..])) => {
            let (resolved, first) = call.resolve_file(solution_path, &call.file(first, "files")?)?;
            let mut files = vec![first.to_string()];
            for raw in rest {
                files.push(resolved.target.admit(&call.file(raw, "files")?)?.to_string());
            }
            (resolved, None, files)
        }
        _ => {
            return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "Give either files (one or more) or folder")
                .detail("field", "files")
                .suggest("Pass files: [\"A.cs\", ...] to move files, or folder: \"Parsing\" to move a folder's"));
        }
    };
    let destination = resolved.target.admit(&destination)?.to_string();
    call.progress.step(format!("Computing the move to {destination}")).await;
    let request = ask::plan_move_files(MoveFilesRequest {
        files,
        folder,
        destination,
        keep_namespaces: input.keep_namespaces.unwrap_or(false),
    });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| Ok(files_plan(*reply.body, solution))).await
}

pub async fn organize_usings(call: &Call, input: OrganizeUsingsInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let (remove_unused, sort) = (input.remove_unused.unwrap_or(true), input.sort.unwrap_or(true));
    if !remove_unused && !sort {
        return Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            "removeUnused and sort are both false: nothing to do",
        )
        .detail("field", "removeUnused")
        .suggest("Leave either at its default (true)"));
    }
    let (resolved, Documents { file, project }) =
        call.documents(input.file_path.as_deref(), input.project, input.solution_path.as_deref())?;
    call.progress.step("Computing the using directives to remove and their order").await;
    let request = ask::plan_organize_usings(OrganizeUsingsRequest { file, project, remove_unused, sort });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| usings_plan(reply.body, solution)).await
}

fn rename_plan(plan: Box<RenamePlan>, solution: &Path) -> Result<Plan, ToolError> {
    let RenamePlan { symbol, edits, total_edits, references, warnings } = *plan;
    let files_modified = files_modified(&edits);
    Ok(Plan {
        tool: "rename_symbol",
        solution: solution.to_path_buf(),
        summary: render::summary(&edits, total_edits, references),
        edits,
        warnings,
        title: format!("Rename {} to {}", symbol.name, symbol.new_name),
        outline: Outline::Rename(RenameOutline { symbol: renamed(symbol), files_modified, total_edits }),
    })
}

fn file_plan(plan: RenameFilePlan, file: String, new_name: &str, solution: &Path) -> Plan {
    let RenameFilePlan { renamed: symbol, edits, total_edits, warnings } = plan;
    let new_file = Path::new(&file).with_file_name(new_name).display().to_string();
    Plan {
        tool: "rename_file",
        solution: solution.to_path_buf(),
        summary: render::summary(&edits, total_edits, 0),
        title: format!("Rename {} to {new_name}", Path::new(&file).file_name().unwrap_or_default().to_string_lossy()),
        outline: Outline::RenameFile(RenameFileOutline {
            files_modified: files_modified(&edits),
            renamed_type: symbol.map(renamed),
            file,
            new_file,
            total_edits,
        }),
        edits,
        warnings,
    }
}

/// A renamed file is one file whose text changes, though it is a deletion and a creation on disk.
fn files_modified(edits: &[protocol::host::FileEdit]) -> u32 {
    edits.iter().filter(|e| e.kind != EditKind::Delete).count() as u32
}

fn renamed(symbol: HostRenamedSymbol) -> RenamedSymbol {
    RenamedSymbol {
        location: convert::file_position(symbol.location),
        name: symbol.name,
        new_name: symbol.new_name,
        kind: symbol.kind,
        fully_qualified_name: symbol.display,
        new_fully_qualified_name: symbol.new_display,
    }
}

fn namespaces_plan(answer: SyncNamespacesPlan, solution: &Path) -> Plan {
    let SyncNamespacesPlan { plan, changed } = answer;
    let outline = Outline::SyncNamespaces(SyncNamespacesOutline {
        namespaces: changed,
        documents: plan.documents,
        files_modified: plan.edits.len() as u32,
    });
    edit_plan("sync_namespaces", plan, solution, outline)
}

fn files_plan(answer: MoveFilesPlan, solution: &Path) -> Plan {
    let MoveFilesPlan { plan, moved, namespaces, references } = answer;
    let outline = Outline::MoveFiles(MoveFilesOutline {
        moved,
        namespaces,
        project_references: references,
        files_modified: files_modified(&plan.edits),
        total_edits: plan.changes,
    });
    edit_plan("move_files", plan, solution, outline)
}

fn usings_plan(plan: OrganizeUsingsPlan, solution: &Path) -> Result<Plan, ToolError> {
    let OrganizeUsingsPlan { edits, documents, usings_removed, warnings } = plan;
    let files = edits.len() as u32;
    Ok(Plan {
        tool: "organize_usings",
        solution: solution.to_path_buf(),
        // One edit per file: its using directives, rewritten.
        summary: render::summary(&edits, files, 0),
        edits,
        warnings,
        title: format!("Organize usings in {files} file{}", if files == 1 { "" } else { "s" }),
        outline: Outline::OrganizeUsings(OrganizeUsingsOutline { documents, files_modified: files, usings_removed }),
    })
}
