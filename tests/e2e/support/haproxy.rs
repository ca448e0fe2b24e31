//! `deploy/haproxy/haproxy.cfg` run by a real HAProxy in front of given daemons: the file's addresses swapped for
//! a free port and the daemons' (its server lines and rules beyond them dropped), stopped however the caller ends.

use std::path::Path;

/// A running HAProxy and the address it listens on.
pub struct Proxy {
    process: std::process::Child,
    pub port: u16,
}

impl Proxy {
    /// Starts HAProxy with the deploy configuration in front of `daemons` (`host:port`, at most three), its
    /// configuration written into `folder`; its log (warnings) goes to `log` when given.
    pub fn start(daemons: &[&str], folder: &Path, log: std::process::Stdio) -> Self {
        let port =
            std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("address").port();
        let mut config =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy/haproxy.cfg"))
                .expect("deploy/haproxy/haproxy.cfg")
                .replace("127.0.0.1:7700", &format!("127.0.0.1:{port}"));
        let placeholders = ["127.0.0.1:7711", "127.0.0.1:7712", "127.0.0.1:7713"];
        for (index, placeholder) in placeholders.iter().enumerate() {
            config = match daemons.get(index) {
                Some(daemon) => config.replace(placeholder, daemon),
                None => {
                    let server = format!("daemon{} ", index + 1);
                    let kept = config.lines().filter(|l| !l.contains(placeholder) && !l.contains(&server));
                    kept.collect::<Vec<_>>().join("\n") + "\n"
                }
            };
        }
        let file = folder.join("haproxy.cfg");
        std::fs::write(&file, config).expect("haproxy.cfg");
        let process = std::process::Command::new("haproxy")
            .arg("-db")
            .arg("-f")
            .arg(&file)
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .expect("haproxy starts");
        Self { process, port }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Whether `haproxy` can be run here.
pub fn installed() -> bool {
    std::process::Command::new("haproxy").arg("-v").output().is_ok()
}
