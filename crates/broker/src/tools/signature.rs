//! change_signature: the host plans it (Roslyn's change signature engine for the order, removals and
//! additions; Roslyn's renamer for renamed parameters; then the refusal checks and the compile check) and the
//! one write path ([`super::writes`]) previews or applies it.

use super::Call;
use super::refactor::identifier;
use super::writes::{WriteMode, plan_then_write, render};
use crate::plans::Plan;
use protocol::host::{AddedParameter, ChangeSignaturePlan, ChangeSignatureRequest, SignatureParameter, ask};
use protocol::tools::moves::FilePosition;
use protocol::tools::plans::WriteOutput;
use protocol::tools::refactor::Outline;
use protocol::tools::signature::{ChangeSignatureInput, ChangeSignatureOutline, NewParameter};
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
    plan_then_write(call, resolved, WriteMode::new(input.preview, input.verify)?, began, request, |reply, solution| {
        Ok(signature_plan(*reply.body, solution))
    })
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
            location: FilePosition { file: location.file, line: location.line, column: location.column },
            declarations,
            call_sites,
            files_modified: edits.len() as u32,
            total_edits: changes,
        }),
        edits,
        warnings,
    }
}
