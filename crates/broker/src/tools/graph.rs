//! get_project_graph: the host reads each project file's restore output and Roslyn's project graph (and, with
//! `unused`, every document's names); paged by projects, project files outside the roots left out and counted.

use super::{Call, Paged};
use protocol::host::{ProjectGraphRequest, ask};
use protocol::tools::graph::*;
use protocol::{ErrorCode, ToolError};

/// What every page repeats: the candidates and warnings of the whole answer.
struct Header {
    unused: Vec<UnusedReference>,
    warnings: Vec<String>,
}

pub async fn project_graph(call: &Call, input: ProjectGraphInput) -> Result<ProjectGraphOutput, ToolError> {
    let page_size = call.services.limits.page_size(input.page_size)?;
    let project = input.project.as_deref().map(str::trim).map(str::to_owned);
    if project.as_deref() == Some("") {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`project` is empty").detail("field", "project"));
    }
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let unused = input.unused.unwrap_or(false);
    let canonical = serde_json::json!({"solution": resolved.target.solution, "project": project, "unused": unused});
    let paged = Paged::new("get_project_graph", canonical, page_size, input.cursor.as_deref(), "the projects");
    if unused && paged.cursor.is_none() {
        call.progress.step("Reading every document for the references no code names").await;
    }
    let page = call
        .page(&resolved, paged, ask::project_graph(ProjectGraphRequest { project, unused }), |graph, gate| {
            let admitted = |path: &String| gate.admits(path);
            let projects =
                graph.projects.into_iter().filter(|p| admitted(&p.path)).map(|p| project_item(p, &admitted)).collect();
            let unused = graph
                .unused
                .into_iter()
                .filter(|u| admitted(&u.project) && (u.kind != "project" || admitted(&u.reference)))
                .collect();
            Ok((Header { unused, warnings: graph.warnings }, projects))
        })
        .await?;
    Ok(ProjectGraphOutput {
        projects: page.items().to_vec(),
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        unused: page.listing.header.unused.clone(),
        warnings: page.listing.header.warnings.clone(),
        omitted_outside_roots: page.listing.omitted,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

/// The project as the client sees it: project files outside the roots left out of its lists.
fn project_item(project: GraphProject, admitted: &impl Fn(&String) -> bool) -> GraphProject {
    let inside = |paths: Vec<String>| paths.into_iter().filter(|p| admitted(p)).collect();
    GraphProject {
        project_references: inside(project.project_references),
        dependencies: inside(project.dependencies),
        dependents: inside(project.dependents),
        ..project
    }
}
