//! move_type_to_file and move_type_to_namespace. The host computes the edits (and refuses moves that are
//! impossible or would add compiler errors); they take the one write path of every writing tool
//! ([`super::writes`]): previewed as a plan, or written atomically and recorded for undo.

mod input;

use super::Call;
use super::writes::{WriteMode, plan_then_write, render};
use crate::plans::Plan;
use protocol::host::ask;
use protocol::host::{
    FileDestination, MoveDestination, MovePlan, MoveRequest, MovedSymbol, NamespaceDestination, Position,
};
use protocol::tools::moves::{MoveOutline, MoveTypeToFileInput, MoveTypeToNamespaceInput, MovedType};
use protocol::tools::plans::WriteOutput;
use protocol::tools::refactor::Outline;
use protocol::{ErrorCode, ToolError};
use roslyn_host::HostReply;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub async fn move_type_to_file(call: &Call, input: MoveTypeToFileInput) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    let target = input::target_file(&input.target_file, &call.scope)?;
    let destination = MoveDestination::File(FileDestination {
        target_file: target.display().to_string(),
        create_target_file: input.create_target_file.unwrap_or(true),
    });
    let job = Job::new(call, &input.source_file, input.symbol_name, input.line, destination, began)?;
    let job = Job { also_admit: Some(target), ..job };
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    run(call, "move_type_to_file", job, mode, input.solution_path.as_deref()).await
}

pub async fn move_type_to_namespace(
    call: &Call,
    input: MoveTypeToNamespaceInput,
) -> Result<WriteOutput<Outline>, ToolError> {
    let began = Instant::now();
    input::dotted_name(&input.target_namespace, "targetNamespace", ErrorCode::INVALID_NAMESPACE)?;
    let destination = MoveDestination::Namespace(NamespaceDestination {
        target_namespace: input.target_namespace,
        update_file_location: input.update_file_location.unwrap_or(false),
    });
    let job = Job::new(call, &input.source_file, input.symbol_name, input.line, destination, began)?;
    let mode = WriteMode::new(input.preview, input.verify, input.wait_seconds)?;
    run(call, "move_type_to_namespace", job, mode, input.solution_path.as_deref()).await
}

struct Job {
    source: PathBuf,
    /// A path named by the input besides the source, gated too.
    also_admit: Option<PathBuf>,
    request: MoveRequest,
    began: Instant,
}

impl Job {
    /// Checks what both tools take: the source file, the type's name and its line.
    fn new(
        call: &Call,
        source_file: &str,
        symbol_name: String,
        line: Option<u32>,
        destination: MoveDestination,
        began: Instant,
    ) -> Result<Self, ToolError> {
        input::dotted_name(&symbol_name, "symbolName", ErrorCode::INVALID_SYMBOL_NAME)?;
        input::line(line)?;
        let source = input::source_file(source_file, &call.scope)?;
        let request = MoveRequest { source_file: source.display().to_string(), symbol_name, line, destination };
        Ok(Self { source, also_admit: None, request, began })
    }
}

async fn run(
    call: &Call,
    tool: &'static str,
    job: Job,
    mode: WriteMode,
    solution_path: Option<&str>,
) -> Result<WriteOutput<Outline>, ToolError> {
    let (resolved, _) = call.resolve_file(solution_path, &job.source)?;
    if let Some(path) = &job.also_admit {
        resolved.target.admit(path).map_err(as_target_error)?;
    }
    call.progress.step(format!("Computing the move of {}", job.request.symbol_name)).await;
    let request = ask::plan_move(job.request);
    let to_plan = move |reply: HostReply<Box<MovePlan>>, solution: &Path| to_plan(tool, reply.body, solution);
    plan_then_write(call, resolved, mode, job.began, request, to_plan).await
}

fn to_plan(tool: &'static str, plan: Box<MovePlan>, solution: &Path) -> Result<Plan, ToolError> {
    let MovePlan { symbol, edits, references_updated, usings_added, usings_removed } = *plan;
    let title = if symbol.new_namespace != symbol.previous_namespace {
        format!("Move {} to namespace {}", symbol.name, display_namespace(&symbol.new_namespace))
    } else {
        format!("Move {} to {}", symbol.name, symbol.new_location.file)
    };
    // The declaration leaves one place and arrives in another; every updated reference and using is one more.
    let text_edits = 2 + references_updated + usings_added + usings_removed;
    Ok(Plan {
        tool,
        solution: solution.to_path_buf(),
        summary: render::summary(&edits, text_edits, references_updated),
        edits,
        warnings: Vec::new(),
        outline: Outline::Move(MoveOutline {
            symbol: moved_type(&symbol),
            references_updated,
            using_directives_added: usings_added,
            using_directives_removed: usings_removed,
        }),
        title,
    })
}

fn display_namespace(namespace: &str) -> &str {
    if namespace.is_empty() { "(global)" } else { namespace }
}

fn moved_type(symbol: &MovedSymbol) -> MovedType {
    let position = |p: &Position| super::convert::file_position(p.clone());
    MovedType {
        name: symbol.name.clone(),
        kind: symbol.kind.clone(),
        fully_qualified_name: symbol.fully_qualified_name.clone(),
        previous_fully_qualified_name: symbol.previous_fully_qualified_name.clone(),
        previous_namespace: symbol.previous_namespace.clone(),
        new_namespace: symbol.new_namespace.clone(),
        previous_location: position(&symbol.previous_location),
        new_location: position(&symbol.new_location),
    }
}

fn as_target_error(error: ToolError) -> ToolError {
    ToolError { code: ErrorCode::INVALID_TARGET_PATH, ..error }
}
