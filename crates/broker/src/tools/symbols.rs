//! get_document_symbols and search_symbols.

use super::{Call, Paged, convert};
use protocol::host::ask;
use protocol::host::{DocumentRequest, SymbolSearchRequest};
use protocol::tools::symbols::*;
use protocol::{ErrorCode, ToolError};
use std::cmp::Ordering;

/// An absent container sorts last.
fn container_order(a: &Option<String>, b: &Option<String>) -> Ordering {
    (a.is_none(), a).cmp(&(b.is_none(), b))
}

pub async fn document_symbols(call: &Call, input: DocumentSymbolsInput) -> Result<DocumentSymbolsOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let file = call.file(&input.file_path, "filePath")?;
    let (resolved, file) = call.resolve_file(input.solution_path.as_deref(), &file)?;
    let file = file.to_string();
    let canonical = serde_json::json!({"solution": resolved.target.solution, "file": file});
    let paged =
        Paged::new("get_document_symbols", canonical, page_size, input.cursor.as_deref(), "the document's symbols");
    let page = call
        .page(&resolved, paged, ask::document_symbols(DocumentRequest { file: file.clone() }), |list, _| {
            let mut items: Vec<DocumentSymbolItem> = list
                .symbols
                .iter()
                .map(|s| {
                    let range = convert::range(&s.range);
                    let selection_range = convert::range(&s.selection);
                    let id = convert::stable_id(&format!(
                        "{file}|{}|{}|{}|{}|{}",
                        s.name,
                        s.kind,
                        convert::range_key(&range),
                        convert::range_key(&selection_range),
                        s.container.as_deref().unwrap_or("")
                    ));
                    DocumentSymbolItem {
                        id,
                        name: s.name.clone(),
                        kind: s.kind.clone(),
                        range,
                        selection_range,
                        container_name: s.container.clone(),
                        detail: s.detail.clone(),
                    }
                })
                .collect();
            convert::canonical(&mut items, |a, b| {
                (&a.range, &a.name, &a.kind)
                    .cmp(&(&b.range, &b.name, &b.kind))
                    .then_with(|| container_order(&a.container_name, &b.container_name))
                    .then_with(|| a.id.cmp(&b.id))
            });
            Ok(((), items))
        })
        .await?;
    Ok(DocumentSymbolsOutput {
        file_path: file,
        symbols: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

pub async fn search_symbols(call: &Call, input: SearchSymbolsInput) -> Result<SearchSymbolsOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    let query = input.query.trim().to_owned();
    if query.is_empty() {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`query` is empty or only whitespace")
            .detail("field", "query")
            .suggest("Give part of a name: a prefix, a substring or camel-case humps such as `CuRe`"));
    }
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let canonical = serde_json::json!({"solution": resolved.target.solution, "query": query});
    let paged = Paged::new("search_symbols", canonical, page_size, input.cursor.as_deref(), "the matching symbols");
    let page = call
        .page(&resolved, paged, ask::search_symbols(SymbolSearchRequest { query: query.clone() }), |matches, gate| {
            let mut items: Vec<SymbolMatchItem> = matches
                .symbols
                .iter()
                .filter_map(|found| {
                    let site = gate.site(found.location.as_ref())?;
                    let symbol = convert::symbol(&found.symbol);
                    let container_name = symbol.containing_type.clone().or(symbol.containing_namespace.clone());
                    let id = convert::stable_id(&format!(
                        "{}|{}|{}|{}|{}",
                        site.location.file_path,
                        symbol.name,
                        symbol.kind,
                        convert::range_key(&site.location.range()),
                        container_name.as_deref().unwrap_or("")
                    ));
                    Some(SymbolMatchItem {
                        id,
                        symbol_id: symbol.id,
                        name: symbol.name,
                        kind: symbol.kind,
                        fully_qualified_name: symbol.fully_qualified_name,
                        container_name,
                        location: site.location,
                        source_text: site.source_text,
                        project_assembly: symbol.assembly,
                    })
                })
                .collect();
            convert::canonical(&mut items, |a, b| {
                (&a.location, &a.name, &a.kind)
                    .cmp(&(&b.location, &b.name, &b.kind))
                    .then_with(|| container_order(&a.container_name, &b.container_name))
                    .then_with(|| a.id.cmp(&b.id))
            });
            Ok(((), items))
        })
        .await?;
    Ok(SearchSymbolsOutput {
        query,
        symbols: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
