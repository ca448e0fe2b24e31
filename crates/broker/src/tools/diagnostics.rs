//! get_compilation_diagnostics: one file or the whole solution.

use super::{Call, convert, unexpected};
use crate::args;
use protocol::ToolError;
use protocol::host::{DiagnosticsRequest, RequestBody, ResponseBody, Severity};
use protocol::tools::diagnostics::*;

const DEFAULT_DIAGNOSTICS: u32 = 200;
const MAX_DIAGNOSTICS: u32 = 1000;

pub async fn compilation_diagnostics(
    call: &Call,
    input: CompilationDiagnosticsInput,
) -> Result<CompilationDiagnosticsOutput, ToolError> {
    let max = args::limit(input.max_results, DEFAULT_DIAGNOSTICS, MAX_DIAGNOSTICS, "maxResults")?;
    let file = input.file_path.as_deref().map(|raw| call.file(raw, "filePath")).transpose()?;
    let resolved = call.resolve(input.solution_path.as_deref(), file.as_deref()).await?;
    let request = DiagnosticsRequest {
        file: file.as_ref().map(|f| f.display().to_string()),
        min_severity: convert::severity(input.min_severity.unwrap_or(SeverityName::Warning)),
    };
    match call.ask(&resolved.workspace, RequestBody::CompilationDiagnostics(request)).await?.body {
        ResponseBody::CompilationDiagnostics(list) => {
            let count = |severity| list.diagnostics.iter().filter(|d| d.severity == severity).count() as u32;
            let total = list.diagnostics.len();
            Ok(CompilationDiagnosticsOutput {
                error_count: count(Severity::Error),
                warning_count: count(Severity::Warning),
                diagnostics: list
                    .diagnostics
                    .iter()
                    .take(max)
                    .map(|d| DiagnosticItem {
                        id: d.id.clone(),
                        severity: convert::severity_name(d.severity),
                        message: d.message.clone(),
                        project: d.project.clone(),
                        location: d.location.as_ref().map(convert::location),
                    })
                    .collect(),
                total_count: total as u32,
                has_more: total > max,
                scope: if file.is_some() { "file" } else { "solution" }.to_owned(),
                resolved_from_solution: resolved.target.solution.display().to_string(),
            })
        }
        other => Err(unexpected(other)),
    }
}
