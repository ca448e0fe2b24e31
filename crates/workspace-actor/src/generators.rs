//! Generator projects that are not built. A fresh clone's projects that take a source generator from a project
//! of the repository (`ProjectReference OutputItemType="Analyzer"`) name an assembly no one has built yet: the
//! host leaves such references out (so that searches work) and lists them in its summary. The service builds
//! each such project with its [`GeneratorBuilder`] (in its own copy of the repository unless told otherwise)
//! and has the host use the build, so that the code the generator writes exists for every answer; once its
//! sources change it is built again. Until then, and when building is off or fails, every answer on the
//! solution says which generator is missing and why ([`notices`]).

use crate::shared::Shared;
use crate::snapshots::{Snapshot, SnapshotChange, Source};
use crate::status::GeneratorPlan;
use protocol::host::{GeneratorBuild, GeneratorProject, GeneratorState, UseGeneratorsRequest, WorkspaceSummary, ask};
use protocol::tools::diagnose::GeneratorStatus;
use roslyn_host::HostProcess;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Builds a generator project and keeps its output where nothing writes it again.
pub trait GeneratorBuilder: Send + Sync + 'static {
    fn build<'a>(&'a self, build: BuildRequest<'a>)
    -> Pin<Box<dyn Future<Output = Result<Built, String>> + Send + 'a>>;

    /// Where it builds, for the notes diagnose shows: "in the service's copy of the repository", ...
    fn place(&self) -> &'static str;
}

impl std::fmt::Debug for dyn GeneratorBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GeneratorBuilder({})", self.place())
    }
}

/// One generator project to build.
pub struct BuildRequest<'a> {
    pub solution: &'a Path,
    pub project: &'a Path,
    /// The assembly as the project's consumers name it.
    pub assembly: &'a Path,
    /// When the build is given up (the load's time limit).
    pub deadline: tokio::time::Instant,
    /// Stops the build (the workspace stops).
    pub cancel: &'a CancellationToken,
}

/// A finished build.
pub struct Built {
    /// The assembly, in a folder of its own that nothing writes again.
    pub assembly: PathBuf,
    /// When the build read the project's files (milliseconds since the Unix epoch).
    pub sources_read_ms: u64,
}

/// Builds every generator of `summary` that is missing or stale and has a project (and was not tried on its
/// sources as they are now; a build made for them is given again, to a host started afresh), then has the host
/// use the builds: the host's new version and summary, when it took any.
pub(crate) async fn build(
    shared: &Shared,
    host: &HostProcess,
    summary: &WorkspaceSummary,
) -> Option<(u64, WorkspaceSummary)> {
    let builder = shared.settings.generators.clone()?;
    let mut builds = Vec::new();
    for generator in &summary.generators {
        match shared.status.generator_plan(generator) {
            GeneratorPlan::Leave => {}
            GeneratorPlan::Reuse(built) => builds.push(built),
            GeneratorPlan::Build => builds.extend(build_one(shared, builder.as_ref(), generator).await),
        }
    }
    if builds.is_empty() {
        return None;
    }
    let asked = ask::use_generators(UseGeneratorsRequest { builds });
    let limit = shared.settings.request_timeout;
    match host.connection().ask(asked, limit, &shared.stopping).await {
        Ok(reply) => {
            let to = Snapshot { host_pid: host.pid(), version: reply.workspace_version };
            // No file changed: the generated documents did.
            let change =
                SnapshotChange { to, paths: Vec::new(), source: Source::Disk, at: std::time::SystemTime::now() };
            shared.status.snapshots.record(change);
            Some((reply.workspace_version, reply.body))
        }
        Err(failure) => {
            tracing::warn!(%failure, "the host did not take the generator builds");
            None
        }
    }
}

/// Builds one generator, noting where it stands as it goes: what the host is to use, when it built.
async fn build_one(
    shared: &Shared,
    builder: &dyn GeneratorBuilder,
    generator: &GeneratorProject,
) -> Option<GeneratorBuild> {
    shared.status.note_generator(generator, format!("the service is building it {}", builder.place()), None);
    let request = BuildRequest {
        solution: &shared.solution,
        project: Path::new(&generator.project),
        assembly: Path::new(&generator.assembly),
        deadline: tokio::time::Instant::now() + shared.settings.load_timeout,
        cancel: &shared.stopping,
    };
    match builder.build(request).await {
        Ok(built) => {
            tracing::info!(generator = generator.name, built = %built.assembly.display(), "generator built");
            let build = GeneratorBuild {
                assembly: generator.assembly.clone(),
                built: built.assembly.display().to_string(),
                sources_read_ms: built.sources_read_ms,
            };
            let note = format!("the service built it {}", builder.place());
            shared.status.note_generator(generator, note, Some(build.clone()));
            Some(build)
        }
        Err(why) => {
            tracing::warn!(generator = generator.name, why, "generator build failed");
            let note = format!("the service's build of it {} failed: {why}", builder.place());
            shared.status.note_generator(generator, note, None);
            None
        }
    }
}

/// Follows the workspace's summaries: a generator whose sources changed since its build (or that a reload
/// found missing) is built again while calls go on; they say so meanwhile.
pub(crate) async fn follow(shared: Arc<Shared>) {
    loop {
        shared.status.changed.notified().await;
        let (Some(host), Some(summary)) = (shared.live_host(), shared.status.summary()) else {
            continue;
        };
        if let Some((version, summary)) = build(&shared, &host, &summary).await {
            shared.status.loaded(&summary, version);
        }
    }
}

/// What every answer on the solution says of its generators that do not run as their sources say; none when
/// each does. `builds`: whether the service builds generators.
pub(crate) fn notices(generators: &[GeneratorStatus], builds: bool) -> Vec<String> {
    generators
        .iter()
        .filter(|g| g.project.state != GeneratorState::Current)
        .map(|g| {
            let GeneratorStatus { project: p, build } = g;
            let of = if p.project.is_empty() { String::new() } else { format!(" (project {})", p.project) };
            let what = match p.state {
                GeneratorState::Missing => {
                    format!("is not built: the code it writes is missing from {}", p.consumers.join(", "))
                }
                _ => "is older than its sources: the code it writes may be out of date".to_owned(),
            };
            let build = match build {
                Some(build) => build.clone(),
                None if p.project.is_empty() => "no project of the solution builds it".to_owned(),
                None if builds => "the service builds it next".to_owned(),
                None => format!(
                    "the service does not build generators (generator_build = off): build it with `dotnet build {}`",
                    p.project
                ),
            };
            format!("Generator {}{of} {what}; {build}", p.name)
        })
        .collect()
}
