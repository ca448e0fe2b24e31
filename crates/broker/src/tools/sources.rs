//! read_source, get_symbol_source, list_generated_documents: the text of what has no file of its own (a
//! source generator's document, a referenced assembly's type) as well as of the solution's documents.

use super::{Call, Resolved, convert};
use protocol::host::{ProjectRequest, ReadSourceRequest, SymbolSourcesRequest, ask};
use protocol::tools::sources::*;
use protocol::{ErrorCode, ToolError};

pub(crate) const DEFAULT_LINES: u32 = 200;
const MAX_LINES: u32 = 2000;
pub(crate) const MAX_SYMBOLS: usize = 50;

pub async fn read_source(call: &Call, input: ReadSourceInput) -> Result<ReadSourceOutput, ToolError> {
    let start = input.start_line.unwrap_or(1);
    let count = input.line_count.unwrap_or(DEFAULT_LINES);
    if start == 0 {
        return Err(
            ToolError::new(ErrorCode::INVALID_LINE_NUMBER, "`startLine` is 1-based").detail("field", "startLine")
        );
    }
    if !(1..=MAX_LINES).contains(&count) {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, format!("`lineCount` must be 1 to {MAX_LINES}"))
            .detail("field", "lineCount"));
    }
    let (resolved, path) = source_path(call, &input)?;
    let asked = call.ask(&resolved.workspace, ask::read_source(ReadSourceRequest { path: path.clone() })).await;
    // Asked first: the projects a generated document's path names are known once the solution is loaded. Found
    // or not, a path that names no project file inside the roots (a name alone, an outside project's id) is
    // refused alike, so the answer tells nothing of outside projects.
    let found_or_not = asked.as_ref().err().is_none_or(|e| e.code == ErrorCode::SOURCE_FILE_NOT_FOUND);
    if path.starts_with(GENERATED_SCHEME) && found_or_not && !resolved.gate().admits(&path) {
        return Err(ToolError::new(
            ErrorCode::SOURCE_NOT_IN_WORKSPACE,
            format!("{path} names no project file inside the workspace roots"),
        )
        .detail("path", path)
        .suggest("list_generated_documents gives the paths of a project's generated documents"));
    }
    let document = asked?.body;
    // A document can be megabytes (a generated one, a decompiled type, a large file): cut off the async workers.
    let (total, text) = crate::offload::cpu(|| page(&document.text, start, count));
    if start > total.max(1) {
        return Err(ToolError::new(
            ErrorCode::INVALID_LINE_NUMBER,
            format!("`startLine` {start} is past the end of {} ({total} lines)", document.path),
        )
        .detail("field", "startLine")
        .detail("totalLines", total));
    }
    let end = total.min(start.saturating_add(count - 1));
    Ok(ReadSourceOutput {
        path: document.path,
        origin: document.origin.name().to_owned(),
        generator: document.generator,
        assembly: document.assembly,
        text,
        start_line: start,
        end_line: end,
        total_lines: total,
        next_start_line: (end < total).then_some(end + 1),
        omitted_outside_roots: 0,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

/// The solution and the path the host is asked for: a file through the roots gate, a virtual path as it is
/// (a generated document's passes its project's gate once answered).
fn source_path(call: &Call, input: &ReadSourceInput) -> Result<(Resolved, String), ToolError> {
    let solution_path = input.solution_path.as_deref();
    if input.path.starts_with(METADATA_SCHEME) || input.path.starts_with(GENERATED_SCHEME) {
        return Ok((call.resolve(solution_path)?, input.path.clone()));
    }
    let file = call.file(&input.path, "path")?;
    let (resolved, file) = call.resolve_file(solution_path, &file)?;
    Ok((resolved, file.to_string()))
}

/// The text's line count, and its lines `start` to `start + count - 1` (those there are) joined with `\n`.
fn page(text: &str, start: u32, count: u32) -> (u32, String) {
    let lines = lines_of(text);
    let total = u32::try_from(lines.len()).unwrap_or(u32::MAX);
    let end = total.min(start.saturating_add(count - 1));
    (total, lines.get(start as usize - 1..end as usize).unwrap_or_default().join("\n"))
}

/// The text's lines, without their ends; a final line end starts no line of its own.
fn lines_of(text: &str) -> Vec<&str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return vec![];
    }
    text.split('\n').map(|line| line.strip_suffix('\r').unwrap_or(line)).collect()
}

pub async fn symbol_source(call: &Call, input: SymbolSourceInput) -> Result<SymbolSourceOutput, ToolError> {
    if input.symbols.is_empty() || input.symbols.len() > MAX_SYMBOLS {
        return Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            format!("Give 1 to {MAX_SYMBOLS} names in `symbols`"),
        )
        .detail("field", "symbols"));
    }
    if let Some(index) = input.symbols.iter().position(|name| name.trim().is_empty()) {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "A name in `symbols` is empty")
            .detail("field", format!("symbols[{index}]")));
    }
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let request =
        SymbolSourcesRequest { names: input.symbols, signatures_only: input.signatures_only.unwrap_or(false) };
    let answer = call.ask(&resolved.workspace, ask::symbol_sources(request)).await?.body;
    let gate = resolved.gate();
    let symbols = answer
        .entries
        .into_iter()
        .map(|entry| {
            let found = entry.declarations.len();
            let declarations: Vec<SymbolSource> = entry
                .declarations
                .into_iter()
                .filter(|d| gate.admits(&d.span.file))
                .map(|d| SymbolSource {
                    symbol: convert::symbol(&d.symbol),
                    location: convert::location(&d.span),
                    origin: d.origin.name().to_owned(),
                    text: d.text,
                })
                .collect();
            let error = match entry.error {
                Some(error) => Some(EntryError { code: error.code.name().to_owned(), message: error.message }),
                None if declarations.is_empty() && found > 0 => Some(EntryError {
                    code: ErrorCode::SOURCE_NOT_IN_WORKSPACE.name().to_owned(),
                    message: format!("'{}' is declared only outside the workspace roots", entry.name),
                }),
                None => None,
            };
            SymbolSourceEntry { name: entry.name, declarations, error }
        })
        .collect();
    let output = SymbolSourceOutput {
        symbols,
        omitted_outside_roots: gate.omitted(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    };
    fits(&output, &call.services.limits)?;
    Ok(output)
}

/// The answer within the response cap, or CAP_EXCEEDED saying how to read what it holds: a whole type can be
/// larger than any answer (`string`'s decompiled source is 622 KB), its signatures and its lines are not.
fn fits(output: &SymbolSourceOutput, limits: &crate::limits::Limits) -> Result<(), ToolError> {
    let bytes = serde_json::to_vec(output).map_or(0, |json| json.len());
    if bytes <= limits.response_bytes {
        return Ok(());
    }
    let places: Vec<_> = output.symbols.iter().flat_map(|entry| &entry.declarations).map(|d| &d.location).collect();
    Err(ToolError::new(
        ErrorCode::CAP_EXCEEDED,
        format!("The sources have {bytes} bytes, over the answer limit of {}", limits.response_bytes),
    )
    .detail("cap", "responseBytes")
    .detail("limit", limits.response_bytes)
    .detail("actual", bytes)
    .detail("declarations", serde_json::to_value(places).unwrap_or_default())
    .suggest("Ask with signaturesOnly: true for the declarations' signatures")
    .suggest(
        "Read a declaration a part at a time with read_source: details.declarations give each one's path and lines",
    ))
}

pub async fn generated_documents(
    call: &Call,
    input: GeneratedDocumentsInput,
) -> Result<GeneratedDocumentsOutput, ToolError> {
    let project = input.project.trim().to_owned();
    if project.is_empty() {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`project` is empty").detail("field", "project"));
    }
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let list = call.ask(&resolved.workspace, ask::generated_documents(ProjectRequest { project })).await?.body;
    let gate = resolved.gate();
    let documents = list
        .documents
        .into_iter()
        .filter(|d| gate.admits(&d.project))
        .map(|d| GeneratedDocumentItem {
            project: d.project,
            framework: d.framework,
            generator: d.generator,
            generator_assembly: d.generator_assembly,
            hint_name: d.hint_name,
            path: d.path,
            length: d.length,
            lines: d.lines,
        })
        .collect();
    Ok(GeneratedDocumentsOutput {
        documents,
        omitted_outside_roots: gate.omitted(),
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::lines_of;

    #[test]
    fn lines_are_counted_as_editors_count_them() {
        assert_eq!(lines_of("a\r\nb\n"), vec!["a", "b"]);
        assert_eq!(lines_of("a\n\nb"), vec!["a", "", "b"]);
        assert!(lines_of("").is_empty());
    }
}
