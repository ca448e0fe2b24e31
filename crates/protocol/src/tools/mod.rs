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

use crate::error::ErrorEnvelope;
use schemars::{JsonSchema, generate::SchemaSettings};
use serde_json::{Map, Value};

/// JSON Schema (draft 2020-12) of a tool input, as `tools/list` publishes it: self-contained (every
/// subschema inlined, no `$ref`), since several model providers refuse references in function parameters.
pub fn input_schema<T: JsonSchema>() -> Map<String, Value> {
    let settings = SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
    let mut schema = object_schema(settings.into_generator().into_root_schema_for::<T>());
    for (property, header) in [("solutionPath", SOLUTION_HEADER), ("jobId", JOB_HEADER)] {
        if let Some(Value::Object(field)) =
            schema.get_mut("properties").and_then(|p| p.as_object_mut()).and_then(|p| p.get_mut(property))
        {
            // SDKs accept x-mcp-header only on a property of one primitive type (the TypeScript SDK leaves a
            // tool out of tools/list otherwise); an optional one is left out rather than sent as null.
            if field.get("type") == Some(&serde_json::json!(["string", "null"])) {
                field.insert("type".into(), "string".into());
                field.remove("default");
            }
            field.insert("x-mcp-header".into(), header.into());
        }
    }
    schema
}

/// The solution a call needs, mirrored by 2026-07-28 clients into `Mcp-Param-SolutionPath` (SEP-2243) so that a
/// proxy in front of several daemons routes each call to the one holding its solution without reading bodies;
/// rmcp refuses a request whose header does not say what its body does (HeaderMismatch, -32020).
pub const SOLUTION_HEADER: &str = "SolutionPath";

/// The job `get_job` asks for, mirrored into `Mcp-Param-JobId`: the id names the daemon that owns the job, so a
/// proxy routes the question there (as it routes `tasks/*` on `Mcp-Name`, the task's id).
pub const JOB_HEADER: &str = "JobId";

/// The output schema of a tool: its payload, the failure envelope, or the answer of a call whose work goes on
/// as a job, so that `structuredContent` conforms however the call ended. Shared types stay in `$defs`, once each.
pub fn output_schema<T: JsonSchema>() -> Map<String, Value> {
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[serde(untagged)]
    enum Outcome<T> {
        Success(T),
        Failure(ErrorEnvelope),
    }
    let mut schema =
        object_schema(SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<Outcome<T>>());
    if let Some(Value::Array(outcomes)) = schema.get_mut("anyOf") {
        outcomes.push(jobs::working_schema());
    }
    schema.insert("type".into(), "object".into());
    schema.insert("title".into(), T::schema_name().into_owned().into());
    schema
}

/// The schema as a JSON object, without the formats schemars gives Rust's number types (`uint32`, ...):
/// JSON Schema does not define them, and validators warn about each one; `minimum` says what they meant.
fn object_schema(schema: schemars::Schema) -> Map<String, Value> {
    let mut value = schema.to_value();
    drop_number_formats(&mut value);
    match value {
        Value::Object(map) => map,
        other => Map::from_iter([("const".to_owned(), other)]),
    }
}

const NUMBER_FORMATS: &[&str] =
    &["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float", "double"];

fn drop_number_formats(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.get("format").and_then(Value::as_str).is_some_and(|f| NUMBER_FORMATS.contains(&f)) {
                map.remove("format");
            }
            map.values_mut().for_each(drop_number_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_number_formats),
        _ => {}
    }
}
