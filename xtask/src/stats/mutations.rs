//! find_tests against the tests themselves: a sampled member is made to throw at its start, the test project
//! runs whole, and every test that fails must be one find_tests selected for that member. The member's file
//! is given back its bytes afterwards, whatever happened.

use super::csharp::parenthesized;
use super::declaration::Declaration;
use super::service::{Service, refusal};
use super::{Options, Solution, all_pages};
use anyhow::{Context, Result};
use serde_json::json;
use std::collections::BTreeSet;

const THROW: &str = " throw new System.InvalidOperationException(\"mutated by cargo xtask stats\");";

pub async fn check(service: &Service, solution: &Solution, options: &Options, all: &[Declaration]) -> Result<()> {
    if options.mutations == 0 {
        return Ok(());
    }
    let tests = solution.projects.iter().filter(|p| p["isTestProject"] == true);
    let Some(project) = tests
        .map(|p| p["name"].as_str().unwrap_or_default().to_owned())
        .find(|name| options.test_project.as_ref().is_none_or(|wanted| wanted == name))
    else {
        return Ok(());
    };
    let library = |d: &&Declaration| {
        d.kind == "Method" && solution.project_of(&d.file).is_some_and(|p| p["isTestProject"] != true)
    };
    let methods: Vec<(Declaration, usize)> =
        all.iter().filter(library).filter_map(|d| Some((d.clone(), body_start(d)?))).collect();
    for (method, at) in options.sample.take(methods, options.mutations, |(d, _)| format!("mutate {}", d.key)) {
        let selected: BTreeSet<String> = match all_pages(service, "find_tests", method.position(), "tests").await {
            Ok(tests) => tests.iter().filter_map(|t| t["id"].as_str().map(str::to_owned)).collect(),
            Err(error) => {
                service.case("find_tests selects every test a mutation fails", Err(refusal(&method.detail, &error)));
                continue;
            }
        };
        let original = std::fs::read(&method.file).with_context(|| format!("reading {}", method.file.display()))?;
        let mut mutated = original.clone();
        mutated.splice(at..at, THROW.bytes());
        std::fs::write(&method.file, &mutated)?;
        let run = service.call("run_tests", json!({"project": project, "timeoutSeconds": 1800})).await;
        std::fs::write(&method.file, &original)?;
        let outcome = match run {
            Ok(run) => {
                let failed: BTreeSet<String> = run["results"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|r| matches!(r["outcome"].as_str(), Some("failed" | "crashed")))
                    .filter_map(|r| r["test"].as_str().map(str::to_owned))
                    .collect();
                let missed: Vec<&String> = failed.difference(&selected).collect();
                eprintln!(
                    "stats: {} fails {} tests, find_tests selected {}",
                    method.detail,
                    failed.len(),
                    selected.len()
                );
                missed.is_empty().then_some(()).ok_or_else(|| format!("{}: not selected {missed:?}", method.detail))
            }
            Err(error) => Err(refusal(&format!("{}: run_tests", method.detail), &error)),
        };
        service.case("find_tests selects every test a mutation fails", outcome);
    }
    Ok(())
}

/// The byte offset just inside a method's block body, or none for an expression body or no body.
fn body_start(method: &Declaration) -> Option<usize> {
    let text = std::fs::read_to_string(&method.file).ok()?;
    let line_start: usize = text.split_inclusive('\n').take(method.line as usize - 1).map(str::len).sum();
    let from = line_start + text[line_start..].char_indices().nth(method.column as usize - 1)?.0;
    let list = parenthesized(&text, from)?;
    // Just past the list's `)`: the list is a slice of `text`.
    let after = list.as_ptr().addr() - text.as_ptr().addr() + list.len() + 1;
    let rest = &text[after..];
    let open = rest.find(['{', ';', '='])?;
    (rest.as_bytes()[open] == b'{' && !rest[..open].contains("=>")).then_some(after + open + 1)
}
