//! get_type_at_position, find_symbol_definition, find_references.

use super::{Call, Resolved, convert, unexpected};
use crate::args;
use protocol::ToolError;
use protocol::host::{Position, ReferencesRequest, RequestBody, ResponseBody};
use protocol::tools::PositionInput;
use protocol::tools::navigation::*;

const DEFAULT_REFERENCES: u32 = 100;
const MAX_REFERENCES: u32 = 1000;

/// Validates and gates a position, and opens the workspace it belongs to.
async fn position(
    call: &Call,
    file_path: &str,
    line: u32,
    column: u32,
    solution_path: Option<&str>,
) -> Result<(Resolved, Position), ToolError> {
    args::position(line, column)?;
    let file = call.file(file_path, "filePath")?;
    let resolved = call.resolve(solution_path, Some(&file)).await?;
    Ok((resolved, Position { file: file.display().to_string(), line, column }))
}

pub async fn type_at_position(call: &Call, input: PositionInput) -> Result<TypeAtPositionOutput, ToolError> {
    let (resolved, position) =
        position(call, &input.file_path, input.line, input.column, input.solution_path.as_deref()).await?;
    match call.ask(&resolved.workspace, RequestBody::TypeAtPosition(position)).await?.body {
        ResponseBody::TypeAtPosition(info) => Ok(TypeAtPositionOutput {
            symbol_name: info.type_name,
            full_type_name: info.full_type_name,
            kind: info.kind,
            assembly: info.assembly,
            namespace: info.namespace,
            documentation: info.documentation,
            is_generic: info.is_generic,
            type_arguments: info.type_arguments,
            base_type: info.base_type,
            interfaces: info.interfaces,
            declarations: info.declarations.iter().map(convert::location).collect(),
            symbol: convert::symbol(&info.symbol),
            resolved_from_solution: resolved.target.solution.display().to_string(),
        }),
        other => Err(unexpected(other)),
    }
}

pub async fn symbol_definition(call: &Call, input: PositionInput) -> Result<SymbolDefinitionOutput, ToolError> {
    let (resolved, position) =
        position(call, &input.file_path, input.line, input.column, input.solution_path.as_deref()).await?;
    match call.ask(&resolved.workspace, RequestBody::SymbolDefinition(position)).await?.body {
        ResponseBody::SymbolDefinition(info) => {
            let locations: Vec<DefinitionSite> = info
                .locations
                .iter()
                .map(|l| DefinitionSite { location: convert::location(&l.span), source_text: l.line_text.clone() })
                .collect();
            Ok(SymbolDefinitionOutput {
                definition_location: locations.first().map(|l| l.location.clone()),
                source_text: locations.first().map(|l| l.source_text.clone()),
                locations,
                symbol_info: convert::symbol(&info.symbol),
                resolved_from_solution: resolved.target.solution.display().to_string(),
            })
        }
        other => Err(unexpected(other)),
    }
}

pub async fn find_references(call: &Call, input: FindReferencesInput) -> Result<FindReferencesOutput, ToolError> {
    let max = args::limit(input.max_results, DEFAULT_REFERENCES, MAX_REFERENCES, "maxResults")?;
    let (resolved, position) =
        position(call, &input.file_path, input.line, input.column, input.solution_path.as_deref()).await?;
    let request = ReferencesRequest { position, include_declaration: input.include_declaration.unwrap_or(false) };
    match call.ask(&resolved.workspace, RequestBody::References(request)).await?.body {
        ResponseBody::References(list) => {
            let total = list.references.len();
            Ok(FindReferencesOutput {
                references: list
                    .references
                    .iter()
                    .take(max)
                    .map(|r| ReferenceItem {
                        location: convert::location(&r.span),
                        line_text: r.line_text.clone(),
                        kind: r.kind.clone(),
                        project: r.project.clone(),
                    })
                    .collect(),
                total_count: total as u32,
                has_more: total > max,
                symbol: convert::symbol(&list.symbol),
                resolved_from_solution: resolved.target.solution.display().to_string(),
            })
        }
        other => Err(unexpected(other)),
    }
}
