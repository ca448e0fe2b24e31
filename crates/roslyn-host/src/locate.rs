//! Finds `dotnet` and the host assembly. The result is computed once at start-up and published for diagnose.

use protocol::{ErrorCode, ToolError};
use std::path::{Path, PathBuf};

/// Overrides where the host assembly is looked up (an installed copy, a development build).
pub const HOST_DLL_ENV: &str = "ROSLYN_MCP_HOST_DLL";
const HOST_DLL_NAME: &str = "RoslynMcp.Host.dll";

/// A runnable host: the `dotnet` muxer, the host assembly it runs, and how many steps below the service's
/// CPU priority (nice) it runs, with the builds and test runs the service starts through `dotnet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostInstall {
    pub dotnet: PathBuf,
    pub host_dll: PathBuf,
    pub nice: i32,
}

/// Where the host would be, whether or not it is there; diagnose reports both paths.
#[derive(Debug, Clone)]
pub struct Located {
    pub dotnet: Option<PathBuf>,
    pub host_dll: PathBuf,
    /// What the build script said of the host build (`ok`, or why it was not built).
    pub build_status: &'static str,
    /// As [`HostInstall::nice`].
    pub nice: i32,
}

impl Located {
    /// A runnable install, or the catalog error that says what is missing.
    pub fn install(&self) -> Result<HostInstall, ToolError> {
        let Some(dotnet) = self.dotnet.clone() else {
            return Err(ToolError::new(
                ErrorCode::SDK_NOT_FOUND,
                "The .NET SDK (dotnet) was not found on PATH or in DOTNET_ROOT",
            )
            .suggest("Install the .NET SDK 8 or later and make sure `dotnet` is on PATH"));
        };
        if !self.host_dll.is_file() {
            return Err(ToolError::new(
                ErrorCode::ROSLYN_NOT_AVAILABLE,
                format!(
                    "The Roslyn host is not built: {} is missing (build: {})",
                    self.host_dll.display(),
                    self.build_status
                ),
            )
            .detail("hostDll", self.host_dll.display().to_string())
            .suggest("Run `cargo build` on a machine with the .NET SDK and NuGet access")
            .suggest(format!("Or point {HOST_DLL_ENV} at a built RoslynMcp.Host.dll")));
        }
        Ok(HostInstall { dotnet, host_dll: self.host_dll.clone(), nice: self.nice })
    }
}

/// Looks in order: `ROSLYN_MCP_HOST_DLL`, `roslyn-host/` beside the executable, the build script's output.
/// What runs from it runs `nice` steps below the service.
pub fn locate(nice: i32) -> Located {
    let host_dll = std::env::var_os(HOST_DLL_ENV)
        .map(PathBuf::from)
        .or_else(beside_executable)
        .unwrap_or_else(|| PathBuf::from(env!("ROSLYN_MCP_BUILT_HOST_DLL")));
    Located { dotnet: find_dotnet(), host_dll, build_status: env!("ROSLYN_MCP_HOST_BUILD_STATUS"), nice }
}

fn beside_executable() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let candidate = exe.parent()?.join("roslyn-host").join(HOST_DLL_NAME);
    candidate.is_file().then_some(candidate)
}

fn find_dotnet() -> Option<PathBuf> {
    let from_root = std::env::var_os("DOTNET_ROOT").map(|root| Path::new(&root).join("dotnet"));
    from_root.filter(|p| p.is_file()).or_else(|| which::which("dotnet").ok())
}
