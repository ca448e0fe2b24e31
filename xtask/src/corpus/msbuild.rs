//! The MSBuild side of a corpus: the classic `.sln` text, `Directory.Build.props` and SDK-style project files.

use super::rng::guid;

/// The project-type GUID of a C# project in a classic solution file.
const CSHARP_PROJECT_TYPE: &str = "{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}";

/// One project of a solution: its name and its path from the solution's folder, with `/`.
pub(super) struct SolutionProject {
    pub(super) name: String,
    pub(super) path: String,
}

/// A Visual Studio solution file (format 12.00) with Debug and Release for Any CPU, CRLF line ends as
/// Visual Studio writes them. `stream` makes the project GUIDs of two corpora differ.
pub(super) fn solution(projects: &[SolutionProject], stream: u64) -> String {
    let guids: Vec<String> = (0..projects.len()).map(|index| guid(stream * 10_000 + index as u64)).collect();
    let mut lines = vec![
        String::new(),
        "Microsoft Visual Studio Solution File, Format Version 12.00".to_owned(),
        "# Visual Studio Version 17".to_owned(),
        "VisualStudioVersion = 17.0.31903.59".to_owned(),
        "MinimumVisualStudioVersion = 10.0.40219.1".to_owned(),
    ];
    for (project, guid) in projects.iter().zip(&guids) {
        let path = project.path.replace('/', "\\");
        lines.push(format!("Project(\"{CSHARP_PROJECT_TYPE}\") = \"{}\", \"{path}\", \"{guid}\"", project.name));
        lines.push("EndProject".to_owned());
    }
    lines.push("Global".to_owned());
    lines.push("\tGlobalSection(SolutionConfigurationPlatforms) = preSolution".to_owned());
    for configuration in ["Debug", "Release"] {
        lines.push(format!("\t\t{configuration}|Any CPU = {configuration}|Any CPU"));
    }
    lines.push("\tEndGlobalSection".to_owned());
    lines.push("\tGlobalSection(ProjectConfigurationPlatforms) = postSolution".to_owned());
    for guid in &guids {
        for configuration in ["Debug", "Release"] {
            lines.push(format!("\t\t{guid}.{configuration}|Any CPU.ActiveCfg = {configuration}|Any CPU"));
            lines.push(format!("\t\t{guid}.{configuration}|Any CPU.Build.0 = {configuration}|Any CPU"));
        }
    }
    lines.push("\tEndGlobalSection".to_owned());
    lines.push("\tGlobalSection(SolutionProperties) = preSolution".to_owned());
    lines.push("\t\tHideSolutionNode = FALSE".to_owned());
    lines.push("\tEndGlobalSection".to_owned());
    lines.push("\tGlobalSection(ExtensibilityGlobals) = postSolution".to_owned());
    lines.push(format!("\t\tSolutionGuid = {}", guid(stream * 10_000 + 9_999)));
    lines.push("\tEndGlobalSection".to_owned());
    lines.push("EndGlobal".to_owned());
    let mut text = lines.join("\r\n");
    text.push_str("\r\n");
    text
}

/// The root `Directory.Build.props`: quiet, deterministic compilations (no analyzers, no documentation
/// file, warnings stay warnings so a build reports them all). It also stops MSBuild from importing a
/// `Directory.Build.props` of a folder above the corpus.
pub(super) fn directory_build_props() -> String {
    "<Project>\n\n  <PropertyGroup>\n    <Nullable>disable</Nullable>\n    <ImplicitUsings>disable</ImplicitUsings>\n    \
     <TreatWarningsAsErrors>false</TreatWarningsAsErrors>\n    <EnableNETAnalyzers>false</EnableNETAnalyzers>\n    \
     <GenerateDocumentationFile>false</GenerateDocumentationFile>\n    <LangVersion>latest</LangVersion>\n  \
     </PropertyGroup>\n\n</Project>\n"
        .to_owned()
}

/// An SDK-style project. `frameworks` with one entry writes `<TargetFramework>`, with more
/// `<TargetFrameworks>`; `packages` are (id, version); `references` are paths from the project's folder, with `/`.
pub(super) fn sdk_project(
    frameworks: &[&str],
    root_namespace: &str,
    extra: &[&str],
    packages: &[(&str, &str)],
    references: &[String],
) -> String {
    let mut text = String::from("<Project Sdk=\"Microsoft.NET.Sdk\">\n\n  <PropertyGroup>\n");
    match frameworks {
        [one] => text.push_str(&format!("    <TargetFramework>{one}</TargetFramework>\n")),
        many => text.push_str(&format!("    <TargetFrameworks>{}</TargetFrameworks>\n", many.join(";"))),
    }
    text.push_str(&format!("    <RootNamespace>{root_namespace}</RootNamespace>\n"));
    for property in extra {
        text.push_str(&format!("    {property}\n"));
    }
    text.push_str("  </PropertyGroup>\n");
    if !packages.is_empty() {
        text.push_str("\n  <ItemGroup>\n");
        for (id, version) in packages {
            text.push_str(&format!("    <PackageReference Include=\"{id}\" Version=\"{version}\" />\n"));
        }
        text.push_str("  </ItemGroup>\n");
    }
    if !references.is_empty() {
        text.push_str("\n  <ItemGroup>\n");
        for reference in references {
            text.push_str(&format!("    <ProjectReference Include=\"{reference}\" />\n"));
        }
        text.push_str("  </ItemGroup>\n");
    }
    text.push_str("\n</Project>\n");
    text
}
