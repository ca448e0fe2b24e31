//! A solution too large to search in an instant, written at test time rather than kept in the repository:
//! one project whose many files each use one shared type (`Large.Shared`) in several members.

use super::Fixture;
use std::path::Path;

/// Where `Large.Shared` is declared, relative to the solution folder.
pub const SHARED_FILE: &str = "Shared.cs";

/// The uses of `Shared` find_references reports in a solution of `files` consumers: nine in each, three in
/// `Shared` itself.
pub fn reference_count(files: usize) -> usize {
    files * 9 + 3
}

const PROPS: &str = r#"<Project>
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
    <ImplicitUsings>disable</ImplicitUsings>
    <LangVersion>latest</LangVersion>
    <GenerateDocumentationFile>false</GenerateDocumentationFile>
  </PropertyGroup>
</Project>
"#;

const SHARED: &str = "namespace Large;

public sealed class Shared
{
    public Shared(int value) => Value = value;

    public int Value { get; }

    public Shared Add(Shared other) => new Shared(Value + other.Value);
}
";

/// Writes the `Large` solution (`Large.slnx`) with `files` consumers of `Shared` into a temporary folder.
pub fn generate(files: usize) -> Fixture {
    let fixture = Fixture::empty("Large");
    let root = &fixture.root;
    std::fs::create_dir_all(root.join("Uses")).expect("create the Large folders");
    write(root, "Directory.Build.props", PROPS);
    write(root, "Large.slnx", "<Solution>\n  <Project Path=\"Large.csproj\" />\n</Solution>\n");
    write(root, "Large.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n</Project>\n");
    write(root, SHARED_FILE, SHARED);
    for index in 0..files {
        write(root, &format!("Uses/Use{index:04}.cs"), &consumer(index));
    }
    fixture
}

/// One consumer: members whose bodies the compiler must bind (lambdas, overload resolution) around each
/// use, so that finding the uses costs real work per file.
fn consumer(index: usize) -> String {
    format!(
        "using System.Collections.Generic;
using System.Linq;

namespace Large.Uses;

public sealed class Use{index:04}
{{
    public Shared Make(int seed) => new Shared(seed + {index});

    public Shared Sum(IEnumerable<Shared> parts) =>
        parts.Where(p => p.Value % {modulus} != 0).Aggregate(new Shared({index}), (sum, part) => sum.Add(part));

    public int Largest(List<Shared> items) =>
        items.Select(s => s.Value * {index}).Where(v => v > 0).DefaultIfEmpty().Max();

    public Dictionary<int, Shared> Index(IEnumerable<int> keys) =>
        keys.Distinct().ToDictionary(k => k, k => Make(k * {index}));

    public Shared? First(IReadOnlyList<Shared> items) => items.FirstOrDefault();
}}
",
        modulus = index % 7 + 2,
    )
}

fn write(root: &Path, relative: &str, text: &str) {
    std::fs::write(root.join(relative), text).unwrap_or_else(|e| panic!("write {relative}: {e}"));
}
