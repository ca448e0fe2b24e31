//! The `large` shape: `Corpus.sln` with projects `src/P00 .. src/Pnn` whose references form a DAG (each
//! project references one to three lower ones, often `P00`): a deep core (the first three in ten, each
//! referencing near ones) and modules that reference the core (one in eight also a module just before it),
//! as an application's modules do; one in eight of them multi-targeted
//! (`net10.0;net9.0`: P05, P13, ..., and P00, which they reference); one in ten an xUnit test project that
//! nothing references (P08, P18, ...), whose tests reach `Hub00.Total` and use a generated regular expression;
//! and the documents spread evenly.

use super::foundation::{self, ENTITY_DECLARATION};
use super::kinds::{Kind, Scope};
use super::msbuild::{self, SolutionProject};
use super::rng::Rng;
use super::{Corpus, EDIT_MARKER, EntityBudget, File, MEMBER_DECLARATION, ProjectDocuments, SYMBOL, fill, locate};
use anyhow::{Result, bail};

pub(super) const PROJECTS: usize = 50;
pub(super) const DOCUMENTS: usize = 5000;

/// The fewest documents a project can have: `P00`'s foundation (four documents), an entity and a service.
const MIN_PER_PROJECT: usize = 6;

/// The document kinds of a project, in order, after its item and hub: ten files a turn.
const CYCLE: [Kind; 9] = [
    Kind::Entity,
    Kind::Service,
    Kind::Policy,
    Kind::Metric,
    Kind::Entity,
    Kind::Cache,
    Kind::Snapshot,
    Kind::Extensions,
    Kind::Widget,
];

/// How many places name `Entity` in a hundred generated documents; with the foundation's (six places
/// a project), about 0.6 a document in all: 3,000 in the default corpus.
const ENTITY_PLACES_PER_HUNDRED: usize = 55;

struct Project {
    index: usize,
    name: String,
    references: Vec<usize>,
    multi_target: bool,
    tests: bool,
    documents: usize,
}

impl Project {
    fn plan(index: usize, projects: usize, documents: usize) -> Project {
        let mut rng = Rng::stream(index as u64);
        // A `net10.0;net9.0` project can reference only projects that have net9.0 too; nothing references a test
        // project.
        let candidates: Vec<usize> =
            (0..index).filter(|&lower| !tests(lower) && (!multi_target(index) || multi_target(lower))).collect();
        let core = core_projects(projects);
        let mut references = Vec::new();
        if index > 0 {
            let wanted = (1 + rng.below(3)).min(candidates.len());
            if index == 1 || multi_target(index) || tests(index) || rng.chance(60) {
                references.push(0);
            }
            let in_core = candidates.partition_point(|&candidate| candidate < core);
            // A core project mostly references near ones, so that the core is a deep DAG rather than a star around
            // P00; a module references the core (and one in eight a module just before it), as modules of an
            // application do.
            let nearest = if index < core || in_core == 0 {
                &candidates[candidates.len().saturating_sub(6)..]
            } else if rng.chance(12) && in_core < candidates.len() {
                &candidates[in_core.max(candidates.len().saturating_sub(3))..]
            } else {
                &candidates[..in_core]
            };
            let available =
                references.len() + nearest.iter().filter(|candidate| !references.contains(candidate)).count();
            while references.len() < wanted.min(available) {
                let candidate = *rng.pick(nearest);
                if !references.contains(&candidate) {
                    references.push(candidate);
                }
            }
            references.sort_unstable();
        }
        Project {
            index,
            name: name(index),
            references,
            multi_target: multi_target(index),
            tests: tests(index),
            documents: documents / projects + usize::from(index < documents % projects),
        }
    }

    fn folder(&self) -> String {
        format!("src/{}", self.name)
    }

    fn usings(&self) -> String {
        let mut usings = String::from("using System;\nusing System.Collections.Generic;\nusing System.Linq;\n");
        for index in std::iter::once(0).chain(self.references.iter().copied().filter(|&index| index > 0)) {
            usings.push_str(&format!("using Corpus.{};\n", name(index)));
        }
        usings
    }

    /// The names a document of this project uses when it calls into project `target`.
    fn scope(&self, target: usize) -> Scope {
        let number = &name(target)[1..];
        Scope {
            namespace: format!("Corpus.{}", self.name),
            usings: self.usings(),
            hub: format!("Hub{number}"),
            item: format!("Item{number}"),
            score: format!("Score{number}"),
            label: format!("Label{number}"),
            own_item: format!("Item{}", &self.name[1..]),
            framework_regions: false,
        }
    }

    fn csproj(&self) -> String {
        let frameworks: &[&str] = if self.multi_target { &["net10.0", "net9.0"] } else { &["net10.0"] };
        let references: Vec<String> =
            self.references.iter().map(|&index| format!("../{0}/{0}.csproj", name(index))).collect();
        let (properties, packages): (&[&str], &[(&str, &str)]) =
            if self.tests { (&TEST_PROPERTIES, &TEST_PACKAGES) } else { (&[], &[]) };
        msbuild::sdk_project(frameworks, &format!("Corpus.{}", self.name), properties, packages, &references)
    }

    /// The project's item and hub (and, in `P00`, `Entity` and the repository; in a test project, its tests).
    fn foundation(&self, files: &mut Vec<File>) {
        let own = self.scope(self.index);
        let namespace = own.namespace.as_str();
        let folder = self.folder();
        if self.index == 0 {
            for (file, template) in [("Entity.cs", foundation::ENTITY), ("Repository.cs", foundation::REPOSITORY)] {
                files.push(File {
                    path: format!("{folder}/Core/{file}"),
                    text: fill(template, &[("__NS__", namespace)]),
                });
            }
        }
        let upstream: String = self
            .references
            .iter()
            .map(|&index| format!("        total += Hub{0}.Total(Hub{0}.Seed(2));\n", &name(index)[1..]))
            .collect();
        let runtime = if self.multi_target { foundation::RUNTIME_NET9_OR_NET10 } else { foundation::RUNTIME_NET10 };
        let (base_id, factor) = ((self.index * 1000).to_string(), (self.index + 2).to_string());
        let tokens = [
            ("__USINGS__", own.usings.as_str()),
            ("__NS__", namespace),
            ("__ITEM__", own.item.as_str()),
            ("__HUB__", own.hub.as_str()),
            ("__SCORE__", own.score.as_str()),
            ("__LABEL__", own.label.as_str()),
            ("__RUNTIME__", runtime),
            ("__UPSTREAM__", upstream.as_str()),
            ("__BASE_ID__", base_id.as_str()),
            ("__FACTOR__", factor.as_str()),
        ];
        for (name, template) in [(&own.item, foundation::ITEM), (&own.hub, foundation::HUB)] {
            files.push(File { path: format!("{folder}/Core/{name}.cs"), text: fill(template, &tokens) });
        }
        if self.tests {
            let text = fill(foundation::TESTS, &tokens);
            files.push(File { path: format!("{folder}/Tests/{}Tests.cs", own.hub), text });
        }
    }
}

/// The core: the first three projects in ten (at least one), which every module's references lead to.
fn core_projects(projects: usize) -> usize {
    (projects * 3 / 10).max(1)
}

/// One project in eight targets `net10.0;net9.0` (P05, P13, ...), and so does P00, which they all reference.
fn multi_target(index: usize) -> bool {
    index == 0 || index % 8 == 5
}

/// One project in ten is an xUnit test project (P08, P18, ...): never a two-framework one, whose numbers are odd.
fn tests(index: usize) -> bool {
    index % 10 == 8
}

const TEST_PROPERTIES: [&str; 2] = ["<IsPackable>false</IsPackable>", "<IsTestProject>true</IsTestProject>"];

/// The versions of the test fixtures (`tests/fixtures/Tested`).
const TEST_PACKAGES: [(&str, &str); 3] =
    [("Microsoft.NET.Test.Sdk", "18.0.1"), ("xunit", "2.9.3"), ("xunit.runner.visualstudio", "3.1.5")];

fn name(index: usize) -> String {
    format!("P{index:02}")
}

pub(super) fn generate(projects: usize, documents: usize) -> Result<Corpus> {
    if projects == 0 {
        bail!("--projects must be at least 1");
    }
    if documents < projects * MIN_PER_PROJECT {
        bail!(
            "--documents {documents} is too few for {projects} projects: each needs at least {MIN_PER_PROJECT} \
             (give at least {})",
            projects * MIN_PER_PROJECT
        );
    }
    let plans: Vec<Project> = (0..projects).map(|index| Project::plan(index, projects, documents)).collect();
    let mut files = vec![
        File { path: "Corpus.sln".to_owned(), text: msbuild::solution(&solution_projects(&plans), 1) },
        File { path: "Directory.Build.props".to_owned(), text: msbuild::directory_build_props() },
    ];
    // Every project's item and hub, P00's `Entity` and repository, and each test project's tests.
    let generated = documents - 2 * projects - 2 - plans.iter().filter(|project| project.tests).count();
    let mut budget = EntityBudget::new(generated * ENTITY_PLACES_PER_HUNDRED / 100, generated);
    let mut numbers = 0;
    for project in &plans {
        let folder = project.folder();
        files.push(File { path: format!("{folder}/{}.csproj", project.name), text: project.csproj() });
        let before = files.len();
        project.foundation(&mut files);
        let own_item = project.scope(project.index).item;
        let generated = ProjectDocuments {
            folder: &folder,
            cycle: &CYCLE,
            count: project.documents - (files.len() - before),
            own_item: &own_item,
        };
        let mut rng = Rng::stream(0x1_0000 + project.index as u64);
        let scope = |rng: &mut Rng| match project.references.as_slice() {
            [] => project.scope(project.index),
            references => project.scope(*rng.pick(references)),
        };
        generated.write(&mut rng, &mut numbers, &mut budget, &scope, &mut files);
    }
    let query = locate(&files, "src/P00/Core/Entity.cs", ENTITY_DECLARATION, SYMBOL)?;
    let member = locate(&files, "src/P00/Core/Hub00.cs", MEMBER_DECLARATION, "Total")?;
    // A leaf: nothing references the last project's services.
    let last = format!("{}/", plans[projects - 1].folder());
    let service = files.iter().find(|file| file.path.starts_with(&last) && file.path.contains("Service"));
    let service = service.map(|file| file.path.clone()).unwrap_or_default();
    let edit = locate(&files, &service, EDIT_MARKER, "int")?;
    Ok(Corpus { solution: "Corpus.sln".to_owned(), projects, documents, files, query, member, edit })
}

fn solution_projects(plans: &[Project]) -> Vec<SolutionProject> {
    plans
        .iter()
        .map(|project| SolutionProject {
            name: project.name.clone(),
            path: format!("{}/{}.csproj", project.folder(), project.name),
        })
        .collect()
}
