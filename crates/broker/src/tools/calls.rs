//! get_call_hierarchy: who calls a method and what it calls, each with its call sites.

use super::{Call, Paged, convert};
use convert::RootGate;
use protocol::ToolError;
use protocol::host::ask;
use protocol::host::{self, CallHierarchyRequest};
use protocol::tools::hierarchy::*;
use protocol::tools::{SourceSite, SymbolItem};

fn calls(gate: &RootGate, direction: CallDirection, groups: &[host::CallGroup]) -> Vec<CallItem> {
    groups
        .iter()
        .map(|group| {
            let mut call_sites: Vec<SourceSite> =
                group.sites.iter().filter(|s| gate.admits(&s.span.file)).map(convert::site).collect();
            call_sites.sort();
            call_sites.dedup();
            CallItem {
                direction,
                symbol: convert::symbol(&group.symbol.symbol),
                location: gate.site(group.symbol.location.as_ref()),
                call_sites,
            }
        })
        // A caller whose every call lies outside the roots is not reported.
        .filter(|item| !item.call_sites.is_empty())
        .collect()
}

pub async fn call_hierarchy(call: &Call, input: CallHierarchyInput) -> Result<CallHierarchyOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let (resolved, position) =
        call.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())?;
    let direction = input.direction.unwrap_or(CallDirection::Both);
    let request = CallHierarchyRequest {
        position,
        incoming: direction != CallDirection::Outgoing,
        outgoing: direction != CallDirection::Incoming,
    };
    let canonical = serde_json::json!({
        "solution": resolved.target.solution, "file": request.position.file, "line": request.position.line,
        "column": request.position.column, "incoming": request.incoming, "outgoing": request.outgoing,
    });
    let paged = Paged::new("get_call_hierarchy", canonical, page_size, input.cursor.as_deref(), "the calls");
    let page = call
        .page(&resolved, paged, ask::call_hierarchy(request), |hierarchy, gate| {
            let mut items = calls(gate, CallDirection::Incoming, &hierarchy.incoming);
            items.extend(calls(gate, CallDirection::Outgoing, &hierarchy.outgoing));
            convert::canonical(&mut items, |a, b| {
                (a.direction, &a.symbol.fully_qualified_name, &a.location, &a.symbol.id).cmp(&(
                    b.direction,
                    &b.symbol.fully_qualified_name,
                    &b.location,
                    &b.symbol.id,
                ))
            });
            Ok((gate.symbol_item(&hierarchy.symbol), items))
        })
        .await?;
    Ok(CallHierarchyOutput {
        symbol: SymbolItem::clone(&page.listing.header),
        calls: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
