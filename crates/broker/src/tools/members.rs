//! get_available_members and get_method_overloads.

use super::{Call, Paged, convert};
use convert::RootGate;
use protocol::ToolError;
use protocol::host::ask;
use protocol::host::{self, MembersRequest};
use protocol::tools::SymbolInfo;
use protocol::tools::members::*;

fn member(gate: &RootGate, member: &host::Member) -> MemberItem {
    MemberItem {
        symbol: convert::symbol(&member.symbol.symbol),
        signature: member.signature.clone(),
        declaring_type: member.declaring_type.clone(),
        accessibility: member.accessibility.keyword().to_owned(),
        documentation: member.documentation.clone(),
        parameters: member
            .parameters
            .iter()
            .map(|p| ParameterItem {
                name: p.name.clone(),
                type_name: p.type_name.clone(),
                documentation: p.documentation.clone(),
            })
            .collect(),
        return_type: member.return_type.clone(),
        is_extension: member.is_extension,
        is_static: member.is_static,
        is_async: member.is_async,
        location: gate.site(member.symbol.location.as_ref()),
    }
}

/// What every page of the members repeats.
struct MembersHeader {
    receiver: SymbolInfo,
    total_count: u32,
}

pub async fn available_members(call: &Call, input: AvailableMembersInput) -> Result<AvailableMembersOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let filter = input.filter.as_deref().map(str::trim).unwrap_or("").to_lowercase();
    let (resolved, position) =
        call.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())?;
    let request = MembersRequest {
        position,
        include_extension_methods: input.include_extension_methods.unwrap_or(true),
        include_static: input.include_static.unwrap_or(true),
    };
    let canonical = serde_json::json!({
        "solution": resolved.target.solution, "file": request.position.file, "line": request.position.line,
        "column": request.position.column, "extensions": request.include_extension_methods,
        "static": request.include_static, "filter": filter,
    });
    let paged = Paged::new("get_available_members", canonical, page_size, input.cursor.as_deref(), "the members");
    let page = call
        .page(&resolved, paged, ask::members(request), |list, gate| {
            let mut items: Vec<MemberItem> = list.members.iter().map(|m| member(gate, m)).collect();
            convert::canonical(&mut items, by_name);
            let total_count = items.len() as u32;
            items.retain(|m| m.symbol.name.to_lowercase().starts_with(&filter));
            Ok((MembersHeader { receiver: convert::symbol(&list.receiver), total_count }, items))
        })
        .await?;
    Ok(AvailableMembersOutput {
        receiver_type: page.listing.header.receiver.clone(),
        members: page.items().to_vec(),
        total_count: page.listing.header.total_count,
        filtered_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

/// Members by name, kind, signature and id.
fn by_name(a: &MemberItem, b: &MemberItem) -> std::cmp::Ordering {
    (&a.symbol.name, &a.symbol.kind, &a.signature, &a.symbol.id).cmp(&(
        &b.symbol.name,
        &b.symbol.kind,
        &b.signature,
        &b.symbol.id,
    ))
}

pub async fn method_overloads(call: &Call, input: MethodOverloadsInput) -> Result<MethodOverloadsOutput, ToolError> {
    let (resolved, position) = call.position(&input)?;
    let list = call.ask(&resolved.workspace, ask::overloads(position)).await?.body;
    let gate = resolved.gate();
    let mut overloads: Vec<MemberItem> = list.overloads.iter().map(|m| member(&gate, m)).collect();
    convert::canonical(&mut overloads, |a, b| {
        (a.parameters.len(), &a.signature, &a.symbol.id).cmp(&(b.parameters.len(), &b.signature, &b.symbol.id))
    });
    call.services.limits.check_items("the overloads", overloads.len())?;
    Ok(MethodOverloadsOutput {
        method: convert::symbol(&list.method),
        count: overloads.len() as u32,
        overloads,
        omitted_outside_roots: gate.omitted(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
