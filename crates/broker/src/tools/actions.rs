//! get_code_actions and apply_code_action: the host lists what Roslyn's refactoring and code-fix providers
//! offer at a place; the broker keeps each under a stable id ([`crate::actions`]) and applies one, or its
//! fix-all, through the one write path ([`super::writes`]).

use super::writes::{WriteMode, edit_plan, plan_then_write, rfc3339};
use super::{Call, both_or_neither, convert};
use crate::actions::ListedAction;
use crate::plans::Plan;
use protocol::host::ask;
use protocol::host::{
    self, ActionOptions, CodeActionKind, CodeActionRequest, CodeActionsRequest, EditPlan, ExtractInterfaceOptions,
    FixAllScope, Span,
};
use protocol::tools::actions::*;
use protocol::tools::plans::WriteOutput;
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostReply;
use std::path::Path;
use std::time::Instant;

pub async fn get_code_actions(call: &Call, input: GetCodeActionsInput) -> Result<CodeActionsOutput, ToolError> {
    let (resolved, position) =
        call.position_at(&input.file_path, input.line, input.column, input.solution_path.as_deref())?;
    let span = selection(position, input.end_line, input.end_column)?;
    call.progress.step("Asking Roslyn's refactoring and code-fix providers").await;
    let reply = call.ask(&resolved.workspace, ask::code_actions(CodeActionsRequest { span: span.clone() })).await?;
    let list = reply.body;
    let solution = resolved.target.solution.clone();
    let expires_at = std::time::SystemTime::now() + crate::actions::ACTION_TTL;
    let actions: Vec<CodeActionItem> = list
        .actions
        .into_iter()
        .map(|action| {
            let listed = ListedAction {
                solution: solution.clone(),
                host_pid: reply.host_pid,
                workspace_version: reply.workspace_version,
                span: span.clone(),
                kind: action.kind,
                provider: action.provider.clone(),
                path: action.path.clone(),
                diagnostic_id: action.diagnostic.as_ref().map(|d| d.id.clone()).unwrap_or_default(),
                fix_all_scopes: action.fix_all_scopes.clone(),
                options: action.options.clone(),
            };
            let id = action_id(&listed);
            call.services.actions.keep(id.clone(), listed);
            item(id, action)
        })
        .collect();
    Ok(CodeActionsOutput {
        count: actions.len() as u32,
        actions,
        expires_at: rfc3339(expires_at),
        omitted_outside_roots: 0,
        resolved_from_solution: solution.display().to_string(),
    })
}

pub async fn apply_code_action(call: &Call, input: ApplyCodeActionInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let action = call.services.actions.get(&input.id)?;
    let fix_all = input.fix_all.map(scope).map(|s| fix_all_in(&action, s)).transpose()?;
    let options = options(&action, input.options)?;
    // The applying session's own roots: an id carries no right to the file it was listed for.
    let file = call.file(&action.span.file, "id")?;
    let (resolved, _) = call.resolve_file(Some(&action.solution.display().to_string()), &file)?;
    let title = action.title();
    call.progress.step(format!("Computing {title}")).await;
    let request = ask::plan_code_action(Box::new(CodeActionRequest {
        span: action.span.clone(),
        workspace_version: action.workspace_version,
        kind: action.kind,
        provider: action.provider.clone(),
        path: action.path.clone(),
        diagnostic_id: action.diagnostic_id.clone(),
        fix_all,
        options,
    }));
    let id = input.id.clone();
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    plan_then_write(call, resolved, mode, began, request, move |reply, solution| {
        action_plan(&id, &action, fix_all, reply, solution)
    })
    .await
}

/// The span between the position and an optional end, both 1-based; the end must not come first.
fn selection(position: host::Position, end_line: Option<u32>, end_column: Option<u32>) -> Result<Span, ToolError> {
    let (end_line, end_column) = match both_or_neither(end_line, end_column, ["endLine", "endColumn"])? {
        None => (position.line, position.column),
        Some(end) if end >= (position.line, position.column) => end,
        Some(_) => {
            return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "The selection ends before it starts")
                .detail("field", "endLine"));
        }
    };
    Ok(Span { file: position.file, start_line: position.line, start_column: position.column, end_line, end_column })
}

/// `sha256:` of the solution, the snapshot and the action's identity: stable while the solution is unchanged.
fn action_id(action: &ListedAction) -> String {
    convert::stable_id(&format!(
        "{}|{}|{}|{}|{}|{:?}|{}|{}|{}",
        action.solution.display(),
        action.host_pid,
        action.workspace_version,
        action.span.file,
        convert::range_key(&convert::range(&action.span)),
        action.kind,
        action.provider,
        action.path.join("\u{1f}"),
        action.diagnostic_id
    ))
}

fn item(id: String, action: host::CodeAction) -> CodeActionItem {
    CodeActionItem {
        id,
        title: action.path.last().cloned().unwrap_or_default(),
        kind: match action.kind {
            CodeActionKind::Refactoring => ActionKind::Refactoring,
            CodeActionKind::Fix => ActionKind::Fix,
        },
        provider: action.provider,
        diagnostic: action.diagnostic.map(|d| FixedDiagnostic {
            code: d.id,
            message: d.message,
            severity: convert::severity_name(d.severity),
            location: convert::location(&d.location),
        }),
        fix_all_scopes: action.fix_all_scopes.into_iter().map(scope_name).collect(),
        options: match action.options {
            ActionOptions::None => None,
            ActionOptions::ExtractInterface(o) => Some(CodeActionOptions {
                extract_interface: Some(ExtractInterfaceArgs {
                    interface_name: Some(o.interface_name),
                    file_name: Some(o.file_name),
                    same_file: Some(o.same_file),
                    members: Some(o.members),
                }),
            }),
        },
        path: action.path,
    }
}

fn scope(name: FixAllScopeName) -> FixAllScope {
    match name {
        FixAllScopeName::Document => FixAllScope::Document,
        FixAllScopeName::Project => FixAllScope::Project,
        FixAllScopeName::Solution => FixAllScope::Solution,
    }
}

fn scope_name(scope: FixAllScope) -> FixAllScopeName {
    match scope {
        FixAllScope::Document => FixAllScopeName::Document,
        FixAllScope::Project => FixAllScopeName::Project,
        FixAllScope::Solution => FixAllScopeName::Solution,
    }
}

fn fix_all_in(action: &ListedAction, scope: FixAllScope) -> Result<FixAllScope, ToolError> {
    if action.fix_all_scopes.contains(&scope) {
        return Ok(scope);
    }
    let offered: Vec<&str> = action.fix_all_scopes.iter().map(|s| scope_word(*s)).collect();
    Err(ToolError::new(
        ErrorCode::INVALID_PARAMETER,
        format!("This action has no fix-all in the {}", scope_word(scope)),
    )
    .detail("field", "fixAll")
    .detail("fixAllScopes", offered.join(","))
    .suggest(if offered.is_empty() { "Apply it without fixAll" } else { "Use one of the action's fixAllScopes" }))
}

fn scope_word(scope: FixAllScope) -> &'static str {
    match scope {
        FixAllScope::Document => "document",
        FixAllScope::Project => "project",
        FixAllScope::Solution => "solution",
    }
}

/// The options to send: what the caller gave over the listed defaults; refused for an action that takes none.
fn options(action: &ListedAction, given: Option<CodeActionOptions>) -> Result<ActionOptions, ToolError> {
    let Some(given) = given.and_then(|o| o.extract_interface) else { return Ok(action.options.clone()) };
    let ActionOptions::ExtractInterface(defaults) = &action.options else {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "This action takes no options")
            .detail("field", "options")
            .suggest("Pass options only to an action get_code_actions lists with options"));
    };
    let interface_name = given.interface_name.unwrap_or_else(|| defaults.interface_name.clone());
    super::identifier(&interface_name, "options.extractInterface.interfaceName")?;
    let file_name = match given.file_name {
        Some(name) => name,
        None if interface_name != defaults.interface_name => format!("{interface_name}.cs"),
        None => defaults.file_name.clone(),
    };
    file_name_only(&file_name)?;
    Ok(ActionOptions::ExtractInterface(ExtractInterfaceOptions {
        interface_name,
        file_name,
        same_file: given.same_file.unwrap_or(defaults.same_file),
        members: given.members.unwrap_or_else(|| defaults.members.clone()),
    }))
}

/// A file name beside the type's file: no folders, no way out of it.
fn file_name_only(name: &str) -> Result<(), ToolError> {
    let plain = !name.is_empty()
        && name.len() <= 255
        && name.ends_with(".cs")
        && !name.starts_with('.')
        && !name.chars().any(|c| c == '/' || c == '\\' || c.is_control());
    if plain {
        return Ok(());
    }
    Err(ToolError::new(ErrorCode::INVALID_TARGET_PATH, format!("{name:?} is not a plain .cs file name"))
        .detail("field", "options.extractInterface.fileName")
        .suggest("Give a name like IOrder.cs: the file is created beside the type's file"))
}

fn action_plan(
    id: &str,
    action: &ListedAction,
    fix_all: Option<FixAllScope>,
    reply: HostReply<EditPlan>,
    solution: &Path,
) -> Result<Plan, ToolError> {
    // Versions count afresh in a restarted host: the same number there is another snapshot.
    if reply.host_pid != action.host_pid {
        return Err(stale(id));
    }
    let mut plan = reply.body;
    if let Some(scope) = fix_all {
        plan.title = format!("{} (fix all in {})", plan.title, scope_word(scope));
    }
    let outline = Outline::CodeAction(CodeActionOutline {
        action: plan.title.clone(),
        provider: action.provider.clone(),
        fix_all: fix_all.map(scope_name),
        files_changed: plan.edits.len() as u32,
    });
    Ok(edit_plan("apply_code_action", plan, solution, outline))
}

fn stale(id: &str) -> ToolError {
    ToolError::new(ErrorCode::CODE_ACTION_STALE, format!("The solution changed since code action {id} was listed"))
        .detail("id", id)
        .suggest("Call get_code_actions at the place again and apply an id from that answer")
}
