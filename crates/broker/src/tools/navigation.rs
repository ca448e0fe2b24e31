//! get_type_at_position, find_symbol_definition, find_type_definition, find_references.

use super::{Call, Paged, convert};
use protocol::ToolError;
use protocol::host::ask;
use protocol::host::{ReferencesRequest, TypeInfo};
use protocol::tools::navigation::*;
use protocol::tools::{PositionInput, SourceSite, SymbolInfo};

async fn type_info(call: &Call, input: &PositionInput) -> Result<(Box<TypeInfo>, super::Resolved), ToolError> {
    let (resolved, position) =
        call.read_position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref()).await?;
    let info = call.ask(&resolved.workspace, ask::type_at_position(position)).await?.body;
    Ok((info, resolved))
}

pub async fn type_at_position(call: &Call, input: PositionInput) -> Result<TypeAtPositionOutput, ToolError> {
    let (info, resolved) = type_info(call, &input).await?;
    let (declarations, omitted_outside_roots) = declaration_sites(call, &resolved, &info)?;
    Ok(TypeAtPositionOutput {
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
        declarations: declarations.into_iter().map(|d| d.location).collect(),
        metadata_source: convert::metadata_site(info.metadata.as_ref()),
        symbol: convert::symbol(&info.symbol),
        omitted_outside_roots,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

pub async fn type_definition(call: &Call, input: PositionInput) -> Result<TypeDefinitionOutput, ToolError> {
    let (info, resolved) = type_info(call, &input).await?;
    let (locations, omitted_outside_roots) = declaration_sites(call, &resolved, &info)?;
    Ok(TypeDefinitionOutput {
        type_name: info.type_name,
        full_type_name: info.full_type_name,
        kind: info.kind,
        assembly: info.assembly,
        namespace: info.namespace,
        is_from_metadata: info.declarations.is_empty(),
        definition_location: locations.first().map(|l| l.location.clone()),
        locations,
        metadata_source: convert::metadata_site(info.metadata.as_ref()),
        symbol: convert::symbol(&info.symbol),
        omitted_outside_roots,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

/// The type's declarations inside the roots, within the item cap, and how many were outside.
fn declaration_sites(
    call: &Call,
    resolved: &super::Resolved,
    info: &TypeInfo,
) -> Result<(Vec<SourceSite>, u32), ToolError> {
    let gate = resolved.gate();
    let sites: Vec<SourceSite> = info.declarations.iter().filter_map(|d| gate.site(Some(d))).collect();
    call.services.limits.check_items("the type's declarations", sites.len())?;
    Ok((sites, gate.omitted()))
}

pub async fn symbol_definition(call: &Call, input: PositionInput) -> Result<SymbolDefinitionOutput, ToolError> {
    let (resolved, position) =
        call.read_position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref()).await?;
    let info = call.ask(&resolved.workspace, ask::symbol_definition(position)).await?.body;
    let gate = resolved.gate();
    let locations: Vec<SourceSite> = info.locations.iter().filter_map(|l| gate.site(Some(l))).collect();
    call.services.limits.check_items("the symbol's declarations", locations.len())?;
    Ok(SymbolDefinitionOutput {
        definition_location: locations.first().map(|l| l.location.clone()),
        source_text: locations.first().map(|l| l.source_text.clone()),
        locations,
        metadata_source: convert::metadata_site(info.metadata.as_ref()),
        symbol_info: convert::symbol(&info.symbol),
        omitted_outside_roots: gate.omitted(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

pub async fn find_references(call: &Call, input: FindReferencesInput) -> Result<FindReferencesOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let (resolved, position) =
        call.read_position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref()).await?;
    let include_declaration = input.include_declaration.unwrap_or(false);
    let canonical = serde_json::json!({
        "solution": resolved.target.solution, "file": position.file, "line": position.line,
        "column": position.column, "includeDeclaration": include_declaration,
    });
    let paged = Paged::new("find_references", canonical, page_size, input.cursor.as_deref(), "the references");
    let references = ReferencesRequest { position, include_declaration };
    let page = call
        .page(&resolved, paged, ask::references(references), |list, gate| {
            let mut items: Vec<ReferenceItem> = list
                .references
                .iter()
                .filter(|r| gate.admits(&r.span.file))
                .map(|r| ReferenceItem {
                    location: convert::location(&r.span),
                    line_text: r.line_text.clone(),
                    kind: r.kind.name().to_owned(),
                    project: r.project.clone(),
                    frameworks: r.frameworks.clone(),
                })
                .collect();
            convert::canonical(&mut items, |a, b| (&a.location, &a.kind).cmp(&(&b.location, &b.kind)));
            Ok((convert::symbol(&list.symbol), items))
        })
        .await?;
    Ok(FindReferencesOutput {
        references: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        symbol: SymbolInfo::clone(&page.listing.header),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
