//! MCP tool inputs and outputs. Inputs reject unknown fields; outputs are the `structuredContent` of a
//! successful call and are described by [`output_schema`].

pub mod analyze;
mod common;
pub mod diagnose;
pub mod diagnostics;
pub mod hierarchy;
pub mod members;
pub mod moves;
pub mod navigation;
pub mod symbols;
pub mod workspace;

pub use common::*;

use crate::error::ErrorEnvelope;
use schemars::{JsonSchema, generate::SchemaSettings};
use serde_json::{Map, Value};

/// JSON Schema (draft 2020-12) of a tool input, as `tools/list` publishes it.
pub fn input_schema<T: JsonSchema>() -> Map<String, Value> {
    object_schema(SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<T>())
}

/// The output schema of a tool: its payload or the failure envelope, so that `structuredContent`
/// conforms whether the call succeeded or not.
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
    schema.insert("type".into(), "object".into());
    schema.insert("title".into(), T::schema_name().into_owned().into());
    schema
}

fn object_schema(schema: schemars::Schema) -> Map<String, Value> {
    match schema.to_value() {
        Value::Object(map) => map,
        other => Map::from_iter([("const".to_owned(), other)]),
    }
}
