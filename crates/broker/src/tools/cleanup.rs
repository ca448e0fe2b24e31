//! format_document, find_replace and remove_unused: the host computes the new texts (Roslyn's formatter with
//! the project's `.editorconfig`; a literal or .NET regular-expression replacement; what Roslyn's analyzers
//! find unused), checked to compile, and the one write path ([`super::writes`]) previews or applies them.

use super::writes::{WriteMode, edit_plan, plan_then_write};
use super::{Call, Documents, both_or_neither, convert};
use protocol::host::ask;
use protocol::host::{
    FindReplacePlan, FindReplaceRequest, FormatRequest, LineRange, RemoveUnusedPlan, RemoveUnusedRequest, UnusedKind,
};
use protocol::tools::cleanup::*;
use protocol::tools::plans::WriteOutput;
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use std::time::Instant;

/// Matches listed in an answer; `matchCount` counts them all.
const LISTED_MATCHES: usize = 500;

pub async fn format_document(call: &Call, input: FormatDocumentInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let lines = match both_or_neither(input.start_line, input.end_line, ["startLine", "endLine"])? {
        None => None,
        Some(_) if input.file_path.is_none() => {
            return Err(ToolError::new(ErrorCode::MISSING_REQUIRED_PARAM, "A line range needs filePath")
                .detail("field", "filePath"));
        }
        Some((start_line, end_line)) if start_line <= end_line => Some(LineRange { start_line, end_line }),
        Some(_) => {
            return Err(ToolError::new(ErrorCode::INVALID_LINE_NUMBER, "endLine comes before startLine")
                .detail("field", "endLine"));
        }
    };
    let (resolved, Documents { file, project }) =
        call.documents(input.file_path.as_deref(), input.project, input.solution_path.as_deref())?;
    call.progress.step("Formatting as .editorconfig says").await;
    let request = ask::plan_format(FormatRequest { file, project, lines });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| {
        let plan = reply.body;
        let outline = FormatOutline { documents_formatted: plan.documents, files_changed: plan.edits.len() as u32 };
        Ok(edit_plan("format_document", plan, solution, Outline::Format(outline)))
    })
    .await
}

pub async fn find_replace(call: &Call, input: FindReplaceInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    if input.pattern.is_empty() {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`pattern` is empty").detail("field", "pattern"));
    }
    let (resolved, Documents { project, .. }) = call.documents(None, input.project, input.solution_path.as_deref())?;
    call.progress.step(format!("Searching for {:?}", input.pattern)).await;
    let request = ask::plan_find_replace(FindReplaceRequest {
        pattern: input.pattern,
        replacement: input.replacement,
        regex: input.regex.unwrap_or(false),
        case_sensitive: input.case_sensitive.unwrap_or(true),
        whole_word: input.whole_word.unwrap_or(false),
        include: input.include,
        project,
        include_other_files: input.include_other_files.unwrap_or(false),
    });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| {
        let FindReplacePlan { plan, matches } = reply.body;
        let outline = FindReplaceOutline {
            match_count: matches.len() as u32,
            matches_truncated: matches.len() > LISTED_MATCHES,
            matches: matches.into_iter().take(LISTED_MATCHES).map(text_match).collect(),
            files_searched: plan.documents,
        };
        Ok(edit_plan("find_replace", plan, solution, Outline::FindReplace(outline)))
    })
    .await
}

pub async fn remove_unused(call: &Call, input: RemoveUnusedInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let (resolved, Documents { file, project }) =
        call.documents(input.file_path.as_deref(), input.project, input.solution_path.as_deref())?;
    let mut kinds: Vec<UnusedKind> = input.kinds.unwrap_or_default().into_iter().map(kind).collect();
    kinds.sort();
    kinds.dedup();
    call.progress.step("Finding what Roslyn's analyzers report unused").await;
    let request = ask::plan_remove_unused(RemoveUnusedRequest {
        file,
        project,
        kinds,
        include_public: input.include_public.unwrap_or(false),
    });
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, |reply, solution| {
        let RemoveUnusedPlan { plan, removed } = reply.body;
        let outline = RemoveUnusedOutline {
            removed_count: removed.len() as u32,
            removed: removed
                .into_iter()
                .map(|r| RemovedItem {
                    kind: kind_name(r.kind),
                    name: r.name,
                    rule: r.rule,
                    file_path: r.location.file,
                    line: r.location.line,
                    column: r.location.column,
                })
                .collect(),
        };
        Ok(edit_plan("remove_unused", plan, solution, Outline::RemoveUnused(outline)))
    })
    .await
}

fn text_match(m: protocol::host::TextMatch) -> TextMatch {
    TextMatch {
        location: convert::location(&m.span),
        text: m.text,
        replacement: m.replacement,
        line_before: m.line_before,
        line_after: m.line_after,
    }
}

fn kind(name: UnusedKindName) -> UnusedKind {
    match name {
        UnusedKindName::Members => UnusedKind::Members,
        UnusedKindName::Locals => UnusedKind::Locals,
        UnusedKindName::Parameters => UnusedKind::Parameters,
        UnusedKindName::Usings => UnusedKind::Usings,
    }
}

fn kind_name(kind: UnusedKind) -> UnusedKindName {
    match kind {
        UnusedKind::Members => UnusedKindName::Members,
        UnusedKind::Locals => UnusedKindName::Locals,
        UnusedKind::Parameters => UnusedKindName::Parameters,
        UnusedKind::Usings => UnusedKindName::Usings,
    }
}
