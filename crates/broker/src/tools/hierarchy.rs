//! find_implementations and get_type_hierarchy.

use super::{Call, Paged, Resolved, convert};
use protocol::host::ask;
use protocol::host::{self, ImplementationsRequest};
use protocol::tools::SymbolInfo;
use protocol::tools::hierarchy::*;
use protocol::{ErrorCode, ToolError};
use std::cmp::Ordering;

/// A type named by `typeName`, or the symbol at `filePath`/`line`/`column`: exactly one of the two.
async fn symbol_target(
    call: &Call,
    type_name: Option<&str>,
    file_path: Option<&str>,
    line: Option<u32>,
    column: Option<u32>,
    solution_path: Option<&str>,
) -> Result<(Resolved, host::SymbolTarget), ToolError> {
    let either = "Give either `typeName`, or `filePath` with `line` and `column`";
    match (type_name.map(str::trim), file_path, line, column) {
        (Some(""), None, None, None) => {
            Err(ToolError::new(ErrorCode::INVALID_SYMBOL_NAME, "`typeName` is empty").detail("field", "typeName"))
        }
        (Some(name), None, None, None) => {
            let resolved = call.resolve(solution_path)?;
            Ok((resolved, host::SymbolTarget::Named(name.to_owned())))
        }
        (None, Some(file), Some(line), Some(column)) => {
            let (resolved, position) = call.position_at(file, line, column, solution_path)?;
            Ok((resolved, host::SymbolTarget::At(position)))
        }
        (None, _, _, _) => {
            let missing = if file_path.is_none() {
                "typeName"
            } else if line.is_none() {
                "line"
            } else {
                "column"
            };
            Err(ToolError::new(ErrorCode::MISSING_REQUIRED_PARAM, either).detail("field", missing))
        }
        (Some(_), _, _, _) => {
            Err(ToolError::new(ErrorCode::INVALID_PARAMETER, format!("{either}, not both")).detail("field", "typeName"))
        }
    }
}

/// By fully qualified name, then location and id.
fn by_name(
    a: &SymbolInfo,
    a_at: &Option<protocol::tools::SourceSite>,
    b: &SymbolInfo,
    b_at: &Option<protocol::tools::SourceSite>,
) -> Ordering {
    (&a.fully_qualified_name, a_at, &a.id).cmp(&(&b.fully_qualified_name, b_at, &b.id))
}

pub async fn find_implementations(
    call: &Call,
    input: ImplementationsInput,
) -> Result<ImplementationsOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let (resolved, target) = symbol_target(
        call,
        input.type_name.as_deref(),
        input.file_path.as_deref(),
        input.line,
        input.column,
        input.solution_path.as_deref(),
    )
    .await?;
    let request = ImplementationsRequest {
        target,
        derived_types: input.find_derived_types.unwrap_or(true),
        interface_implementations: input.find_interface_implementations.unwrap_or(true),
    };
    let canonical = serde_json::json!({
        "solution": resolved.target.solution, "target": format!("{:?}", request.target),
        "derived": request.derived_types, "implementations": request.interface_implementations,
    });
    let paged =
        Paged::new("find_implementations", canonical, page_size, input.cursor.as_deref(), "the implementations");
    let page = call
        .page(&resolved, paged, ask::implementations(request), |list, gate| {
            let mut items: Vec<ImplementationItem> = list
                .implementations
                .iter()
                .map(|r| ImplementationItem {
                    symbol: convert::symbol(&r.symbol.symbol),
                    location: gate.site(r.symbol.location.as_ref()),
                    relation: r.relation.name().to_owned(),
                    implements_directly: r.is_direct,
                })
                .collect();
            convert::canonical(&mut items, |a, b| {
                by_name(&a.symbol, &a.location, &b.symbol, &b.location).then_with(|| a.relation.cmp(&b.relation))
            });
            Ok((convert::symbol(&list.symbol), items))
        })
        .await?;
    Ok(ImplementationsOutput {
        symbol: page.listing.header.clone(),
        implementations: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

pub async fn type_hierarchy(call: &Call, input: TypeHierarchyInput) -> Result<TypeHierarchyOutput, ToolError> {
    let (resolved, target) = symbol_target(
        call,
        input.type_name.as_deref(),
        input.file_path.as_deref(),
        input.line,
        input.column,
        input.solution_path.as_deref(),
    )
    .await?;
    let direction = input.direction.unwrap_or(HierarchyDirection::Both);
    let hierarchy = call.ask(&resolved.workspace, ask::type_hierarchy(target)).await?.body;
    let limits = call.services.limits;
    let gate = resolved.gate();
    let items = |related: &[host::Related], what: &str, sorted: bool| -> Result<Vec<HierarchyItem>, ToolError> {
        let mut items: Vec<HierarchyItem> = related
            .iter()
            .map(|r| HierarchyItem {
                symbol: convert::symbol(&r.symbol.symbol),
                location: gate.site(r.symbol.location.as_ref()),
                is_direct: r.is_direct,
            })
            .collect();
        if sorted {
            convert::canonical(&mut items, |a, b| by_name(&a.symbol, &a.location, &b.symbol, &b.location));
        }
        limits.check_items(what, items.len())?;
        Ok(items)
    };
    let up = direction != HierarchyDirection::Derived;
    let down = direction != HierarchyDirection::Base;
    let type_symbol = gate.symbol_item(&hierarchy.symbol);
    // The base chain keeps its order: nearest first.
    let base_types = if up { items(&hierarchy.base_types, "the base types", false)? } else { Vec::new() };
    let derived_types = if down { items(&hierarchy.derived_types, "the derived types", true)? } else { Vec::new() };
    let interfaces = if up { items(&hierarchy.interfaces, "the interfaces", true)? } else { Vec::new() };
    Ok(TypeHierarchyOutput {
        type_symbol,
        base_types,
        derived_types,
        interfaces,
        omitted_outside_roots: gate.omitted(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
