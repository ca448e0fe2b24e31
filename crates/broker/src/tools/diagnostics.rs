//! get_compilation_diagnostics: one file, one project or the whole solution, paged by files.

use super::{Call, Documents, Paged, convert};
use protocol::host::ask;
use protocol::host::{self, DiagnosticsRequest, Severity};
use protocol::tools::diagnostics::*;
use protocol::{ErrorCode, ToolError};
use std::collections::BTreeMap;

/// Counts over the whole result, repeated on every page.
struct Totals {
    diagnostics: u32,
    errors: u32,
    warnings: u32,
}

pub async fn compilation_diagnostics(
    call: &Call,
    input: CompilationDiagnosticsInput,
) -> Result<CompilationDiagnosticsOutput, ToolError> {
    let limits = call.services.limits;
    let page_size = limits.page_size(input.page_size)?;
    if input.file_path.is_some() && input.project.is_some() {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "Give at most one of `filePath` and `project`")
            .detail("field", "project"));
    }
    let project = input.project.as_deref().map(str::trim).map(str::to_owned);
    if project.as_deref() == Some("") {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`project` is empty").detail("field", "project"));
    }
    let (resolved, Documents { file, project }) =
        call.documents(input.file_path.as_deref(), project, input.solution_path.as_deref())?;
    let request = DiagnosticsRequest {
        file,
        project,
        min_severity: convert::severity(input.min_severity.unwrap_or(SeverityName::Warning)),
        include_analyzers: input.include_analyzers.unwrap_or(false),
    };
    let scope = match (&request.file, &request.project) {
        (Some(_), _) => "file",
        (None, Some(_)) => "project",
        (None, None) => "solution",
    };
    let canonical = serde_json::json!({
        "solution": resolved.target.solution, "file": request.file, "project": request.project,
        "minSeverity": convert::severity_name(request.min_severity).as_str(),
        "includeAnalyzers": request.include_analyzers,
    });
    let paged = Paged::new(
        "get_compilation_diagnostics",
        canonical,
        page_size,
        input.cursor.as_deref(),
        "the files with diagnostics",
    )
    .capped_at(limits.diagnostic_files());
    if scope != "file" && paged.cursor.is_none() {
        let what = request.project.clone().unwrap_or_else(|| resolved.target.solution.display().to_string());
        call.progress.step(format!("Compiling the {scope} {what}")).await;
    }
    let page = call
        .page(&resolved, paged, ask::compilation_diagnostics(request), |list, gate| {
            let shown: Vec<&host::Diagnostic> = list.diagnostics.iter().filter(|d| gate.admits(group_of(d))).collect();
            let count = |severity| shown.iter().filter(|d| d.severity == severity).count() as u32;
            let totals = Totals {
                diagnostics: shown.len() as u32,
                errors: count(Severity::Error),
                warnings: count(Severity::Warning),
            };
            Ok((totals, group(&shown, limits.items)))
        })
        .await?;
    let totals = &page.listing.header;
    Ok(CompilationDiagnosticsOutput {
        scope: scope.to_owned(),
        files: page.items().to_vec(),
        file_count: page.total(),
        total_count: totals.diagnostics,
        error_count: totals.errors,
        warning_count: totals.warnings,
        next_cursor: page.next_cursor.clone(),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

/// The file a diagnostic belongs to: its document, else its project file.
fn group_of(diagnostic: &host::Diagnostic) -> &str {
    diagnostic.location.as_ref().map_or(diagnostic.project_path.as_str(), |l| l.file.as_str())
}

/// One group per file, sorted by path; in each, diagnostics sorted and deduplicated, the first `per_file` kept.
fn group(diagnostics: &[&host::Diagnostic], per_file: usize) -> Vec<DiagnosticFile> {
    let mut files: BTreeMap<&str, Vec<DiagnosticItem>> = BTreeMap::new();
    for diagnostic in diagnostics {
        files.entry(group_of(diagnostic)).or_default().push(item(diagnostic));
    }
    files
        .into_iter()
        .map(|(file, mut items)| {
            convert::canonical(&mut items, |a, b| {
                (&a.location, std::cmp::Reverse(a.severity), &a.code, &a.message, &a.project).cmp(&(
                    &b.location,
                    std::cmp::Reverse(b.severity),
                    &b.code,
                    &b.message,
                    &b.project,
                ))
            });
            let diagnostic_count = items.len() as u32;
            let truncated = items.len() > per_file;
            items.truncate(per_file);
            DiagnosticFile { file_path: file.to_owned(), diagnostics: items, diagnostic_count, truncated }
        })
        .collect()
}

fn item(diagnostic: &host::Diagnostic) -> DiagnosticItem {
    let severity = convert::severity_name(diagnostic.severity);
    let location = diagnostic.location.as_ref().map(convert::location);
    let place = location.as_ref().map_or_else(
        || format!("{}||", diagnostic.project_path),
        |l| format!("{}|{}", l.file_path, convert::range_key(&l.range())),
    );
    DiagnosticItem {
        id: convert::stable_id(&format!("{place}|{}|{}|{}", severity.as_str(), diagnostic.id, diagnostic.message)),
        code: diagnostic.id.clone(),
        source: diagnostic.source.clone(),
        severity,
        message: diagnostic.message.clone(),
        project: diagnostic.project.clone(),
        location,
    }
}
