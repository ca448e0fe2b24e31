//! `cargo xtask dist`: a build of roslyn-mcp packaged as .NET developers install tools and as an archive.
//!
//! For one runtime identifier (`linux-x64`, ...): the RID-specific .NET tool package
//! `roslyn-mcp.<rid>.<version>.nupkg` (the native binary is the tool's entry point, the Roslyn host in
//! `roslyn-host/` beside it, where the binary looks first), the tool package `roslyn-mcp.<version>.nupkg` that
//! points to every RID-specific package in the folder (as the .NET 10 SDK lays out tools with native
//! executables: build on each machine into one folder, the pointer lists them all), and
//! `roslyn-mcp-<version>-<rid>.tar.gz` with the binary, the host, the README, the licence, the `docs/` the
//! README links to and `SHA256SUMS`.
//! Packages are made by `dotnet pack` of a generated project, so NuGet writes them as it writes its own.
//! The e2e tests include this file to package the build under test.

use sha2::{Digest, Sha256};
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The command the tool installs.
pub const COMMAND: &str = "roslyn-mcp";

/// What is packaged: a built binary and host, and the documents that go with them.
pub struct Build<'a> {
    pub binary: &'a Path,
    /// The published host folder (holding `RoslynMcp.Host.dll`).
    pub host: &'a Path,
    pub version: &'a str,
    pub rid: &'a str,
    /// The repository whose [`documents`] go into the archive and the package.
    pub repository: &'a Path,
}

/// The documents packaged beside the binary, relative to the repository: the README, the licence and the
/// pages of `docs/` the README links to.
pub fn documents(repository: &Path) -> io::Result<Vec<PathBuf>> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repository.join("docs"))?
        .map(|entry| entry.map(|e| Path::new("docs").join(e.file_name())))
        .filter(|page| page.as_ref().map_or(true, |p| p.extension().is_some_and(|e| e == "md")))
        .collect::<io::Result<_>>()?;
    pages.sort();
    Ok([PathBuf::from("README.md"), PathBuf::from("LICENSE")].into_iter().chain(pages).collect())
}

/// The runtime identifier of this machine, as .NET names it.
pub fn current_rid() -> String {
    let os = match std::env::consts::OS {
        "macos" => "osx",
        "windows" => "win",
        other => other,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    format!("{os}-{arch}")
}

/// Writes the packages and the archive into `out`; returns the files written.
pub fn package(build: &Build, out: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out)?;
    let work = out.join(format!("work-{}", build.rid));
    if work.exists() {
        std::fs::remove_dir_all(&work)?;
    }
    let stage = work.join(format!("{COMMAND}-{}-{}", build.version, build.rid));
    stage_files(build, &stage)?;
    let rid_package = pack_rid_package(build, &stage, &work.join("rid"), out)?;
    let pointer = pack_pointer(build, &work.join("pointer"), out)?;
    let archive = archive(build, &stage, out)?;
    std::fs::remove_dir_all(&work)?;
    Ok(vec![pointer, rid_package, archive])
}

/// The binary, the host beside it in `roslyn-host/`, the documents, and `SHA256SUMS` of all of them.
fn stage_files(build: &Build, stage: &Path) -> io::Result<()> {
    std::fs::create_dir_all(stage)?;
    let binary = stage.join(executable(COMMAND, build.rid));
    std::fs::copy(build.binary, &binary)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755))?;
    }
    // The build keeps line tables for backtraces; the package leaves them out (112 MiB to 23 MiB). Where
    // binutils' strip is missing, the binary goes as built.
    if let Err(missing) = Command::new("strip").arg("--strip-debug").arg(&binary).status() {
        eprintln!("the binary is packaged with its debug information: strip did not run ({missing})");
    }
    copy_tree(build.host, &stage.join("roslyn-host"))?;
    for document in documents(build.repository)? {
        let staged = stage.join(&document);
        std::fs::create_dir_all(staged.parent().unwrap_or(stage))?;
        std::fs::copy(build.repository.join(&document), staged)?;
    }
    let mut files = Vec::new();
    walk(stage, &mut files)?;
    files.sort();
    let mut sums = String::new();
    for file in files {
        let relative = file.strip_prefix(stage).map_err(io::Error::other)?;
        let digest = Sha256::digest(std::fs::read(&file)?);
        sums.push_str(&format!("{}  {}\n", hex::encode(digest), relative.display()));
    }
    std::fs::write(stage.join("SHA256SUMS"), sums)
}

fn executable(name: &str, rid: &str) -> String {
    if rid.starts_with("win") { format!("{name}.exe") } else { name.to_owned() }
}

/// `roslyn-mcp.<rid>`: the staged files under `tools/net10.0/<rid>/`, the binary the command's entry point.
fn pack_rid_package(build: &Build, stage: &Path, project: &Path, out: &Path) -> io::Result<PathBuf> {
    let id = format!("{COMMAND}.{}", build.rid);
    let settings = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<DotNetCliTool Version=\"2\">\n  <Commands>\n    <Command Name=\"{COMMAND}\" EntryPoint=\"{}\" Runner=\"executable\" />\n  </Commands>\n</DotNetCliTool>\n",
        executable(COMMAND, build.rid)
    );
    let items = format!(
        "    <None Include=\"{}/**\" Pack=\"true\" PackagePath=\"tools/net10.0/{}/\" />\n",
        stage.display(),
        build.rid
    );
    pack(project, &id, "DotnetToolRidPackage", build, &settings, &format!("tools/net10.0/{}/", build.rid), &items, out)
}

/// `roslyn-mcp`: what `dotnet tool install roslyn-mcp` finds, naming the RID-specific packages of this version
/// in `out`.
fn pack_pointer(build: &Build, project: &Path, out: &Path) -> io::Result<PathBuf> {
    let prefix = format!("{COMMAND}.");
    let suffix = format!(".{}.nupkg", build.version);
    let mut rids: Vec<String> = std::fs::read_dir(out)?
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter_map(|name| name.strip_prefix(&prefix)?.strip_suffix(&suffix).map(str::to_owned))
        .filter(|rid| rid.contains('-'))
        .collect();
    rids.sort();
    let listed: String = rids
        .iter()
        .map(|rid| format!("    <RuntimeIdentifierPackage RuntimeIdentifier=\"{rid}\" Id=\"{COMMAND}.{rid}\" />\n"))
        .collect();
    let settings = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<DotNetCliTool Version=\"2\">\n  <Commands>\n    <Command Name=\"{COMMAND}\" />\n  </Commands>\n  <RuntimeIdentifierPackages>\n{listed}  </RuntimeIdentifierPackages>\n</DotNetCliTool>\n"
    );
    pack(project, COMMAND, "DotnetTool", build, &settings, "tools/any/any/", "", out)
}

/// `dotnet pack` of a project that builds nothing and packs `items` and the tool settings file.
#[allow(clippy::too_many_arguments)]
fn pack(
    project: &Path,
    id: &str,
    package_type: &str,
    build: &Build,
    settings: &str,
    settings_path: &str,
    items: &str,
    out: &Path,
) -> io::Result<PathBuf> {
    std::fs::create_dir_all(project)?;
    std::fs::write(project.join("DotnetToolSettings.xml"), settings)?;
    let readme = format!(
        "    <None Include=\"{}\" Pack=\"true\" PackagePath=\"/\" />\n",
        build.repository.join("README.md").display()
    );
    let csproj = format!(
        r#"<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <PackageId>{id}</PackageId>
    <Version>{version}</Version>
    <Authors>roslyn-mcp</Authors>
    <Description>Compiler-accurate C# navigation and safe refactoring for AI coding agents, over MCP (Roslyn).</Description>
    <PackageTags>mcp;roslyn;csharp;refactoring;agents</PackageTags>
    <PackageLicenseExpression>MIT</PackageLicenseExpression>
    <PackageReadmeFile>README.md</PackageReadmeFile>
    <PackageType>{package_type}</PackageType>
    <IncludeBuildOutput>false</IncludeBuildOutput>
    <EnableDefaultItems>false</EnableDefaultItems>
    <SuppressDependenciesWhenPacking>true</SuppressDependenciesWhenPacking>
    <NoWarn>$(NoWarn);NU5100;NU5128</NoWarn>
    <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
    <ImportDirectoryBuildProps>false</ImportDirectoryBuildProps>
  </PropertyGroup>
  <ItemGroup>
    <None Include="DotnetToolSettings.xml" Pack="true" PackagePath="{settings_path}" />
{readme}{items}  </ItemGroup>
</Project>
"#,
        version = build.version,
    );
    std::fs::write(project.join("Package.csproj"), csproj)?;
    let status = Command::new("dotnet")
        .args(["pack", "-c", "Release", "-nologo", "-v", "q", "-p:UseSharedCompilation=false", "-o"])
        .arg(out)
        .arg(project.join("Package.csproj"))
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_NOLOGO", "1")
        .env("MSBUILDDISABLENODEREUSE", "1")
        .status()?;
    if !status.success() {
        return Err(io::Error::other(format!("dotnet pack {id} failed")));
    }
    Ok(out.join(format!("{id}.{}.nupkg", build.version)))
}

/// `roslyn-mcp-<version>-<rid>.tar.gz` of the staged folder.
fn archive(build: &Build, stage: &Path, out: &Path) -> io::Result<PathBuf> {
    let archive = out.join(format!("{COMMAND}-{}-{}.tar.gz", build.version, build.rid));
    let folder = stage.file_name().ok_or_else(|| io::Error::other("the stage has no name"))?;
    let status = Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(stage.parent().ok_or_else(|| io::Error::other("the stage has no parent"))?)
        .arg(folder)
        .status()?;
    if !status.success() {
        return Err(io::Error::other("tar failed"));
    }
    Ok(archive)
}

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

fn walk(folder: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let path = entry?.path();
        if path.is_dir() { walk(&path, files)? } else { files.push(path) }
    }
    Ok(())
}
