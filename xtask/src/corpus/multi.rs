//! The `multi-target` shape: `MultiTarget.sln` with one library, `src/Lib/Lib.csproj`, built for five
//! frameworks (`net10.0;net9.0;net8.0;netstandard2.1;netstandard2.0`). Everything compiles for
//! netstandard2.0 (no records, no `init`, no default interface members, no newer APIs outside `#if`
//! regions); `Entity` is referenced in about 95 places, each of which Roslyn sees once per framework.

use super::foundation::{self, ENTITY_DECLARATION};
use super::kinds::{Kind, Scope};
use super::msbuild::{self, SolutionProject};
use super::rng::Rng;
use super::{
    Corpus, EDIT_MARKER, EntityBudget, File, MEMBER_DECLARATION, ProjectDocuments, SYMBOL, entity_places, fill, locate,
};
use anyhow::Result;

pub(super) const DOCUMENTS: usize = 315;

/// The places that reference `Entity`, foundation included.
pub(super) const ENTITY_PLACES: usize = 95;

const FRAMEWORKS: [&str; 5] = ["net10.0", "net9.0", "net8.0", "netstandard2.1", "netstandard2.0"];

/// The document kinds after the foundation, in order: nine files a turn (no records).
const CYCLE: [Kind; 8] = [
    Kind::Entity,
    Kind::Service,
    Kind::Policy,
    Kind::Metric,
    Kind::Entity,
    Kind::Cache,
    Kind::Extensions,
    Kind::Widget,
];

const FOLDER: &str = "src/Lib";

pub(super) fn generate() -> Result<Corpus> {
    let project = SolutionProject { name: "Lib".to_owned(), path: format!("{FOLDER}/Lib.csproj") };
    let csproj = msbuild::sdk_project(
        &FRAMEWORKS,
        "Lib",
        &["<LangVersion>latest</LangVersion>", "<Nullable>disable</Nullable>"],
        &[],
        &[],
    );
    let mut files = vec![
        File { path: "MultiTarget.sln".to_owned(), text: msbuild::solution(&[project], 2) },
        File { path: "Directory.Build.props".to_owned(), text: msbuild::directory_build_props() },
        File { path: format!("{FOLDER}/Lib.csproj"), text: csproj },
    ];
    let scope = || Scope {
        namespace: "Lib".to_owned(),
        usings: "using System;\nusing System.Collections.Generic;\nusing System.Linq;\n".to_owned(),
        hub: "Catalog".to_owned(),
        item: "Node".to_owned(),
        score: "Score".to_owned(),
        label: "Label".to_owned(),
        own_item: "Node".to_owned(),
        framework_regions: true,
    };
    let names = scope();
    let tokens = [
        ("__USINGS__", names.usings.as_str()),
        ("__NS__", names.namespace.as_str()),
        ("__ITEM__", names.item.as_str()),
        ("__HUB__", names.hub.as_str()),
        ("__SCORE__", names.score.as_str()),
        ("__LABEL__", names.label.as_str()),
        ("__RUNTIME__", foundation::RUNTIME_MULTI),
        ("__UPSTREAM__", ""),
        ("__BASE_ID__", "0"),
        ("__FACTOR__", "3"),
    ];
    let foundation = [
        ("Entity", foundation::ENTITY),
        ("Repository", foundation::REPOSITORY),
        ("Node", foundation::ITEM),
        ("Catalog", foundation::HUB),
        ("Guard", foundation::GUARD),
        ("Text", foundation::TEXT),
    ];
    for (name, template) in foundation {
        files.push(File { path: format!("{FOLDER}/Core/{name}.cs"), text: fill(template, &tokens) });
    }
    let places: usize = files.iter().map(|file| entity_places(&file.text)).sum();
    let count = DOCUMENTS - foundation.len();
    let mut budget = EntityBudget::new(ENTITY_PLACES.saturating_sub(places), count);
    let generated = ProjectDocuments { folder: FOLDER, cycle: &CYCLE, count, own_item: "Node" };
    generated.write(&mut Rng::stream(0x2_0000), &mut 0, &mut budget, &|_: &mut Rng| scope(), &mut files);
    let query = locate(&files, &format!("{FOLDER}/Core/Entity.cs"), ENTITY_DECLARATION, SYMBOL)?;
    let member = locate(&files, &format!("{FOLDER}/Core/Catalog.cs"), MEMBER_DECLARATION, "Total")?;
    // A leaf: nothing references a service.
    let service = files.iter().rev().find(|file| file.path.contains("Service")).map(|file| file.path.clone());
    let edit = locate(&files, &service.unwrap_or_default(), EDIT_MARKER, "int")?;
    Ok(Corpus { solution: "MultiTarget.sln".to_owned(), projects: 1, documents: DOCUMENTS, files, query, member, edit })
}
