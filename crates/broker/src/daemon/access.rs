//! Who may call the daemon over HTTP. Loading a project runs its MSBuild targets, so a caller can run
//! code as the daemon's user: a bearer token is required by default, generated at first start into a
//! file only this user can read (`<state-dir>/http-token`). `--token-file` or `ROSLYN_MCP_TOKEN` name
//! another; `--http-open-to-local-users` gives the wall up on loopback, and nothing beyond loopback is
//! ever served without a token.

use crate::config::ServeArgs;
use anyhow::Context;
use axum::http::{HeaderMap, header};
use std::io::Write;
use std::net::SocketAddr;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// The file a daemon generates its token into, under the state folder.
pub const TOKEN_FILE: &str = "http-token";

/// The bearer token HTTP callers must send, or `None` when the user opened HTTP to every local user.
pub fn token(args: &ServeArgs) -> anyhow::Result<Option<String>> {
    let token = if let Some(path) = &args.token_file {
        let raw = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Some(non_empty(raw).with_context(|| format!("the token file {} is empty", path.display()))?)
    } else if let Some(raw) = args.token.clone().and_then(non_empty) {
        Some(raw)
    } else if args.http_open_to_local_users {
        None
    } else {
        Some(generated(&args.service.state_dir().join(TOKEN_FILE))?)
    };
    check_exposure(args.http, token.as_deref())?;
    if token.is_none() {
        tracing::warn!(
            http = %args.http,
            "HTTP is open to every local user (--http-open-to-local-users): any of them can load a project, which runs its MSBuild targets as this user"
        );
    }
    Ok(token)
}

fn non_empty(raw: String) -> Option<String> {
    Some(raw.trim().to_owned()).filter(|t| !t.is_empty())
}

/// Nothing is served beyond loopback without a token.
fn check_exposure(address: SocketAddr, token: Option<&str>) -> anyhow::Result<()> {
    if !address.ip().is_loopback() && token.is_none() {
        anyhow::bail!(
            "refusing to serve on {address} without a token: drop --http-open-to-local-users, or bind 127.0.0.1"
        );
    }
    Ok(())
}

/// The token in `path`, created at first start (0600, written once, never replaced). An existing file
/// is used only when it is a regular file of this user that nobody else can read.
fn generated(path: &Path) -> anyhow::Result<String> {
    if let Some(dir) = path.parent() {
        paths::create_private_dir(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let fresh = hex::encode(random_bytes()?);
    match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).custom_flags(libc::O_NOFOLLOW).open(path)
    {
        Ok(mut file) => {
            file.write_all(fresh.as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("writing {}", path.display()))?;
            tracing::info!(file = %path.display(), "generated the HTTP bearer token");
            Ok(fresh)
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => existing(path),
        Err(error) => Err(error).with_context(|| format!("creating {}", path.display())),
    }
}

fn existing(path: &Path) -> anyhow::Result<String> {
    let refuse = |why: &str| anyhow::anyhow!("refusing the token file {}: {why}", path.display());
    let metadata = std::fs::symlink_metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !metadata.file_type().is_file() {
        return Err(refuse("it is not a regular file"));
    }
    if metadata.uid() != paths::user_id() {
        return Err(refuse(&format!("it belongs to uid {}", metadata.uid())));
    }
    if metadata.permissions().mode() & 0o077 != 0 {
        return Err(refuse(&format!(
            "others may read it (mode {:o}); chmod 600 it",
            metadata.permissions().mode() & 0o777
        )));
    }
    let raw = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    non_empty(raw).ok_or_else(|| refuse("it is empty"))
}

fn random_bytes() -> anyhow::Result<[u8; 32]> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut bytes))
        .context("reading /dev/urandom for the HTTP token")?;
    Ok(bytes)
}

/// Whether the request carries `Authorization: Bearer <expected>`, compared in constant time.
pub fn presents(headers: &HeaderMap, expected: &str) -> bool {
    let Some(given) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    // The scheme, one space, the token: nothing trimmed, so `Bearer  <token>` is not the token.
    let Some(given) =
        given.split_at_checked(7).filter(|(scheme, _)| scheme.eq_ignore_ascii_case("Bearer ")).map(|(_, t)| t)
    else {
        return false;
    };
    given.len() == expected.len() && given.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_passes() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::AUTHORIZATION, value.parse().expect("header"));
            headers
        };
        assert!(presents(&with("Bearer s3cret"), "s3cret"));
        assert!(!presents(&with("Bearer s3cres"), "s3cret"));
        assert!(!presents(&with("Bearer s3cret2"), "s3cret"));
        assert!(!presents(&with("Basic s3cret"), "s3cret"));
        assert!(!presents(&with("Bearer  s3cret"), "s3cret"), "two spaces");
        assert!(!presents(&with("Bearer s3cret\t"), "s3cret"), "a trailing tab");
        assert!(presents(&with("bearer s3cret"), "s3cret"), "the scheme is case-insensitive");
        assert!(!presents(&HeaderMap::new(), "s3cret"));
    }

    #[test]
    fn a_public_address_needs_a_token() {
        let public: SocketAddr = "0.0.0.0:7717".parse().expect("address");
        assert!(check_exposure(public, None).is_err());
        assert!(check_exposure(public, Some("t")).is_ok());
        assert!(check_exposure("127.0.0.1:7717".parse().expect("address"), None).is_ok());
        assert!(check_exposure("[::1]:7717".parse().expect("address"), None).is_ok());
    }

    #[test]
    fn the_generated_token_is_private_kept_and_refused_when_others_can_read_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("state").join(TOKEN_FILE);
        let first = generated(&path).expect("generated");
        assert_eq!(first.len(), 64);
        assert_eq!(std::fs::metadata(&path).expect("file").permissions().mode() & 0o777, 0o600);
        assert_eq!(generated(&path).expect("kept"), first, "a restart keeps the token");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let refused = generated(&path).expect_err("readable by others").to_string();
        assert!(refused.contains("others may read it"), "{refused}");
        std::fs::remove_file(&path).expect("rm");
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &path).expect("symlink");
        assert!(generated(&path).is_err(), "a symlink in the token's place is not followed");
        assert!(!dir.path().join("elsewhere").exists());
    }
}
