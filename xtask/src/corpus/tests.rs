//! The corpus generator's tests: exact counts, same bytes on every run, every token filled.

use super::*;
use std::collections::BTreeMap;

/// An empty folder of its own, removed when dropped.
fn out_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("xtask-corpus-").tempdir().expect("temp dir")
}

fn generate(args: &[&str]) -> Corpus {
    Corpus::generate(&Options::parse(args).expect("valid options")).expect("a corpus")
}

/// Every file under `root`: its path from `root` and its bytes.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("a readable file");
                files.insert(path.strip_prefix(root).expect("under root").to_path_buf(), bytes);
            }
        }
    }
    files
}

fn count_ending(files: &BTreeMap<PathBuf, Vec<u8>>, extension: &str) -> usize {
    files.keys().filter(|path| path.extension().is_some_and(|found| found == extension)).count()
}

fn line(text: &str, number: usize) -> &str {
    text.lines().nth(number - 1).expect("the line exists")
}

#[test]
fn a_small_large_corpus_has_exactly_the_asked_numbers_of_projects_and_documents() {
    let out = out_dir();
    let corpus = generate(&["unused", "--projects", "6", "--documents", "60"]);
    let root = corpus.write(out.path()).expect("written");
    let files = tree(&root);
    assert_eq!(count_ending(&files, "csproj"), 6, "one project file per project");
    assert_eq!(count_ending(&files, "cs"), 60, "the documents asked for");
    assert_eq!((corpus.projects, corpus.documents), (6, 60));
    assert!(files.contains_key(Path::new("Corpus.sln")) && files.contains_key(Path::new("Directory.Build.props")));
    let summary = corpus.summary(&root);
    let solution = json_string(&root.join("Corpus.sln").display().to_string());
    assert!(
        summary.starts_with(&format!("{{\"solution\": {solution}, \"projects\": 6, \"documents\": 60, ")),
        "{summary}"
    );
    assert!(!summary.contains('\n'), "one line: {summary}");
}

#[test]
fn the_same_arguments_write_the_same_bytes() {
    let (first, second) = (out_dir(), out_dir());
    let args = ["unused", "--projects", "6", "--documents", "60"];
    let first = tree(&generate(&args).write(first.path()).expect("written"));
    let second = tree(&generate(&args).write(second.path()).expect("written"));
    assert_eq!(first.keys().collect::<Vec<_>>(), second.keys().collect::<Vec<_>>(), "the same files");
    for (path, bytes) in &first {
        assert!(bytes == &second[path], "{} differs from one run to the next", path.display());
    }
}

#[test]
fn the_query_and_the_member_point_at_the_identifiers_of_their_declarations() {
    let out = out_dir();
    for args in [&["unused", "--projects", "6", "--documents", "60"][..], &["unused", "--shape", "multi-target"]] {
        let corpus = generate(args);
        let _ = std::fs::remove_dir_all(out.path());
        let root = corpus.write(out.path()).expect("written");
        let text = std::fs::read_to_string(absolute(&root, &corpus.query.file)).expect("the query file");
        let declaration = line(&text, corpus.query.line);
        let at = &declaration[corpus.query.column - 1..];
        assert!(declaration.starts_with("public class Entity"), "not the declaration: {declaration}");
        assert!(at.starts_with("Entity") && !at["Entity".len()..].starts_with(char::is_alphanumeric), "{at}");
        let text = std::fs::read_to_string(absolute(&root, &corpus.member.file)).expect("the member's file");
        let declaration = line(&text, corpus.member.line);
        assert!(
            declaration[corpus.member.column - 1..].starts_with("Total(IEnumerable<Entity> items)"),
            "{declaration}"
        );
    }
}

#[test]
fn the_edit_line_is_a_statement_in_a_method_body_of_a_leaf_document() {
    let corpus = generate(&["unused", "--projects", "6", "--documents", "60"]);
    assert!(corpus.edit.file.starts_with("src/P05/"), "the last project, which nothing references");
    let text = &corpus.files.iter().find(|file| file.path == corpus.edit.file).expect("the edit file").text;
    assert_eq!(line(text, corpus.edit.line).trim(), "int total = 0;");
    assert_eq!(line(text, corpus.edit.line - 1).trim(), "{", "the first statement of a body");
    assert_eq!(line(text, corpus.edit.line - 2).trim(), "public int Score()");
    let type_name = corpus.edit.file.rsplit('/').next().and_then(|name| name.strip_suffix(".cs")).expect("a name");
    let users = corpus.files.iter().filter(|file| file.text.contains(type_name)).count();
    assert_eq!(users, 1, "nothing but its own document names {type_name}");
}

#[test]
fn projects_reference_lower_ones_and_two_framework_projects_only_two_framework_ones() {
    let corpus = generate(&["unused"]);
    let projects: Vec<&File> = corpus.files.iter().filter(|file| file.path.ends_with(".csproj")).collect();
    assert_eq!(projects.len(), 50);
    let two_frameworks = |text: &str| text.contains("<TargetFrameworks>net10.0;net9.0</TargetFrameworks>");
    let multi: Vec<bool> = projects.iter().map(|file| two_frameworks(&file.text)).collect();
    assert_eq!(multi.iter().filter(|&&multi| multi).count(), 7, "P00 and one in eight");
    let mut referencing_p00 = 0;
    for (index, file) in projects.iter().enumerate() {
        let references: Vec<usize> = file
            .text
            .match_indices("Include=\"../P")
            .map(|(at, _)| file.text[at + 13..at + 15].parse().expect("a project number"))
            .collect();
        assert_eq!(references.is_empty(), index == 0, "{}", file.path);
        assert!(references.len() <= 3, "{}", file.path);
        assert!(references.iter().all(|&reference| reference < index), "a DAG: {}", file.path);
        assert!(references.iter().all(|&reference| !multi[index] || multi[reference]), "{}", file.path);
        referencing_p00 += usize::from(references.contains(&0));
        if multi[index] && index > 0 {
            let text = &corpus.files.iter().find(|f| f.path == format!("src/P{index:02}/Core/Hub{index:02}.cs"));
            assert!(text.expect("a hub").text.contains("#if NET9_0"), "a per-framework region in P{index:02}");
        }
    }
    assert!(referencing_p00 >= 25, "a good share reference P00 directly: {referencing_p00}");
}

#[test]
fn one_project_in_ten_is_an_xunit_project_nothing_references_whose_tests_reach_the_core_hub() {
    let corpus = generate(&["unused"]);
    let projects: Vec<&File> = corpus.files.iter().filter(|file| file.path.ends_with(".csproj")).collect();
    let tests: Vec<usize> =
        (0..projects.len()).filter(|&index| projects[index].text.contains("<IsTestProject>true")).collect();
    assert_eq!(tests, [8, 18, 28, 38, 48]);
    for &index in &tests {
        let project = projects[index];
        assert!(project.text.contains("Include=\"xunit\" Version=") && project.text.contains("Include=\"../P00/"));
        assert!(!project.text.contains("<TargetFrameworks>"), "one framework: {}", project.path);
        let referenced = format!("Include=\"../P{index:02}/");
        assert!(projects.iter().all(|other| !other.text.contains(&referenced)), "nothing references P{index:02}");
        let path = format!("src/P{index:02}/Tests/Hub{index:02}Tests.cs");
        let text = &corpus.files.iter().find(|file| file.path == path).expect("the tests").text;
        for part in ["[Fact]", "[Theory]", "Hub00.Total(", "[GeneratedRegex(", "partial class"] {
            assert!(text.contains(part), "{path} has no {part}");
        }
    }
    assert_eq!(corpus.files.iter().filter(|file| file.path.ends_with(".cs")).count(), 5000, "tests count in");
}

#[test]
fn every_document_is_30_to_80_lines_with_every_token_filled() {
    for corpus in [generate(&["unused"]), generate(&["unused", "--shape", "multi-target"])] {
        for file in corpus.files.iter().filter(|file| file.path.ends_with(".cs")) {
            let lines = file.text.lines().count();
            assert!((30..=80).contains(&lines), "{} has {lines} lines", file.path);
            assert!(!file.text.contains("__"), "{} has a token left", file.path);
        }
    }
}

#[test]
fn the_large_corpus_references_entity_thousands_of_times_from_every_project() {
    let corpus = generate(&["unused"]);
    let places: usize = corpus.files.iter().map(|file| entity_places(&file.text)).sum();
    assert!((2_000..=4_000).contains(&places), "{places} places name Entity");
    for project in 0..50 {
        let folder = format!("src/P{project:02}/");
        let documents =
            corpus.files.iter().filter(|file| file.path.starts_with(&folder) && entity_places(&file.text) > 0);
        assert!(documents.count() >= 30, "P{project:02} names Entity in few documents");
    }
}

#[test]
fn the_multi_target_library_has_315_documents_and_about_95_entity_places() {
    let corpus = generate(&["unused", "--shape", "multi-target"]);
    let documents = corpus.files.iter().filter(|file| file.path.ends_with(".cs"));
    assert_eq!(documents.count(), 315);
    let projects: Vec<&File> = corpus.files.iter().filter(|file| file.path.ends_with(".csproj")).collect();
    assert_eq!(projects.len(), 1);
    assert!(projects[0].text.contains("net10.0;net9.0;net8.0;netstandard2.1;netstandard2.0"));
    let places: usize = corpus.files.iter().map(|file| entity_places(&file.text)).sum();
    assert!((90..=100).contains(&places), "{places} places name Entity");
    let all: String = corpus.files.iter().map(|file| file.text.as_str()).collect();
    for construct in ["#if NETSTANDARD2_0", "#if NET8_0_OR_GREATER", "partial class", "where T : Entity"] {
        assert!(all.contains(construct), "no {construct}");
    }
    assert!(!all.contains("record ") && !all.contains("init;"), "netstandard2.0 has no IsExternalInit");
}

#[test]
fn a_folder_that_is_not_empty_is_refused_and_left_alone() {
    let out = out_dir();
    std::fs::create_dir_all(out.path()).expect("created");
    std::fs::write(out.path().join("keep.txt"), "mine").expect("written");
    let error = generate(&["unused", "--projects", "1", "--documents", "6"]).write(out.path()).expect_err("refused");
    assert!(error.to_string().contains("not empty"), "{error}");
    assert_eq!(tree(out.path()).len(), 1, "nothing written");
}

#[test]
fn options_name_what_is_wrong() {
    let parsed = Options::parse(&["out"]).expect("defaults");
    assert_eq!((parsed.shape, parsed.projects, parsed.documents), (Shape::Large, 50, 5000));
    let parsed = Options::parse(&["--shape", "multi-target", "out"]).expect("multi-target");
    assert_eq!((parsed.shape, parsed.projects, parsed.documents), (Shape::MultiTarget, 1, 315));
    for (args, expected) in [
        (&[][..], "name the output folder"),
        (&["out", "other"], "unexpected argument `other`"),
        (&["out", "--shape", "tiny"], "unknown shape `tiny`"),
        (&["out", "--projects", "many"], "whole number, not `many`"),
        (&["out", "--documents"], "--documents needs a number"),
        (&["out", "--force"], "unknown option `--force`"),
        (&["out", "--shape", "multi-target", "--projects", "2"], "size the `large` shape"),
    ] {
        let error = Options::parse(args).expect_err("refused").to_string();
        assert!(error.contains(expected), "{args:?}: {error}");
    }
    let too_few = Corpus::generate(&Options::parse(&["out", "--projects", "10", "--documents", "20"]).expect("parsed"));
    assert!(too_few.err().expect("refused").to_string().contains("at least 60"));
}

#[test]
fn json_strings_are_escaped() {
    assert_eq!(json_string("C:\\a \"b\"\n"), "\"C:\\\\a \\\"b\\\"\\n\"");
}
