//! The client's MCP roots: asked for when the client offers them (after initialization and whenever it says
//! they changed). They narrow the path gate, and the first one holding a solution becomes the session's
//! default workspace unless initialize_workspace chose one. A client that offers them is marked as such
//! while its `initialize` is answered ([`offered`]), before any call of it can arrive.
//!
//! The 2026-07-28 revision deprecates roots (SEP-2577), but clients of 2025-11-25 and earlier offer them,
//! and for those clients they are the session's boundaries.
#![allow(deprecated)]

use crate::session::Session;
use crate::tools::initialize;
use rmcp::RoleServer;
use rmcp::model::{InitializeRequestParams, Root};
use rmcp::service::Peer;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long the client has to answer roots/list.
const LIST_TIMEOUT: Duration = Duration::from_secs(10);

/// At `initialize`: a client offering roots has calls wait for them from now on.
pub fn offered(session: &Session, request: &InitializeRequestParams) {
    if request.capabilities.roots.is_some() {
        session.roots_requested();
    }
}

/// Asks the client for its roots in the background; calls wait briefly for the answer, and fail closed
/// when it does not come.
pub fn refresh(session: Arc<Session>, peer: Peer<RoleServer>) {
    if peer.peer_info().is_none_or(|info| info.capabilities.roots.is_none()) {
        return;
    }
    session.roots_requested();
    tokio::spawn(async move {
        let roots = match tokio::time::timeout(LIST_TIMEOUT, peer.list_roots()).await {
            Ok(Ok(listed)) => folders(&listed.roots),
            Ok(Err(error)) => {
                tracing::warn!(session = session.id, %error, "the client did not list its roots");
                return session.roots_unavailable();
            }
            Err(_) => {
                tracing::warn!(session = session.id, "the client did not list its roots in time");
                return session.roots_unavailable();
            }
        };
        let derived = roots.iter().flatten().find_map(|root| initialize::root_workspace(root));
        tracing::info!(session = session.id, ?roots, workspace = ?derived.as_ref().map(|w| &w.solution), "client roots");
        session.set_client_roots(roots, derived);
    });
}

/// The local folders among `roots`, with symlinks resolved; `None` when there is none (no narrowing).
fn folders(roots: &[Root]) -> Option<Vec<PathBuf>> {
    let folders: Vec<PathBuf> = roots
        .iter()
        .filter_map(|root| url::Url::parse(&root.uri).ok()?.to_file_path().ok())
        .filter_map(|path| paths::existing_real_path(&path).ok())
        .collect();
    (!folders.is_empty()).then_some(folders)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_folders_and_others_are_ignored() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = std::fs::canonicalize(dir.path()).expect("canonical");
        let spaced = real.join("a b");
        std::fs::create_dir(&spaced).expect("mkdir");
        let uri = url::Url::from_file_path(&spaced).expect("file url").to_string();
        assert!(uri.contains("a%20b"), "{uri}");
        let roots = [Root::new(uri), Root::new("https://example.com/repo")];
        assert_eq!(folders(&roots), Some(vec![spaced]));
        assert_eq!(folders(&[Root::new("https://example.com/repo")]), None);
    }
}
