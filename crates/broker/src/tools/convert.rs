//! Host answers to tool outputs: field renames, 1-based spans to locations, stable ids, and the root gate
//! on every location that goes out (`RootGate`).

use crate::resolve::Target;
use protocol::host;
use protocol::tools::diagnostics::SeverityName;
use protocol::tools::moves::FilePosition;
use protocol::tools::sources::{GENERATED_SCHEME, METADATA_SCHEME, MetadataSite};
use protocol::tools::{Location, Range, SourceSite, SymbolInfo, SymbolItem};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// `sha256:` + the hex sha256 of a documented canonical string.
pub fn stable_id(canonical: &str) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(canonical.as_bytes())))
}

/// The id a generated document's virtual path gives its project: the first 16 hex digits of the sha256 of
/// the project file's path, as the host writes it (`GeneratedDocuments.ProjectId`). It names the file, not
/// the project's name, which an outside project may share.
pub fn generated_project_id(project_file: &str) -> String {
    let mut id = hex::encode(Sha256::digest(project_file.as_bytes()));
    id.truncate(16);
    id
}

/// A generated document's virtual path, `roslyn-mcp://generated/<project>/<project id>/<generator>/<hint name>`.
struct GeneratedPath<'a> {
    project: &'a str,
    project_id: &'a str,
    generator: &'a str,
}

impl<'a> GeneratedPath<'a> {
    fn parse(file: &'a str) -> Option<Self> {
        let mut parts = file.strip_prefix(GENERATED_SCHEME)?.splitn(4, '/');
        let (project, project_id, generator) = (parts.next()?, parts.next()?, parts.next()?);
        parts.next()?;
        Some(Self { project, project_id, generator })
    }
}

/// A place; one in a source generator's document says so, with the generator its virtual path names.
pub fn location(span: &host::Span) -> Location {
    let generator = GeneratedPath::parse(&span.file).map(|path| path.generator.to_owned());
    Location {
        file_path: span.file.clone(),
        line: span.start_line,
        column: span.start_column,
        end_line: span.end_line,
        end_column: span.end_column,
        generated: generator.is_some().then_some(true),
        generator,
    }
}

/// Where a referenced assembly's symbol reads as C#.
pub fn metadata_site(source: Option<&host::MetadataSource>) -> Option<MetadataSite> {
    source.map(|source| MetadataSite {
        location: location(&source.span),
        source_text: source.line_text.clone(),
        origin: source.origin.name().to_owned(),
    })
}

pub fn range(span: &host::Span) -> Range {
    Range { line: span.start_line, column: span.start_column, end_line: span.end_line, end_column: span.end_column }
}

/// `line:column|endLine:endColumn`, as the canonical strings of ids write a range.
pub fn range_key(range: &Range) -> String {
    format!("{}:{}|{}:{}", range.line, range.column, range.end_line, range.end_column)
}

/// A host position as the tools report a place of a plan.
pub fn file_position(position: host::Position) -> FilePosition {
    FilePosition { file: position.file, line: position.line, column: position.column }
}

pub fn site(location: &host::SourceLocation) -> SourceSite {
    SourceSite { location: self::location(&location.span), source_text: location.line_text.clone() }
}

/// The root gate on a call's answer: a place the host reports is returned only when its file, resolved
/// now (symlinks followed), lies inside the roots. The host reads projects through symlinks, so a `.cs`
/// link or a linked folder can put any file's text in its answers; those places, their line text and
/// diagnostics are dropped and counted (`omittedOutsideRoots`). Each distinct path is resolved once.
/// A referenced assembly's document (`roslyn-mcp://metadata/...`) is not a file of anyone's: it passes. A
/// generated document (`roslyn-mcp://generated/<project>/<project id>/...`) is its project's: it passes when
/// the project file its id names does, since a generator may copy any file its project gives it into what it
/// writes. Never by the name alone: an outside project referenced from inside may have the same name.
pub struct RootGate<'a> {
    target: &'a Target,
    projects: Option<Arc<host::WorkspaceSummary>>,
    resolved: RefCell<HashMap<String, bool>>,
    omitted: Cell<u32>,
}

impl<'a> RootGate<'a> {
    pub fn new(target: &'a Target, projects: Option<Arc<host::WorkspaceSummary>>) -> Self {
        Self { target, projects, resolved: RefCell::default(), omitted: Cell::new(0) }
    }

    /// Whether a place in `file` may be returned; one that may not is counted.
    pub fn admits(&self, file: &str) -> bool {
        let known = self.resolved.borrow().get(file).copied();
        let inside = known.unwrap_or_else(|| {
            let inside = self.inside(file);
            self.resolved.borrow_mut().insert(file.to_owned(), inside);
            inside
        });
        if !inside {
            self.omitted.set(self.omitted.get() + 1);
        }
        inside
    }

    fn inside(&self, file: &str) -> bool {
        if file.starts_with(METADATA_SCHEME) {
            return true;
        }
        if !file.starts_with(GENERATED_SCHEME) {
            return self.target.contains(Path::new(file));
        }
        let Some(named) = GeneratedPath::parse(file) else {
            return false;
        };
        self.projects.as_ref().is_some_and(|summary| {
            summary.projects.iter().any(|p| {
                p.name == named.project
                    && generated_project_id(&p.file_path) == named.project_id
                    && self.target.contains(Path::new(&p.file_path))
            })
        })
    }

    /// A declaration site, unless it lies outside the roots (a linked file, generated code elsewhere).
    pub fn site(&self, location: Option<&host::SourceLocation>) -> Option<SourceSite> {
        location.filter(|l| self.admits(&l.span.file)).map(site)
    }

    pub fn symbol_item(&self, symbol: &host::SymbolRef) -> SymbolItem {
        SymbolItem { symbol: self::symbol(&symbol.symbol), location: self.site(symbol.location.as_ref()) }
    }

    /// How many places were left out so far.
    pub fn omitted(&self) -> u32 {
        self.omitted.get()
    }
}

pub fn symbol(summary: &host::SymbolSummary) -> SymbolInfo {
    SymbolInfo {
        id: stable_id(&format!("symbol|{}|{}", summary.assembly, summary.key)),
        name: summary.name.clone(),
        kind: summary.kind.clone(),
        fully_qualified_name: summary.display.clone(),
        containing_type: summary.containing_type.clone(),
        containing_namespace: summary.containing_namespace.clone(),
        assembly: summary.assembly.clone(),
        is_from_metadata: summary.is_metadata,
    }
}

pub fn severity_name(severity: host::Severity) -> SeverityName {
    match severity {
        host::Severity::Hidden => SeverityName::Hidden,
        host::Severity::Info => SeverityName::Info,
        host::Severity::Warning => SeverityName::Warning,
        host::Severity::Error => SeverityName::Error,
    }
}

pub fn severity(name: SeverityName) -> host::Severity {
    match name {
        SeverityName::Hidden => host::Severity::Hidden,
        SeverityName::Info => host::Severity::Info,
        SeverityName::Warning => host::Severity::Warning,
        SeverityName::Error => host::Severity::Error,
    }
}

/// Sorts by `order`, ties broken by the items' JSON, and removes items whose JSON is identical (seed 001
/// §4.2-§4.3): the same question on an unchanged solution gives the same bytes, whatever order the host
/// found things in.
pub fn canonical<T: Serialize>(items: &mut Vec<T>, order: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let mut keyed: Vec<(String, T)> =
        items.drain(..).map(|item| (serde_json::to_string(&item).unwrap_or_default(), item)).collect();
    keyed.sort_by(|(a_json, a), (b_json, b)| order(a, b).then_with(|| a_json.cmp(b_json)));
    keyed.dedup_by(|(a_json, _), (b_json, _)| a_json == b_json);
    items.extend(keyed.into_iter().map(|(_, item)| item));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_ids_are_sha256_of_the_canonical_string() {
        // sha256("abc"), a published test vector.
        assert_eq!(stable_id("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn canonical_lists_do_not_depend_on_the_order_found() {
        let order = |a: &(u32, &str), b: &(u32, &str)| a.0.cmp(&b.0);
        let mut one = vec![(2, "b"), (1, "z"), (1, "a"), (2, "b")];
        let mut other = vec![(1, "a"), (2, "b"), (1, "z")];
        canonical(&mut one, order);
        canonical(&mut other, order);
        assert_eq!(one, vec![(1, "a"), (1, "z"), (2, "b")]);
        assert_eq!(one, other);
    }

    /// A workspace root and a folder beside it, in a temporary folder kept while the first value lives.
    fn root_and_outside() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical");
        let (root, outside) = (base.join("w"), base.join("outside"));
        std::fs::create_dir_all(&root).expect("root");
        std::fs::create_dir_all(&outside).expect("outside");
        (dir, root, outside)
    }

    #[test]
    fn locations_outside_the_roots_are_not_returned_but_counted() {
        let (_dir, root, outside) = root_and_outside();
        std::fs::write(outside.join("Secret.cs"), "class Secret {}").expect("secret");
        std::os::unix::fs::symlink(outside.join("Secret.cs"), root.join("Evil.cs")).expect("link");
        let target = Target {
            solution: root.join("S.sln"),
            roots: paths::Roots::new(vec![root.clone()], None),
            reach: Default::default(),
        };
        let at = |file: &Path| host::SourceLocation {
            span: host::Span {
                file: file.display().to_string(),
                start_line: 1,
                start_column: 1,
                end_line: 1,
                end_column: 2,
            },
            line_text: "x".into(),
        };
        let gate = RootGate::new(&target, None);
        assert!(gate.site(Some(&at(&root.join("A.cs")))).is_some());
        assert!(gate.site(Some(&at(&root.join("Evil.cs")))).is_none(), "a link inside leads outside");
        assert!(gate.site(Some(&at(&root.join("Evil.cs")))).is_none(), "the same answer when remembered");
        assert!(gate.site(Some(&at(&outside.join("Secret.cs")))).is_none());
        assert!(gate.site(None).is_none());
        assert_eq!(gate.omitted(), 3, "each place left out is counted; an absent one is not");
    }

    #[test]
    fn a_generated_document_is_admitted_with_its_project_file_and_a_metadata_one_always() {
        let (_dir, root, outside) = root_and_outside();
        let target = Target {
            solution: root.join("S.sln"),
            roots: paths::Roots::new(vec![root.clone()], None),
            reach: Default::default(),
        };
        let project = |name: &str, file: &Path| host::ProjectSummary {
            name: name.into(),
            file_path: file.display().to_string(),
            assembly_name: name.into(),
            target_frameworks: vec![],
            document_count: 1,
            project_references: vec![],
        };
        let (inside, twin) = (root.join("In.csproj"), outside.join("In.csproj"));
        let summary = host::WorkspaceSummary {
            solution_path: target.solution.display().to_string(),
            projects: vec![project("In", &inside), project("In", &twin), project("Out", &outside.join("Out.csproj"))],
            workspace_diagnostics: vec![],
            generators: vec![],
        };
        let path = |name: &str, file: &Path| {
            format!(
                "roslyn-mcp://generated/{name}/{}/Gen.Regex/R.g.cs",
                generated_project_id(&file.display().to_string())
            )
        };
        let gate = RootGate::new(&target, Some(Arc::new(summary)));
        assert!(gate.admits("roslyn-mcp://metadata/System.Runtime/10.0.0.0/System.String.cs"));
        assert!(gate.admits(&path("In", &inside)));
        assert!(!gate.admits(&path("In", &twin)), "a project of the same name outside the roots");
        assert!(!gate.admits(&path("Out", &outside.join("Out.csproj"))), "its project is outside the roots");
        assert!(!gate.admits(&path("Out", &inside)), "the id of another project's file");
        assert!(!gate.admits("roslyn-mcp://generated/In/Gen.Regex/R.g.cs"), "a name alone");
        assert!(!RootGate::new(&target, None).admits(&path("In", &inside)), "no projects known");
        assert_eq!(gate.omitted(), 4);
        let place = location(&host::Span {
            file: path("In", &inside),
            start_line: 1,
            start_column: 1,
            end_line: 1,
            end_column: 2,
        });
        assert_eq!((place.generated, place.generator.as_deref()), (Some(true), Some("Gen.Regex")));
    }
}
