//! Wire types of roslyn-mcp: MCP tool inputs and outputs, the error catalog, and the broker-to-host
//! messages with their framing. This crate does no I/O.

pub mod error;
pub mod host;
pub mod tools;

pub use error::{ErrorCode, ErrorEnvelope, ToolError};
