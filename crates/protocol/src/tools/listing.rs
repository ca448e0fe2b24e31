//! What `tools/list` publishes of a tool's input and output types. Clients put every description and input
//! schema into the model's context in every session, and some the output schemas too, so the schemas say
//! what a name and a type do not, once: no titles, no repeated descriptions, an enum as its values.
//!
//! - An input schema is self-contained (every subschema inlined, no `$ref`): several model providers refuse
//!   references in function parameters. A field keeps its description; an optional field is typed as what to
//!   send (the service also takes `null` for it).
//! - An output schema states the answer's fields, which of them are always there, and the fields of the
//!   items of its lists; an object nested deeper is typed `object`. It also accepts the failure envelope and
//!   the answer of a call whose work goes on as a job, so that `structuredContent` conforms however the call
//!   ended.

use super::jobs;
use crate::error::CODE_PATTERN;
use schemars::{JsonSchema, generate::SchemaSettings};
use serde_json::{Map, Value, json};

/// JSON Schema (draft 2020-12) of a tool input, as `tools/list` publishes it.
pub fn input_schema<T: JsonSchema>() -> Map<String, Value> {
    let mut schema = inlined::<T>();
    tidy(&mut schema, Side::Input, false);
    let mut schema = into_object(schema);
    for (property, header) in [("solutionPath", SOLUTION_HEADER), ("jobId", JOB_HEADER)] {
        if let Some(Value::Object(field)) =
            schema.get_mut("properties").and_then(|p| p.as_object_mut()).and_then(|p| p.get_mut(property))
        {
            // SDKs accept x-mcp-header only on a property of one primitive type (the TypeScript SDK leaves a
            // tool out of tools/list otherwise): `tidy` has made the optional ones plain strings.
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

/// The output schema of a tool: its answer, the failure envelope, or the answer of a call whose work goes on as
/// a job.
pub fn output_schema<T: JsonSchema>() -> Map<String, Value> {
    let mut answer = inlined::<T>();
    tidy(&mut answer, Side::Output, false);
    outline(&mut answer, Level::Answer);
    if !mentions_ref(&answer)
        && let Value::Object(map) = &mut answer
    {
        map.remove("$defs");
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("anyOf".into(), json!([answer, failure_schema(), jobs::working_schema()]));
    schema
}

/// `{success: false, error: {code, message, ...}}`: what tells a failure apart, in a few bytes, since every tool
/// repeats it (`ErrorEnvelope` is the whole of it).
fn failure_schema() -> Value {
    json!({
        "properties": {
            "success": {"const": false},
            "error": {"properties": {"code": {"pattern": CODE_PATTERN}}, "required": ["code", "message"]}
        },
        "required": ["success", "error"]
    })
}

/// The schema with every subschema inlined; a recursive type keeps its `$defs`.
fn inlined<T: JsonSchema>() -> Value {
    let settings = SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
    settings.into_generator().into_root_schema_for::<T>().to_value()
}

fn into_object(schema: Value) -> Map<String, Value> {
    match schema {
        Value::Object(map) => map,
        other => Map::from_iter([("const".to_owned(), other)]),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

/// The formats schemars gives Rust's number types (`uint32`, ...): JSON Schema does not define them, and
/// validators warn about each one.
const NUMBER_FORMATS: &[&str] =
    &["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float", "double"];

/// Drops what a client does not need from a subschema and its children: titles, `$schema`, `null` defaults
/// (any default, in answers), Rust's number formats, descriptions other than an input field's, and the
/// `minimum: 0` of an unsigned number; an enum's variants become its values; an optional input is typed as
/// what to send.
fn tidy(schema: &mut Value, side: Side, field: bool) {
    let Value::Object(map) = schema else { return };
    map.remove("title");
    map.remove("$schema");
    // The service refuses an unknown argument itself (INVALID_PARAMETER naming it): 42 schemas need not say so.
    if map.get("additionalProperties") == Some(&Value::Bool(false)) {
        map.remove("additionalProperties");
    }
    if side == Side::Output || !field {
        map.remove("description");
    }
    if side == Side::Output || map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
    if map.get("format").and_then(Value::as_str).is_some_and(|f| NUMBER_FORMATS.contains(&f)) {
        map.remove("format");
    }
    if map.get("minimum") == Some(&json!(0)) {
        map.remove("minimum");
    }
    for (key, child) in map.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" => {
                let fields = key == "properties";
                child.as_object_mut().into_iter().flat_map(|m| m.values_mut()).for_each(|s| tidy(s, side, fields));
            }
            "items" | "additionalProperties" | "not" => tidy(child, side, false),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                child.as_array_mut().into_iter().flatten().for_each(|s| tidy(s, side, false));
            }
            _ => {}
        }
    }
    if side == Side::Input {
        drop_null(map);
    }
    values_of_variants(map);
}

/// An optional input as what to send: `["string", "null"]` becomes `"string"`, `anyOf [X, null]` becomes X.
fn drop_null(map: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = map.get("type") {
        let types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let single = types.len() == 1;
        map.insert("type".into(), if single { types[0].clone() } else { Value::Array(types) });
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = map.get_mut(key) else { continue };
        variants.retain(|v| v.get("type") != Some(&json!("null")) && v.get("const") != Some(&Value::Null));
        if variants.len() == 1 {
            let Some(Value::Object(only)) = variants.pop() else { continue };
            map.remove(key);
            for (k, v) in only {
                map.entry(k).or_insert(v);
            }
        }
    }
}

/// `oneOf`/`anyOf` of constants (an enum whose variants have doc comments) as one `enum` of their values.
fn values_of_variants(map: &mut Map<String, Value>) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(variants)) = map.get(key) else { continue };
        let constant = |v: &Value| {
            v.as_object().is_some_and(|o| o.keys().all(|k| matches!(k.as_str(), "type" | "const" | "enum")))
        };
        if variants.is_empty() || !variants.iter().all(constant) {
            continue;
        }
        let mut values = Vec::new();
        for variant in variants {
            match (variant.get("const"), variant.get("enum")) {
                (Some(value), _) => values.push(value.clone()),
                (None, Some(Value::Array(more))) => values.extend(more.iter().cloned()),
                _ => return,
            }
        }
        let types: Vec<&Value> = variants.iter().filter_map(|v| v.get("type")).collect();
        let one_type = types.len() == variants.len() && types.windows(2).all(|w| w[0] == w[1]);
        let one_type = one_type.then(|| types[0].clone());
        map.remove(key);
        if let Some(t) = one_type {
            map.insert("type".into(), t);
        }
        map.insert("enum".into(), Value::Array(values));
    }
}

/// How deep in an answer a subschema sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The answer itself: its fields are stated, with which are always there.
    Answer,
    /// An item of a list (or a value of a map) the answer holds: its fields are stated.
    Item,
    /// Anything deeper: an object is typed `object`.
    Deeper,
}

/// States the fields of the answer and of the items of its lists; an object nested deeper is typed `object`.
fn outline(schema: &mut Value, level: Level) {
    let Value::Object(map) = schema else { return };
    for key in ["anyOf", "oneOf", "allOf"] {
        map.get_mut(key).and_then(Value::as_array_mut).into_iter().flatten().for_each(|v| outline(v, level));
    }
    if level != Level::Answer {
        map.remove("required");
    }
    if let Some(Value::Object(fields)) = map.get_mut("properties") {
        fields.values_mut().for_each(|field| member(field, level));
    }
}

/// A field of an object at `level`: an object field is typed `object`; a list's items (a map's values) keep
/// their fields when the object is the answer.
fn member(field: &mut Value, level: Level) {
    let Value::Object(map) = field else { return };
    for key in ["anyOf", "oneOf", "allOf"] {
        map.get_mut(key).and_then(Value::as_array_mut).into_iter().flatten().for_each(|v| member(v, level));
    }
    if map.contains_key("properties") || map.contains_key("$ref") {
        let kind = map.get("type").cloned().unwrap_or_else(|| "object".into());
        *field = json!({ "type": kind });
        return;
    }
    for key in ["items", "additionalProperties"] {
        let Some(inner) = map.get_mut(key) else { continue };
        if !inner.is_object() {
            continue;
        }
        if level == Level::Answer {
            outline(inner, Level::Item);
        } else {
            member(inner, Level::Deeper);
        }
    }
}

fn mentions_ref(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| k == "$ref" || (k != "$defs" && mentions_ref(v))),
        Value::Array(items) => items.iter().any(mentions_ref),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input: one required field, an optional one, an enum with documented variants.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)]
    struct Input {
        /// Said where the name does not say it.
        since: String,
        #[serde(default)]
        preview: Option<bool>,
        #[serde(default)]
        mode: Option<Mode>,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    enum Mode {
        /// The first.
        Fast,
        /// The second.
        Thorough,
    }

    /// An answer with a nested object, a list of items holding objects and lists of their own.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Answer {
        /// Never published: the answer describes itself.
        total: u32,
        symbol: Inner,
        items: Vec<Item>,
        next_cursor: Option<String>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Item {
        name: String,
        place: Inner,
        places: Vec<Inner>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        file: String,
    }

    #[test]
    fn an_input_says_only_what_its_names_do_not_and_is_typed_as_what_to_send() {
        let schema = Value::Object(input_schema::<Input>());
        assert_eq!(
            schema["properties"]["since"],
            json!({"type": "string", "description": "Said where the name does not say it."})
        );
        assert_eq!(schema["properties"]["preview"], json!({"type": "boolean"}));
        assert_eq!(schema["properties"]["mode"], json!({"type": "string", "enum": ["fast", "thorough"]}));
        assert_eq!(schema["required"], json!(["since"]));
        for gone in ["title", "$schema", "additionalProperties", "description"] {
            assert!(schema.get(gone).is_none(), "{gone}: {schema}");
        }
    }

    #[test]
    fn an_output_states_the_answer_and_its_items_fields_and_types_what_is_deeper() {
        let schema = Value::Object(output_schema::<Answer>());
        let answer = &schema["anyOf"][0];
        assert_eq!(answer["properties"]["total"], json!({"type": "integer"}));
        assert_eq!(answer["properties"]["symbol"], json!({"type": "object"}));
        assert_eq!(answer["properties"]["nextCursor"], json!({"type": ["string", "null"]}));
        let item = &answer["properties"]["items"]["items"];
        assert_eq!(item["properties"]["name"], json!({"type": "string"}));
        assert_eq!(item["properties"]["place"], json!({"type": "object"}));
        assert_eq!(item["properties"]["places"], json!({"type": "array", "items": {"type": "object"}}));
        assert!(item.get("required").is_none(), "only the answer's own fields say which are always there");
        assert_eq!(answer["required"], json!(["total", "symbol", "items"]));
        assert!(!schema.to_string().contains("description") && !schema.to_string().contains("$defs"), "{schema}");
        // A failure and a job's answer conform too.
        assert_eq!(schema["anyOf"][1]["properties"]["error"]["properties"]["code"]["pattern"], json!(CODE_PATTERN));
        assert_eq!(schema["anyOf"][2]["required"], json!(["status", "jobId"]));
    }
}
