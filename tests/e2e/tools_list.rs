//! What clients see of the tools: the whole `tools/list` answer matches `tests/golden/tools-list.json`, so a
//! schema change shows in review, and the schemas hold to what strict clients and model providers accept:
//! input schemas are self-contained (no `$ref`/`$defs`) and no schema uses a `format` outside JSON Schema's.
//!
//! `ROSLYN_MCP_BLESS=1 cargo test -p broker --test e2e tools_list` rewrites the golden file.

use crate::support::shared;
use serde_json::{Value, json};
use std::path::PathBuf;

/// The formats JSON Schema 2020-12 defines; validators warn about any other.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

#[tokio::test(flavor = "multi_thread")]
async fn the_tools_list_answer_matches_its_golden_file() {
    let (_, server) = shared::session("tiny/Alpha").await;
    let answer = json!({ "tools": server.tools().await });
    let compact = serde_json::to_string(&answer).expect("json");
    eprintln!("tools/list: {} bytes", compact.len());
    let pretty = serde_json::to_string_pretty(&answer).expect("json") + "\n";
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/tools-list.json");
    if std::env::var_os("ROSLYN_MCP_BLESS").is_some() {
        std::fs::write(&golden, &pretty).expect("write the golden file");
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        expected == pretty,
        "tools/list differs from {}; if the change is meant, rewrite it with \
         `ROSLYN_MCP_BLESS=1 cargo test -p broker --test e2e tools_list` and review the diff",
        golden.display()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn schemas_are_self_contained_and_use_only_standard_formats() {
    let (_, server) = shared::session("tiny/Alpha").await;
    let tools = server.tools().await;
    for tool in &tools {
        let input = Value::Object((*tool.input_schema).clone());
        assert_eq!(keys_named(&input, &["$ref", "$defs", "definitions"]), Vec::<String>::new(), "{}", tool.name);
        assert_eq!(odd_formats(&input), Vec::<String>::new(), "{} input", tool.name);
        // A 2026-07-28 TypeScript SDK client leaves out of tools/list a tool whose mirrored property is not of
        // one primitive type.
        for (name, property) in input["properties"].as_object().into_iter().flatten() {
            if property.get("x-mcp-header").is_some() {
                let primitive = ["string", "integer", "boolean"].map(Value::from).contains(&property["type"]);
                assert!(primitive, "{}: {name} is mirrored into a header but typed {}", tool.name, property["type"]);
            }
        }
        let output = Value::Object((**tool.output_schema.as_ref().expect("output schema")).clone());
        assert_eq!(odd_formats(&output), Vec::<String>::new(), "{} output", tool.name);
    }
}

/// Paths of every key among `names`, anywhere in the schema.
fn keys_named(schema: &Value, names: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    walk(schema, "", &mut |path, key, _| {
        if names.contains(&key) {
            found.push(format!("{path}/{key}"));
        }
    });
    found
}

/// Every `format` keyword whose value JSON Schema does not define, with its path.
fn odd_formats(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    walk(schema, "", &mut |path, key, value| {
        // Under `properties`, a key is a property's name, not a keyword.
        let format = value.as_str().filter(|f| !STANDARD_FORMATS.contains(f));
        if let Some(format) = format.filter(|_| key == "format" && !path.ends_with("/properties")) {
            found.push(format!("{path}: {format}"));
        }
    });
    found
}

fn walk(value: &Value, path: &str, visit: &mut dyn FnMut(&str, &str, &Value)) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                visit(path, key, child);
                walk(child, &format!("{path}/{key}"), visit);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, &format!("{path}/{i}"), visit);
            }
        }
        _ => {}
    }
}

/// The check every call of the tests makes (`support::schemas`) refuses what a strict client would.
#[test]
fn answers_that_break_their_output_schema_are_caught() {
    crate::support::schemas::check("undo", &json!({"success": false, "error": {"code": "STALE_PLAN", "message": "m"}}));
    let wrong = [
        json!({"success": true, "operationId": "op-1"}),
        json!({"success": false, "error": {"code": "stale plan", "message": "m"}}),
    ];
    for answer in wrong {
        let caught = std::panic::catch_unwind(|| crate::support::schemas::check("undo", &answer));
        assert!(caught.is_err(), "{answer} passed the output schema of undo");
    }
}
