//! analyze_code_block: compile a snippet where it would go, changing nothing.

use super::{Call, convert};
use crate::limits::MAX_CODE_BYTES;
use protocol::host::ask;
use protocol::host::{CodeBlock, Severity};
use protocol::tools::analyze::*;
use protocol::tools::{SymbolInfo, SymbolItem};
use protocol::{ErrorCode, ToolError};

pub async fn analyze_code_block(
    call: &Call,
    input: AnalyzeCodeBlockInput,
) -> Result<AnalyzeCodeBlockOutput, ToolError> {
    if input.code.trim().is_empty() {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`code` is empty").detail("field", "code"));
    }
    if input.code.len() > MAX_CODE_BYTES {
        return Err(ToolError::new(
            ErrorCode::CAP_EXCEEDED,
            format!("`code` has {} bytes, over the limit of {MAX_CODE_BYTES}", input.code.len()),
        )
        .detail("cap", "requestBytes")
        .detail("limit", MAX_CODE_BYTES)
        .detail("actual", input.code.len())
        .suggest("Analyze a smaller block"));
    }
    let (resolved, position) =
        call.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())?;
    let block = CodeBlock { position, code: input.code };
    let analysis = call.ask(&resolved.workspace, ask::analyze_code(block)).await?.body;
    let mut diagnostics: Vec<SnippetDiagnostic> = analysis
        .diagnostics
        .iter()
        .filter_map(|d| {
            let range = convert::range(d.location.as_ref()?);
            let severity = convert::severity_name(d.severity);
            let id = convert::stable_id(&format!(
                "snippet|{}|{}|{}|{}",
                convert::range_key(&range),
                severity.as_str(),
                d.id,
                d.message
            ));
            Some(SnippetDiagnostic { id, code: d.id.clone(), severity, message: d.message.clone(), range })
        })
        .collect();
    convert::canonical(&mut diagnostics, |a, b| {
        (&a.range, std::cmp::Reverse(a.severity), &a.code, &a.message).cmp(&(
            &b.range,
            std::cmp::Reverse(b.severity),
            &b.code,
            &b.message,
        ))
    });
    let mut declared: Vec<SymbolInfo> = analysis.declared.iter().map(convert::symbol).collect();
    convert::canonical(&mut declared, |a, b| {
        (&a.fully_qualified_name, &a.kind, &a.id).cmp(&(&b.fully_qualified_name, &b.kind, &b.id))
    });
    let gate = resolved.gate();
    let mut used: Vec<SymbolItem> = analysis.used.iter().map(|s| gate.symbol_item(s)).collect();
    convert::canonical(&mut used, |a, b| {
        (&a.symbol.fully_qualified_name, &a.symbol.kind, &a.symbol.id).cmp(&(
            &b.symbol.fully_qualified_name,
            &b.symbol.kind,
            &b.symbol.id,
        ))
    });
    let limits = call.services.limits;
    limits.check_items("the snippet's diagnostics", diagnostics.len())?;
    limits.check_items("the symbols the snippet declares", declared.len())?;
    limits.check_items("the symbols the snippet uses", used.len())?;
    let count = |severity| analysis.diagnostics.iter().filter(|d| d.severity == severity).count() as u32;
    Ok(AnalyzeCodeBlockOutput {
        compiles: count(Severity::Error) == 0,
        error_count: count(Severity::Error),
        warning_count: count(Severity::Warning),
        diagnostics,
        declared_symbols: declared,
        used_symbols: used,
        omitted_outside_roots: gate.omitted(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}
