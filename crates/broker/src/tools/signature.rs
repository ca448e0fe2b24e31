//! change_signature and safe_delete: the host plans them (Roslyn's change signature engine for the order,
//! removals and additions, Roslyn's renamer for renamed parameters; the references every target framework
//! finds for a deletion; then the refusal checks and the compile check) and the one write path
//! ([`super::writes`]) previews or applies them.

use super::writes::{WriteMode, plan_then_write, render};
use super::{Call, both_or_neither, convert, identifier};
use crate::plans::Plan;
use protocol::host::{
    AddedParameter, ChangeSignaturePlan, ChangeSignatureRequest, DeleteTarget, EditKind, SafeDeletePlan,
    SafeDeleteRequest, SignatureParameter, ask,
};
use protocol::tools::plans::WriteOutput;
use protocol::tools::refactor::Outline;
use protocol::tools::signature::{
    ChangeSignatureInput, ChangeSignatureOutline, DeletedSymbol, NewParameter, SafeDeleteInput, SafeDeleteOutline,
};
use protocol::{ErrorCode, ToolError};
use std::path::Path;
use std::time::Instant;

pub async fn change_signature(call: &Call, input: ChangeSignatureInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let parameters = input.parameters.into_iter().enumerate().map(parameter).collect::<Result<Vec<_>, _>>()?;
    let (resolved, position) =
        call.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())?;
    call.progress.step("Computing the new signature, its calls and its overrides").await;
    let request = ask::plan_change_signature(ChangeSignatureRequest { position, parameters });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| Ok(signature_plan(*reply.body, solution)))
        .await
}

/// One entry of the list as the host takes it; names are checked here as far as they can be without Roslyn.
fn parameter((index, entry): (usize, NewParameter)) -> Result<SignatureParameter, ToolError> {
    identifier(&entry.name, &format!("parameters[{index}].name"))?;
    if let Some(new_name) = &entry.new_name {
        identifier(new_name, &format!("parameters[{index}].newName"))?;
    }
    if entry.add.is_some() && (entry.new_name.is_some() || entry.new_type.is_some()) {
        return Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            format!("parameters[{index}] adds a parameter and also renames or retypes one"),
        )
        .detail("field", format!("parameters[{index}]"))
        .suggest("An added parameter takes its name from name and its type from add.type"));
    }
    Ok(SignatureParameter {
        name: entry.name,
        new_name: entry.new_name.unwrap_or_default(),
        new_type: entry.new_type.unwrap_or_default(),
        added: entry.add.map(|add| AddedParameter {
            type_name: add.type_name,
            default_value: add.default_value.unwrap_or_default(),
            argument: add.argument.unwrap_or_default(),
            named: add.named.unwrap_or(false),
        }),
    })
}

fn signature_plan(plan: ChangeSignaturePlan, solution: &Path) -> Plan {
    let ChangeSignaturePlan {
        display,
        new_display,
        kind,
        location,
        edits,
        declarations,
        call_sites,
        changes,
        warnings,
    } = plan;
    Plan {
        tool: "change_signature",
        solution: solution.to_path_buf(),
        summary: render::summary(&edits, changes, call_sites),
        title: format!("Change {display} to {new_display}"),
        outline: Outline::ChangeSignature(ChangeSignatureOutline {
            signature: display,
            new_signature: new_display,
            kind,
            location: convert::file_position(location),
            declarations,
            call_sites,
            files_modified: edits.len() as u32,
            total_edits: changes,
        }),
        edits,
        warnings,
    }
}

pub async fn safe_delete(call: &Call, input: SafeDeleteInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let solution_path = input.solution_path.as_deref();
    let Some(file_path) = input.file_path.as_deref() else {
        return Err(ToolError::new(ErrorCode::MISSING_REQUIRED_PARAM, "safe_delete needs filePath")
            .detail("field", "filePath")
            .suggest("Give filePath with line and column for a symbol, or filePath alone for a whole file"));
    };
    let (resolved, target) = match both_or_neither(input.line, input.column, ["line", "column"])? {
        Some((line, column)) => {
            let (resolved, position) = call.position_at(file_path, line, column, solution_path)?;
            (resolved, DeleteTarget::Symbol(position))
        }
        None => {
            let file = call.file(file_path, "filePath")?;
            let (resolved, file) = call.resolve_file(solution_path, &file)?;
            (resolved, DeleteTarget::File(file.to_string()))
        }
    };
    call.progress.step("Finding what still references it").await;
    let request =
        ask::plan_safe_delete(SafeDeleteRequest { target, include_public: input.include_public.unwrap_or(false) });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| Ok(delete_plan(reply.body, solution))).await
}

fn delete_plan(plan: SafeDeletePlan, solution: &Path) -> Plan {
    let SafeDeletePlan { deleted, edits, changes, warnings } = plan;
    let count = |kind| edits.iter().filter(|e| e.kind == kind).count() as u32;
    let names: Vec<_> = deleted.iter().map(|d| d.name.as_str()).collect();
    Plan {
        tool: "safe_delete",
        solution: solution.to_path_buf(),
        summary: render::summary(&edits, changes, 0),
        title: format!("Delete {}", names.join(", ")),
        outline: Outline::SafeDelete(SafeDeleteOutline {
            files_modified: count(EditKind::Modify),
            files_deleted: count(EditKind::Delete),
            deleted: deleted
                .into_iter()
                .map(|d| DeletedSymbol {
                    name: d.name,
                    kind: d.kind,
                    fully_qualified_name: d.display,
                    location: convert::file_position(d.location),
                })
                .collect(),
        }),
        edits,
        warnings,
    }
}
