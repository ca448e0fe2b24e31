//! What diagnose says of the toolchain: probed once in the background at start-up, refined by what each
//! host reports in its handshake. Published through an ArcSwap, so reading it never waits.

use arc_swap::ArcSwap;
use protocol::tools::diagnose::Components;
use roslyn_host::Located;
use std::sync::Arc;
use std::time::Duration;

pub struct ComponentsCell(ArcSwap<Components>);

impl ComponentsCell {
    pub fn start(located: &Located) -> Arc<Self> {
        let cell = Arc::new(Self(ArcSwap::from_pointee(Components {
            roslyn_available: located.install().is_ok(),
            dotnet_sdk_available: located.dotnet.is_some(),
            service_version: env!("CARGO_PKG_VERSION").to_owned(),
            ..Components::default()
        })));
        if let Some(dotnet) = located.dotnet.clone() {
            let probed = cell.clone();
            tokio::spawn(async move {
                let sdk = first_line(&dotnet, &["--version"]).await;
                let msbuild = first_line(&dotnet, &["msbuild", "-version", "-nologo"]).await;
                probed.update(|c| {
                    c.dotnet_sdk_version = c.dotnet_sdk_version.take().or(sdk.clone());
                    c.dotnet_sdk_available = sdk.is_some();
                    c.msbuild_version = c.msbuild_version.take().or(msbuild.clone());
                    c.msbuild_found = c.msbuild_found || msbuild.is_some();
                });
            });
        }
        cell
    }

    pub fn get(&self) -> Components {
        Components::clone(&self.0.load())
    }

    pub fn update(&self, change: impl Fn(&mut Components)) {
        self.0.rcu(|current| {
            let mut next = Components::clone(current);
            change(&mut next);
            next
        });
    }
}

/// The last non-empty line a short command prints, if it succeeds within a few seconds.
async fn first_line(program: &std::path::Path, args: &[&str]) -> Option<String> {
    let run = tokio::process::Command::new(program)
        .args(args)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_NOLOGO", "1")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(30), run).await.ok()?.ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines().map(str::trim).rfind(|l| !l.is_empty()).map(str::to_owned)
}
