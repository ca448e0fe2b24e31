//! How a host request can fail, and the catalog code each failure means to a client.

use protocol::host::{FrameError, HostError, ResponseBody};
use protocol::{ErrorCode, ToolError};
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum HostFailure {
    #[error("could not start the Roslyn host: {0}")]
    Spawn(String),
    #[error("the Roslyn host did not complete the handshake: {0}")]
    Handshake(String),
    #[error("the Roslyn host exited or closed its connection")]
    Crashed,
    #[error("the host request exceeded its time limit of {0:?}")]
    Timeout(Duration),
    #[error("the request was cancelled")]
    Cancelled,
    #[error("host protocol fault: {0}")]
    Protocol(#[from] FrameError),
    #[error("{}: {}", .0.code, .0.message)]
    Remote(HostError),
    /// An answer of another kind than the request expects (see `protocol::host::ask`).
    #[error("unexpected answer from the Roslyn host: {0:?}")]
    Unexpected(Box<ResponseBody>),
}

impl HostFailure {
    /// Whether a fresh host could answer the same request: the process died under it.
    pub fn is_crash(&self) -> bool {
        matches!(self, HostFailure::Crashed | HostFailure::Protocol(_))
    }
}

impl From<HostFailure> for ToolError {
    fn from(failure: HostFailure) -> Self {
        match failure {
            HostFailure::Remote(error) => {
                let mut tool_error = ToolError::new(error.code, error.message);
                if let Ok(serde_json::Value::Object(details)) = serde_json::from_str(&error.details_json) {
                    tool_error.details = Some(Box::new(details));
                }
                tool_error.suggestions = error.suggestions;
                tool_error
            }
            HostFailure::Timeout(limit) => ToolError::new(ErrorCode::TIMEOUT, failure.to_string())
                .detail("timeoutMs", limit.as_millis() as u64)
                .suggest("Retry; the first call after a solution loads is the slowest"),
            HostFailure::Cancelled => ToolError::new(ErrorCode::TIMEOUT, failure.to_string()),
            HostFailure::Spawn(_) | HostFailure::Handshake(_) => {
                ToolError::new(ErrorCode::ROSLYN_NOT_AVAILABLE, failure.to_string())
            }
            HostFailure::Crashed | HostFailure::Protocol(_) | HostFailure::Unexpected(_) => {
                ToolError::new(ErrorCode::ROSLYN_ERROR, failure.to_string())
            }
        }
    }
}
