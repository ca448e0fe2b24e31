//! The daemon (`roslyn-mcp serve`) on a private state folder, and the clients that reach it: MCP
//! Streamable HTTP and `roslyn-mcp stdio` bridges. Whatever daemon serves a state folder is stopped when
//! the folder is dropped, so no test leaves one behind.
// Roots are deprecated by the 2026-07-28 revision (SEP-2577); clients of 2025-11-25 still offer them.
#![allow(deprecated)]

use super::{Client, alive, eventually};
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ListRootsResult, ProgressNotificationParam, ProtocolVersion, Root,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::TokioChildProcess;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A client as agents run them: it speaks a given protocol revision (2025-11-25 by default, which has
/// sessions over HTTP), may offer MCP roots, and keeps the progress notifications it receives.
#[derive(Clone)]
pub struct Agent {
    pub version: ProtocolVersion,
    pub roots: Vec<PathBuf>,
    pub progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl Default for Agent {
    fn default() -> Self {
        Self { version: ProtocolVersion::V_2025_11_25, roots: Vec::new(), progress: Arc::default() }
    }
}

impl Agent {
    pub fn with_roots(roots: &[&Path]) -> Self {
        Self { roots: roots.iter().map(|r| r.to_path_buf()).collect(), ..Self::default() }
    }
}

impl ClientHandler for Agent {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.roots.is_empty() {
            ClientCapabilities::default()
        } else {
            ClientCapabilities::builder().enable_roots().build()
        };
        ClientConfig::new(capabilities, Implementation::new("roslyn-mcp-e2e", "1"))
            .with_protocol_version(self.version.clone())
    }

    async fn list_roots(&self, _: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        let roots = self.roots.iter().map(|r| Root::new(url::Url::from_file_path(r).expect("file url").to_string()));
        Ok(ListRootsResult::new(roots.collect()))
    }

    async fn on_progress(&self, params: ProgressNotificationParam, _: NotificationContext<RoleClient>) {
        self.progress.lock().expect("progress").push(params);
    }
}

/// A private state folder: journal, lock, socket and `daemon.json` of one daemon.
pub struct StateDir {
    dir: tempfile::TempDir,
}

impl Default for StateDir {
    fn default() -> Self {
        super::timing::touch();
        Self { dir: tempfile::Builder::new().prefix("rmcp-d-").tempdir_in("/tmp").expect("state dir") }
    }
}

impl StateDir {
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn log(&self) -> PathBuf {
        self.path().join("run/daemon.log")
    }

    /// What the serving daemon published, if one does.
    pub fn info(&self) -> Option<Value> {
        serde_json::from_slice(&std::fs::read(self.path().join("run/daemon.json")).ok()?).ok()
    }

    /// The serving daemon's pid, waiting for one to publish itself.
    pub async fn daemon_pid(&self) -> u32 {
        let info = eventually(Duration::from_secs(30), || async { self.info() }).await;
        info.and_then(|i| i["pid"].as_u64()).expect("a daemon published daemon.json") as u32
    }

    /// `http://127.0.0.1:PORT` of the serving daemon.
    pub async fn base_url(&self) -> String {
        let info = eventually(Duration::from_secs(30), || async { self.info() }).await.expect("daemon.json");
        format!("http://{}", info["http"].as_str().expect("http address"))
    }

    /// The bearer token the daemon generated at first start (`<state>/http-token`).
    pub fn token(&self) -> Option<String> {
        std::fs::read_to_string(self.path().join("http-token")).ok()
    }

    /// An MCP client over Streamable HTTP, with the given bearer token, else the generated one.
    pub async fn http_client(&self, token: Option<&str>) -> Client<Agent> {
        self.http_client_with(Agent::default(), token).await
    }

    pub async fn http_client_with<H: ClientHandler>(&self, handler: H, token: Option<&str>) -> Client<H> {
        let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", self.base_url().await));
        if let Some(token) = token.map(str::to_owned).or_else(|| self.token()) {
            config = config.auth_header(token);
        }
        let service = handler.serve(StreamableHttpClientTransport::from_config(config)).await.expect("MCP initialize");
        Client::new(service, self.log())
    }

    /// A `roslyn-mcp stdio` bridge started in `cwd`, which starts the daemon if none serves this folder.
    pub async fn bridge(&self, cwd: &Path) -> Client<Agent> {
        self.bridge_with(Agent::default(), cwd).await
    }

    pub async fn bridge_with<H: ClientHandler>(&self, handler: H, cwd: &Path) -> Client<H> {
        self.bridge_command(handler, self.bridge_process(cwd, &[])).await
    }

    /// A bridge with extra variables (they reach the daemon it starts).
    pub async fn bridge_env(&self, cwd: &Path, env: &[(&str, &str)]) -> Client<Agent> {
        self.bridge_command(Agent::default(), self.bridge_process(cwd, env)).await
    }

    /// `roslyn-mcp stdio` on this folder, not yet started.
    pub fn bridge_process(&self, cwd: &Path, env: &[(&str, &str)]) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"));
        command.arg("stdio").current_dir(cwd).envs(self.env()).envs(env.iter().copied());
        command
    }

    /// An MCP client over a bridge `command` (which may run it as another user).
    pub async fn bridge_command<H: ClientHandler>(&self, handler: H, command: tokio::process::Command) -> Client<H> {
        bridge_client(handler, command, self.log()).await
    }

    /// `roslyn-mcp serve` on this folder, on any free loopback port, with extra arguments and variables.
    pub fn serve(&self, args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
        self.serve_command(args, env).spawn().expect("spawn roslyn-mcp serve")
    }

    /// [`StateDir::serve`]'s command, not yet started (to give it another working directory).
    pub fn serve_command(&self, args: &[&str], env: &[(&str, &str)]) -> std::process::Command {
        let log =
            std::fs::OpenOptions::new().create(true).append(true).open(self.path().join("serve.log")).expect("log");
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_roslyn-mcp"));
        command
            .arg("serve")
            .args(args)
            .envs(self.env())
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(log);
        command
    }

    /// Live `roslyn-mcp serve` processes of this folder (read from their environment).
    pub fn daemons(&self) -> Vec<u32> {
        let wanted = format!("ROSLYN_MCP_STATE_DIR={}", self.path().display());
        let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
            .filter(|&pid| alive(pid))
            .filter(|pid| {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
                cmdline.split(|b| *b == 0).nth(1) == Some(b"serve".as_slice())
                    && environ.split(|b| *b == 0).any(|v| v == wanted.as_bytes())
            })
            .collect()
    }

    /// The serve log written by [`StateDir::serve`].
    pub fn serve_log(&self) -> String {
        std::fs::read_to_string(self.path().join("serve.log")).unwrap_or_default()
    }

    /// What every process of this folder is given: the state folder, a free loopback port, the log level, and
    /// [`super::lean`].
    pub fn env(&self) -> Vec<(&'static str, String)> {
        env_of(self.path())
    }

    /// Stops the serving daemon with SIGTERM and waits for it to exit.
    pub async fn terminate(&self) {
        if let Some(pid) = self.info().and_then(|i| i["pid"].as_u64()) {
            signal(pid as u32, "-TERM");
            let gone = eventually(Duration::from_secs(60), || async { (!alive(pid as u32)).then_some(()) }).await;
            assert!(gone.is_some(), "daemon {pid} did not exit on SIGTERM; log: {}", self.log().display());
        }
    }
}

impl Drop for StateDir {
    fn drop(&mut self) {
        // A bridge's daemon logs to run/daemon.log, one started by `serve` here to serve.log.
        for log in [self.log(), self.path().join("serve.log")].iter().filter(|l| l.exists()) {
            super::timing::ServiceLog::ended_elsewhere(log);
        }
        if let Some(pid) = self.info().and_then(|i| i["pid"].as_u64()) {
            signal(pid as u32, "-KILL");
        }
    }
}

/// What every process of the daemon on `state` is given: the state folder, a free loopback port, the log
/// level, and [`super::lean`].
pub fn env_of(state: &Path) -> Vec<(&'static str, String)> {
    let own = [
        ("ROSLYN_MCP_STATE_DIR", state.display().to_string()),
        ("ROSLYN_MCP_HTTP", "127.0.0.1:0".to_owned()),
        ("ROSLYN_MCP_LOG", "info,rmcp=warn".to_owned()),
    ];
    own.into_iter().chain(super::lean().iter().map(|&(k, v)| (k, v.to_owned()))).collect()
}

/// An MCP client over a `roslyn-mcp stdio` bridge `command`; `log` is the daemon's, named in failures.
pub async fn bridge_client<H: ClientHandler>(handler: H, command: tokio::process::Command, log: PathBuf) -> Client<H> {
    let spawned = TokioChildProcess::builder(command).stderr(std::process::Stdio::null()).spawn();
    let transport = spawned.expect("spawn roslyn-mcp stdio").0;
    let service = handler.serve(transport).await.expect("MCP initialize through the bridge");
    Client::new(service, log)
}

pub fn signal(pid: u32, signal: &str) {
    let _ = std::process::Command::new("kill").args([signal, &pid.to_string()]).status();
}

/// A GET on the daemon's HTTP endpoint: (status, body).
pub async fn get(url: &str, token: Option<&str>) -> (u16, String) {
    let mut request = reqwest::Client::new().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("GET");
    (response.status().as_u16(), response.text().await.expect("body"))
}

/// The pid of each workspace's Roslyn host in a diagnose answer.
pub fn host_pids(diagnose: &Value) -> Vec<u32> {
    diagnose["workspaces"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w["hostPid"].as_u64())
        .map(|p| p as u32)
        .collect()
}
