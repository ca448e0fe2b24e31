//! MCP tool inputs and outputs. Inputs reject unknown fields; outputs are the `structuredContent` of a
//! successful call and are described by [`output_schema`].

pub mod actions;
pub mod analyze;
pub mod api;
pub mod cleanup;
mod common;
pub mod diagnose;
pub mod diagnostics;
pub mod graph;
mod groups;
pub mod hierarchy;
pub mod jobs;
mod listing;
pub mod members;
pub mod moves;
pub mod navigation;
pub mod plans;
pub mod refactor;
pub mod signature;
pub mod sources;
pub mod symbols;
pub mod testing;
pub mod workspace;

pub use common::*;

pub use listing::{JOB_HEADER, SOLUTION_HEADER, input_schema, output_schema};
