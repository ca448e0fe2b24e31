//! The cursor: `base64url(JSON {v, o, k, s})` without padding. `o` is the offset into the sorted,
//! deduplicated result; `k` binds the request (tool and canonical arguments), `s` the solution snapshot
//! (workspace roots, host process and workspace version) the result was computed on.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use protocol::{ErrorCode, ToolError};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

const VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cursor {
    v: u32,
    pub o: usize,
    pub k: String,
    pub s: String,
}

impl Cursor {
    pub fn new(o: usize, k: &str, s: &str) -> Self {
        Self { v: VERSION, o, k: k.to_owned(), s: s.to_owned() }
    }

    pub fn encode(&self) -> String {
        // Serializing plain strings and numbers cannot fail.
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(self).unwrap_or_default())
    }

    /// A cursor as a client sent it; anything but one this service minted is CURSOR_INVALID.
    pub fn decode(raw: &str) -> Result<Self, ToolError> {
        let bytes = URL_SAFE_NO_PAD.decode(raw.trim()).map_err(|_| invalid("it is not base64url"))?;
        let cursor: Cursor = serde_json::from_slice(&bytes).map_err(|_| invalid("its content is not a cursor"))?;
        if cursor.v != VERSION {
            return Err(invalid("its version is not supported"));
        }
        Ok(cursor)
    }
}

pub fn invalid(why: &str) -> ToolError {
    ToolError::new(ErrorCode::CURSOR_INVALID, format!("The cursor is not valid: {why}"))
        .detail("field", "cursor")
        .suggest(
            "Pass the nextCursor of the previous page unchanged, with the same arguments; omit it for the first page",
        )
}

fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// `k`: the tool and the canonical arguments that decide the result (not the page size or the cursor).
pub fn request_key(tool: &str, canonical: &serde_json::Value) -> String {
    sha256_hex(&format!("v1|{tool}|{canonical}"))
}

/// `s`: changes whenever the result could: other workspace roots, another host process, a new version of
/// the host's solution.
pub fn snapshot_key(k: &str, roots: &[PathBuf], host_pid: u32, workspace_version: u64) -> String {
    let mut roots: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    roots.sort();
    let roots_key = sha256_hex(&serde_json::Value::from(roots).to_string());
    sha256_hex(&format!("v1|snapshot|{k}|roots:{roots_key}|epochs:{host_pid},{workspace_version}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_forgeries_are_invalid() {
        let cursor = Cursor::new(200, "abc", "def");
        let raw = cursor.encode();
        assert!(!raw.contains('=') && !raw.contains('+') && !raw.contains('/'));
        assert_eq!(Cursor::decode(&raw).ok(), Some(cursor));
        for forged in [
            "",
            "!!!",
            &URL_SAFE_NO_PAD.encode(br#"{"v":1,"o":0,"k":"a","s":"b"}"#),
            &URL_SAFE_NO_PAD.encode(br#"{"v":2,"o":-1,"k":"a","s":"b"}"#),
            &URL_SAFE_NO_PAD.encode(br#"{"v":2,"o":0,"k":"a"}"#),
        ] {
            assert_eq!(Cursor::decode(forged).err().map(|e| e.code), Some(ErrorCode::CURSOR_INVALID), "{forged}");
        }
    }

    #[test]
    fn keys_bind_the_request_and_the_snapshot() {
        let k = request_key("find_references", &serde_json::json!({"file": "/w/a.cs", "line": 3}));
        assert_eq!(k, request_key("find_references", &serde_json::json!({"file": "/w/a.cs", "line": 3})));
        assert_ne!(k, request_key("find_references", &serde_json::json!({"file": "/w/a.cs", "line": 4})));
        assert_ne!(k, request_key("search_symbols", &serde_json::json!({"file": "/w/a.cs", "line": 3})));
        let roots = [PathBuf::from("/w"), PathBuf::from("/a")];
        let s = snapshot_key(&k, &roots, 10, 1);
        assert_eq!(s, snapshot_key(&k, &[PathBuf::from("/a"), PathBuf::from("/w")], 10, 1));
        assert_ne!(s, snapshot_key(&k, &roots, 10, 2));
        assert_ne!(s, snapshot_key(&k, &roots, 11, 1));
        assert_ne!(s, snapshot_key(&k, &roots[..1], 10, 1));
    }
}
