//! `cargo xtask corpus <out-dir> [--shape large|multi-target] [--projects N] [--documents N]` writes a
//! generated C# solution for the benches and prints one JSON line naming the places they query: the
//! declaration of the type `Entity` (find_references there), the core hub's `Total` (a member used across
//! the solution: renamed, and its tests found) and a line inside a method body of a leaf-ish document
//! (insert a statement there to time diagnostics after an edit).
//!
//! The output is a function of the arguments alone (a fixed-seed splitmix64 varies the content): the
//! same arguments write the same bytes on every run. Every generated document compiles without errors
//! or warnings for every framework of its project; `dotnet build` of the solution is the check.

mod foundation;
mod kinds;
mod large;
mod msbuild;
mod multi;
mod rng;
#[cfg(test)]
mod tests;

use anyhow::{Context, Result, bail};
use kinds::{Document, Kind, Scope};
use rng::Rng;
use std::path::{Path, PathBuf};

pub const USAGE: &str = "cargo xtask corpus <out-dir> [--shape large|multi-target] [--projects N] [--documents N]";

/// The symbol the benches query.
const SYMBOL: &str = "Entity";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Many single- and two-framework projects referencing each other.
    Large,
    /// One library with five target frameworks.
    MultiTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Options {
    out_dir: PathBuf,
    shape: Shape,
    projects: usize,
    documents: usize,
}

impl Options {
    fn parse(args: &[&str]) -> Result<Options> {
        let (mut out_dir, mut shape, mut projects, mut documents) = (None, Shape::Large, None, None);
        let mut args = args.iter().copied();
        while let Some(arg) = args.next() {
            match arg {
                "--shape" => {
                    shape = match args.next() {
                        Some("large") => Shape::Large,
                        Some("multi-target") => Shape::MultiTarget,
                        Some(other) => bail!("unknown shape `{other}`: expected `large` or `multi-target`"),
                        None => bail!("--shape needs a value: `large` or `multi-target`"),
                    }
                }
                "--projects" => projects = Some(count(arg, args.next())?),
                "--documents" => documents = Some(count(arg, args.next())?),
                option if option.starts_with("--") => bail!("unknown option `{option}`\nusage: {USAGE}"),
                path if out_dir.is_none() => out_dir = Some(PathBuf::from(path)),
                extra => bail!("unexpected argument `{extra}`: give one output folder\nusage: {USAGE}"),
            }
        }
        let Some(out_dir) = out_dir else { bail!("name the output folder\nusage: {USAGE}") };
        if shape == Shape::MultiTarget && (projects.is_some() || documents.is_some()) {
            bail!("--projects and --documents size the `large` shape; `multi-target` has a fixed size");
        }
        let (projects, documents) = match shape {
            Shape::Large => (projects.unwrap_or(large::PROJECTS), documents.unwrap_or(large::DOCUMENTS)),
            Shape::MultiTarget => (1, multi::DOCUMENTS),
        };
        Ok(Options { out_dir, shape, projects, documents })
    }
}

fn count(option: &str, value: Option<&str>) -> Result<usize> {
    let value = value.with_context(|| format!("{option} needs a number"))?;
    value.parse().with_context(|| format!("{option} takes a whole number, not `{value}`"))
}

/// One generated file: its path from the output folder (with `/`) and its text.
struct File {
    path: String,
    text: String,
}

/// A 1-based place in a generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Position {
    file: String,
    line: usize,
    column: usize,
}

/// A whole corpus, in memory.
struct Corpus {
    solution: String,
    projects: usize,
    documents: usize,
    files: Vec<File>,
    /// The first character of `Entity` in its declaration.
    query: Position,
    /// The first character of `Total` in the declaration of the core hub's (`Hub00`'s, the library's
    /// `Catalog`'s) method.
    member: Position,
    /// A statement inside a method body of a leaf-ish document: a statement inserted as a line before
    /// it changes no declaration.
    edit: Position,
}

impl Corpus {
    fn generate(options: &Options) -> Result<Corpus> {
        match options.shape {
            Shape::Large => large::generate(options.projects, options.documents),
            Shape::MultiTarget => multi::generate(),
        }
    }

    /// Writes every file under `out_dir`, which must be new or empty; returns the folder, absolute.
    fn write(&self, out_dir: &Path) -> Result<PathBuf> {
        if out_dir.exists() {
            if !out_dir.is_dir() {
                bail!("{} exists and is not a folder: give `corpus` a new or empty folder", out_dir.display());
            }
            let mut entries = std::fs::read_dir(out_dir).with_context(|| format!("reading {}", out_dir.display()))?;
            if entries.next().is_some() {
                bail!(
                    "refusing to write into {}: the folder is not empty (give `corpus` a new or empty folder)",
                    out_dir.display()
                );
            }
        }
        std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
        let root = out_dir.canonicalize().with_context(|| format!("resolving {}", out_dir.display()))?;
        for file in &self.files {
            let path = absolute(&root, &file.path);
            std::fs::create_dir_all(path.parent().context("a generated file has a folder")?)
                .with_context(|| format!("creating the folder of {}", path.display()))?;
            std::fs::write(&path, &file.text).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(root)
    }

    /// The JSON line the benches read, with the paths under `root`.
    fn summary(&self, root: &Path) -> String {
        let path = |relative: &str| json_string(&absolute(root, relative).display().to_string());
        format!(
            "{{\"solution\": {}, \"projects\": {}, \"documents\": {}, \
             \"query\": {{\"file\": {}, \"line\": {}, \"column\": {}, \"symbol\": {}}}, \
             \"member\": {{\"file\": {}, \"line\": {}, \"column\": {}}}, \
             \"edit\": {{\"file\": {}, \"line\": {}}}}}",
            path(&self.solution),
            self.projects,
            self.documents,
            path(&self.query.file),
            self.query.line,
            self.query.column,
            json_string(SYMBOL),
            path(&self.member.file),
            self.member.line,
            self.member.column,
            path(&self.edit.file),
            self.edit.line,
        )
    }
}

/// What finds the hub's `Total` declaration line.
const MEMBER_DECLARATION: &str = "public static int Total(";

/// The statement the edit position names (in a service's `Score()`).
const EDIT_MARKER: &str = "int total = 0;";

/// The position of `identifier` on the first line of `path` in `files` that contains `marker`.
fn locate(files: &[File], path: &str, marker: &str, identifier: &str) -> Result<Position> {
    let file = files.iter().find(|file| file.path == path).with_context(|| format!("the corpus has no {path}"))?;
    let (index, line) = file
        .text
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains(marker))
        .with_context(|| format!("{path} has no line with `{marker}`"))?;
    let start = line.find(marker).unwrap_or_default();
    let offset = line[start..].find(identifier).with_context(|| format!("`{marker}` names no `{identifier}`"))?;
    Ok(Position { file: path.to_owned(), line: index + 1, column: start + offset + 1 })
}

/// `cargo xtask corpus ...`: writes the corpus and prints its JSON line.
pub fn run(args: &[&str]) -> Result<()> {
    let options = Options::parse(args)?;
    let corpus = Corpus::generate(&options)?;
    let root = corpus.write(&options.out_dir)?;
    println!("{}", corpus.summary(&root));
    Ok(())
}

fn absolute(root: &Path, relative: &str) -> PathBuf {
    relative.split('/').fold(root.to_path_buf(), |path, part| path.join(part))
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `template` with every `__TOKEN__` replaced by its value.
fn fill(template: &str, tokens: &[(&str, &str)]) -> String {
    tokens.iter().fold(template.to_owned(), |text, (token, value)| text.replace(token, value))
}

/// How many places of `text` reference the type `Entity`: its identifier, less its declarations (the
/// type's and its constructors').
fn entity_places(text: &str) -> usize {
    let is_identifier = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(SYMBOL)
        .filter(|&(at, _)| {
            let (before, after) = (&text[..at], &text[at + SYMBOL.len()..]);
            let identifier = !before.ends_with(is_identifier) && !after.starts_with(is_identifier);
            let declaration = before.ends_with("class ") || (before.ends_with("public ") && after.starts_with('('));
            identifier && !declaration
        })
        .count()
}

/// The folders of generated documents and the stems of their type names.
const AREAS: [(&str, &str); 8] = [
    ("Orders", "Order"),
    ("Customers", "Customer"),
    ("Inventory", "Stock"),
    ("Billing", "Invoice"),
    ("Shipping", "Parcel"),
    ("Catalog", "Product"),
    ("Reports", "Report"),
    ("Accounts", "Account"),
];

/// Decides, document by document, whether a document names `Entity`, so that the places add up to
/// `target` spread evenly over `documents`.
struct EntityBudget {
    target: usize,
    documents: usize,
    seen: usize,
    placed: usize,
}

impl EntityBudget {
    fn new(target: usize, documents: usize) -> EntityBudget {
        EntityBudget { target, documents: documents.max(1), seen: 0, placed: 0 }
    }

    fn place(&mut self, kind: Kind) -> bool {
        self.seen += kind.files();
        let places = kind.entity_places();
        let fits = self.placed + places <= self.target * self.seen / self.documents;
        if fits {
            self.placed += places;
        }
        fits
    }
}

/// The generated documents of one project, appended to `files`.
struct ProjectDocuments<'a> {
    /// The project's folder from the output folder: `src/P07`.
    folder: &'a str,
    /// Kinds in order, repeated; a widget that would not fit becomes an entity.
    cycle: &'a [Kind],
    /// How many documents (files) to write.
    count: usize,
    /// The project's own item: the first partner of services.
    own_item: &'a str,
}

impl ProjectDocuments<'_> {
    /// `scope` gives the names a document uses; it may vary them (the referenced project) with `rng`.
    fn write(
        &self,
        rng: &mut Rng,
        numbers: &mut usize,
        budget: &mut EntityBudget,
        scope: &dyn Fn(&mut Rng) -> Scope,
        files: &mut Vec<File>,
    ) {
        let mut entities = vec![self.own_item.to_owned()];
        let (mut written, mut slot) = (0, 0);
        while written < self.count {
            let mut kind = self.cycle[slot % self.cycle.len()];
            slot += 1;
            if kind.files() > self.count - written {
                kind = Kind::Entity;
            }
            let (area, stem) = *rng.pick(&AREAS);
            let scope = scope(rng);
            let partner = match kind {
                Kind::Entity if rng.chance(50) => scope.own_item.clone(),
                Kind::Entity => scope.item.clone(),
                Kind::Service => rng.pick(&entities).clone(),
                _ => String::new(),
            };
            let document = Document {
                kind,
                stem,
                number: format!("{:04}", *numbers),
                partner: &partner,
                names_entity: budget.place(kind),
            };
            *numbers += 1;
            for (name, text) in kinds::render(&document, &scope) {
                files.push(File { path: format!("{}/{area}/{name}", self.folder), text });
            }
            if kind == Kind::Entity {
                entities.push(kind.type_name(stem, &document.number));
            }
            written += kind.files();
        }
    }
}
