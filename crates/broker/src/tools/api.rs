//! get_public_api and compare_public_api: the host lists a project's public and protected surface, as loaded or
//! as another revision's files (read from git, compiled in memory with the project's references) make it; the
//! comparison is made here, by documentation comment id.

use super::{Call, Paged, Resolved, git};
use crate::offload;
use protocol::host::{self, ProjectGraphRequest, PublicApiRequest, SourceFile, ask};
use protocol::tools::api::*;
use protocol::{ErrorCode, ToolError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub async fn public_api(call: &Call, input: PublicApiInput) -> Result<PublicApiOutput, ToolError> {
    let page_size = call.services.limits.page_size(input.page_size)?;
    let project = project(&input.project)?;
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let canonical = serde_json::json!({"solution": resolved.target.solution, "project": project});
    let paged = Paged::new("get_public_api", canonical, page_size, input.cursor.as_deref(), "the members");
    let request = ask::public_api(PublicApiRequest { project, files: None });
    let page = call
        .page(&resolved, paged, request, |api, gate| {
            if !gate.admits(&api.project) {
                return Err(outside(&api.project));
            }
            let members = api.members.into_iter().map(|m| ApiMember { id: m.id, line: m.line, kind: m.kind }).collect();
            Ok(((api.project, api.framework), members))
        })
        .await?;
    let (project, framework) = page.listing.header.clone();
    let members = page.items().to_vec();
    Ok(PublicApiOutput {
        project,
        framework,
        text: members.iter().map(|m| m.line.as_str()).collect::<Vec<_>>().join("\n"),
        members,
        total_count: page.total(),
        next_cursor: page.next_cursor.clone(),
        omitted_outside_roots: 0,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

pub async fn compare_public_api(call: &Call, input: CompareApiInput) -> Result<CompareApiOutput, ToolError> {
    let project = project(&input.project)?;
    let resolved = call.resolve(input.solution_path.as_deref())?;
    let graph = ProjectGraphRequest { project: Some(project.clone()), unused: false };
    let project_file = call.ask(&resolved.workspace, ask::project_graph(graph)).await?.body.projects.remove(0).path;
    let folder = Path::new(&project_file).parent().unwrap_or(Path::new("/")).to_path_buf();
    let limit = resolved.workspace.request_timeout();
    let (commit, files) = git::files_at(&folder, &input.since, "since", limit).await?;
    // "On disk" is the files as they are now: the host takes in what the watcher has not told it yet, and
    // forgets the revision's files that are gone.
    // Each path resolved on disk, symlinks followed: off the async workers.
    let synced: Vec<PathBuf> = offload::cpu(|| {
        sources_under(&folder)
            .into_iter()
            .chain(files.iter().map(|(path, _)| path.clone()))
            .filter(|p| resolved.target.contains(p))
            .collect()
    });
    call.load(&resolved.workspace).await?.sync_files(synced, &call.cancel).await?;
    call.progress.step("Listing the public API of the files on disk").await;
    let now = ask_api(call, &resolved, PublicApiRequest { project: project.clone(), files: None }).await?;
    call.progress.step(format!("Compiling the {} files of {commit} in memory", files.len())).await;
    let files = files.into_iter().map(|(path, text)| SourceFile { path: path.display().to_string(), text }).collect();
    let then = ask_api(call, &resolved, PublicApiRequest { project, files: Some(files) }).await?;
    let (mut removed, mut changed, mut added) = compare(then.members, now.members);
    let breaking = [&removed, &changed, &added].iter().flat_map(|list| list.iter()).filter(|c| c.breaking).count();
    let cap = call.services.limits.items;
    let truncated = [&removed, &changed, &added].iter().any(|list| list.len() > cap);
    for list in [&mut removed, &mut changed, &mut added] {
        list.truncate(cap);
    }
    Ok(CompareApiOutput {
        project: now.project,
        framework: now.framework,
        since_commit: commit,
        removed,
        changed,
        added,
        breaking_count: breaking as u32,
        truncated,
        omitted_outside_roots: 0,
        resolved_from_solution: resolved.target.solution.display().to_string(),
    })
}

async fn ask_api(call: &Call, resolved: &Resolved, request: PublicApiRequest) -> Result<host::PublicApi, ToolError> {
    let api = call.ask(&resolved.workspace, ask::public_api(request)).await?.body;
    if !resolved.target.contains(Path::new(&api.project)) {
        return Err(outside(&api.project));
    }
    Ok(api)
}

/// The `.cs` files under a project's folder, build output (`bin`, `obj`) and links left out.
fn sources_under(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let (path, kind) = (entry.path(), entry.file_type());
            match kind {
                Ok(kind) if kind.is_dir() && !matches!(entry.file_name().to_str(), Some("bin" | "obj")) => {
                    pending.push(path)
                }
                Ok(kind) if kind.is_file() && path.extension().is_some_and(|e| e == "cs") => found.push(path),
                _ => {}
            }
        }
    }
    found
}

fn project(raw: &str) -> Result<String, ToolError> {
    let project = raw.trim();
    if project.is_empty() {
        return Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`project` is empty").detail("field", "project"));
    }
    Ok(project.to_owned())
}

fn outside(project: &str) -> ToolError {
    ToolError::new(ErrorCode::SOURCE_NOT_IN_WORKSPACE, format!("{project} is outside the workspace roots"))
        .detail("project", project)
}

/// Removed, changed and added members, each sorted by line. A member gone and one added with the same
/// container, name and kind are one changed signature.
fn compare(then: Vec<host::ApiMember>, now: Vec<host::ApiMember>) -> (Vec<ApiChange>, Vec<ApiChange>, Vec<ApiChange>) {
    let old: BTreeMap<&str, &host::ApiMember> = then.iter().map(|m| (m.id.as_str(), m)).collect();
    let new: BTreeMap<&str, &host::ApiMember> = now.iter().map(|m| (m.id.as_str(), m)).collect();
    let mut changed: Vec<ApiChange> = then
        .iter()
        .filter_map(|o| new.get(o.id.as_str()).filter(|n| n.line != o.line).map(|n| change(Some(o), Some(n))))
        .collect();
    let mut added: Vec<&host::ApiMember> = now.iter().filter(|n| !old.contains_key(n.id.as_str())).collect();
    let mut removed = Vec::new();
    for gone in then.iter().filter(|o| !new.contains_key(o.id.as_str())) {
        let same =
            added.iter().position(|a| (&a.container, &a.name, &a.kind) == (&gone.container, &gone.name, &gone.kind));
        match same {
            Some(at) => changed.push(change(Some(gone), Some(added.remove(at)))),
            None => removed.push(change(Some(gone), None)),
        }
    }
    let added = added
        .into_iter()
        .map(|a| ApiChange {
            // Code outside must implement it, when its type was there to be implemented before.
            breaking: a.breaks_when_added && then.iter().any(|o| o.container == a.container),
            ..change(None, Some(a))
        })
        .collect();
    changed.sort_by(|a, b| a.old_line.cmp(&b.old_line));
    (removed, changed, added)
}

fn change(old: Option<&host::ApiMember>, new: Option<&host::ApiMember>) -> ApiChange {
    let member = new.or(old).expect("one side");
    let (old_line, new_line) = (old.map(|m| m.line.clone()), new.map(|m| m.line.clone()));
    ApiChange {
        id: member.id.clone(),
        kind: member.kind.clone(),
        breaking: match (&old_line, &new_line) {
            (Some(old), Some(new)) => !widened(old, new),
            _ => true,
        },
        old_line,
        new_line,
    }
}

/// Whether the new line only opens the member up: `sealed` dropped, `virtual` added, `protected` made public.
fn widened(old: &str, new: &str) -> bool {
    [old.replacen("sealed ", "", 1), old.replacen("protected ", "", 1)].iter().any(|o| o == new)
        || new.replacen("virtual ", "", 1) == old
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: &str, line: &str, container: &str, name: &str, breaks_when_added: bool) -> host::ApiMember {
        host::ApiMember {
            id: id.into(),
            line: line.into(),
            kind: "method".into(),
            container: container.into(),
            name: name.into(),
            breaks_when_added,
        }
    }

    #[test]
    fn a_new_signature_is_a_change_a_gone_member_a_removal_and_an_abstract_addition_breaks() {
        let then = vec![
            member("M:A.Run(System.Int32)", "A.Run(int n) -> void", "A", "Run", false),
            member("M:A.Stop", "A.Stop() -> void", "A", "Stop", false),
            member("M:A.Open", "sealed A.Open() -> void", "A", "Open", false),
        ];
        let now = vec![
            member("M:A.Run(System.Int64)", "A.Run(long n) -> void", "A", "Run", false),
            member("M:A.Open", "A.Open() -> void", "A", "Open", false),
            member("M:A.Area", "abstract A.Area() -> double", "A", "Area", true),
            member("M:B.Area", "abstract B.Area() -> double", "B", "Area", true),
        ];
        let (removed, changed, added) = compare(then, now);
        assert_eq!(removed.iter().map(|c| (c.id.as_str(), c.breaking)).collect::<Vec<_>>(), [("M:A.Stop", true)]);
        let changed: Vec<_> = changed.iter().map(|c| (c.id.as_str(), c.old_line.as_deref(), c.breaking)).collect();
        assert_eq!(
            changed,
            [
                ("M:A.Run(System.Int64)", Some("A.Run(int n) -> void"), true),
                ("M:A.Open", Some("sealed A.Open() -> void"), false)
            ]
        );
        let added: Vec<_> = added.iter().map(|c| (c.id.as_str(), c.breaking)).collect();
        assert_eq!(added, [("M:A.Area", true), ("M:B.Area", false)], "B is a new type: nothing implemented it");
    }
}
