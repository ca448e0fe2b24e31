//! The service's builds of generator projects ([`GeneratorBuilder`]): in a copy of the repository of their own
//! (as test runs build: never the repository's `bin/` and `obj/`, and never in line behind a test run), or where
//! the project is when the user chose so. Each build's output is then copied into a folder named for its
//! content, which nothing writes again, for the host to load: a later build loads afresh beside it.

use super::{TestRuns, build_log, digest, process};
use crate::config::GeneratorBuild;
use crate::progress::Progress;
use paths::Roots;
use roslyn_host::HostInstall;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use tokio_util::sync::CancellationToken;
use workspace_actor::checksum::sha256_hex;
use workspace_actor::{BuildRequest, Built, GeneratorBuilder};

pub struct GeneratorBuilds {
    /// The copies builds run in, one per solution.
    copies: TestRuns,
    /// The builds' outputs, by solution, assembly and content.
    outputs: PathBuf,
    install: HostInstall,
    in_place: bool,
}

impl GeneratorBuilds {
    /// The builder `place` asks for under the state folder `state`; none when it is off.
    pub fn new(place: GeneratorBuild, state: &Path, install: HostInstall) -> Option<Self> {
        let in_place = match place {
            GeneratorBuild::Off => return None,
            GeneratorBuild::Copy => false,
            GeneratorBuild::InPlace => true,
        };
        let copies = TestRuns::new(state.join("generator-builds"), state.to_path_buf());
        Some(Self { copies, outputs: state.join("generators"), install, in_place })
    }

    async fn run(&self, request: BuildRequest<'_>) -> Result<Built, String> {
        let read_at =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let (solution, cancel) = (request.solution, request.cancel);
        let output = if self.in_place {
            let log = crate::offload::cpu(|| self.log(solution))?;
            let built = self
                .compile(request.project, request.project, true, &log, request.deadline, cancel, |t| t.to_owned())
                .await;
            let _ = crate::offload::cpu(|| std::fs::remove_file(&log));
            built?;
            request.assembly.to_path_buf()
        } else {
            let folder = solution.parent().unwrap_or(Path::new("/"));
            let roots = Roots::new(vec![folder.to_path_buf()], None);
            let reached = [request.project.to_path_buf()];
            let folders = self
                .copies
                .begin(solution, &[request.project], &roots, &reached, request.deadline, cancel)
                .await
                .map_err(|e| e.message)?;
            if !folders.holds(request.project) {
                return Err(format!("{} lies outside the repository's copy", request.project.display()));
            }
            folders.sync().map_err(|e| e.message)?;
            let project = folders.in_copy(request.project);
            let restore = !folders.restored(request.project);
            let log = folders.results.join("build.log");
            self.compile(request.project, &project, restore, &log, request.deadline, cancel, |t| folders.in_source(t))
                .await?;
            folders.mark_restored(request.project);
            folders.in_copy(request.assembly)
        };
        let staged = crate::offload::cpu(|| self.stage(solution, request.assembly, &output))
            .map_err(|e| format!("copying the build's output failed: {e}"))?;
        Ok(Built { assembly: staged, sources_read_ms: read_at })
    }

    /// One `dotnet build` of `project` (the repository's `named`): the first of its errors when it failed, the
    /// log's paths told as the repository's by `in_source`.
    #[allow(clippy::too_many_arguments)]
    async fn compile(
        &self,
        named: &Path,
        project: &Path,
        restore: bool,
        log: &Path,
        deadline: tokio::time::Instant,
        cancel: &CancellationToken,
        in_source: impl Fn(&str) -> String,
    ) -> Result<(), String> {
        let command = process::build(&self.install, project, restore, log);
        let (ended, _) = process::run(command, deadline, cancel, &Progress::default(), None, |_| None)
            .await
            .map_err(|e| e.message)?;
        match ended {
            process::Ended::Exited(status) if status.success() => Ok(()),
            process::Ended::Exited(_) => {
                let log = crate::offload::cpu(|| std::fs::read_to_string(log).unwrap_or_default());
                let errors = build_log::errors(&in_source(&log));
                let first = errors.first().map_or_else(
                    || "dotnet build failed".to_owned(),
                    |e| match (&e.file_path, e.line, e.column) {
                        (Some(file), Some(line), Some(column)) => {
                            format!("{file}({line},{column}): {}: {}", e.code, e.message)
                        }
                        _ => format!("{}: {}", e.code, e.message),
                    },
                );
                Err(format!("`dotnet build {}` failed with {} error(s): {first}", named.display(), errors.len()))
            }
            process::Ended::TimedOut => Err("the build lasted past the load's time limit".to_owned()),
            process::Ended::Cancelled => Err("the build was stopped".to_owned()),
        }
    }

    /// Where an in-place build writes its log: in the service's private folder of the solution.
    fn log(&self, solution: &Path) -> Result<PathBuf, String> {
        let folder = self.outputs.join(digest(solution));
        paths::create_private_dir(&folder).map_err(|e| e.to_string())?;
        Ok(folder.join(format!("build-{}.log", uuid::Uuid::new_v4().simple())))
    }

    /// Copies the folder of the built `output` into `<outputs>/<solution>/<assembly>/<content>/` (once per
    /// content), removes the earlier builds of the assembly beside it, and gives the copy's path.
    fn stage(&self, solution: &Path, assembly: &Path, output: &Path) -> std::io::Result<PathBuf> {
        let bytes = std::fs::read(output)?;
        let builds = self.outputs.join(digest(solution)).join(digest(assembly));
        let folder = builds.join(&sha256_hex(&bytes)[..16]);
        let name = output.file_name().ok_or_else(|| std::io::Error::other("an assembly without a name"))?;
        if !folder.join(name).exists() {
            paths::create_private_dir(&builds)?;
            let partial = builds.join(format!(".partial-{}", uuid::Uuid::new_v4().simple()));
            super::mirror::sync(output.parent().unwrap_or(Path::new("/")), &partial, &self.outputs)?;
            let _ = std::fs::remove_dir_all(&folder);
            std::fs::rename(&partial, &folder)?;
        }
        for earlier in std::fs::read_dir(&builds)?.flatten() {
            if earlier.path() != folder {
                let _ = std::fs::remove_dir_all(earlier.path());
            }
        }
        Ok(folder.join(name))
    }
}

impl GeneratorBuilder for GeneratorBuilds {
    fn build<'a>(
        &'a self,
        request: BuildRequest<'a>,
    ) -> Pin<Box<dyn Future<Output = Result<Built, String>> + Send + 'a>> {
        Box::pin(self.run(request))
    }

    fn place(&self) -> &'static str {
        if self.in_place { "where the project is" } else { "in the service's copy of the repository" }
    }
}
