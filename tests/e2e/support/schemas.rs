//! Every answer conforms to its tool's published output schema: the schemas of `tests/golden/tools-list.json`
//! (which `tools_list.rs` checks against the binary), compiled once, applied to every call's
//! `structuredContent`, success or failure, as strict clients (the TypeScript SDK) do.

use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

static VALIDATORS: OnceLock<BTreeMap<String, jsonschema::Validator>> = OnceLock::new();

/// Panics, naming the tool and every violation, when `answer` does not conform to the tool's output schema.
pub fn check(tool: &str, answer: &Value) {
    let validators = VALIDATORS.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/tools-list.json");
        let listing: Value = serde_json::from_slice(&std::fs::read(&path).expect("tools-list.json")).expect("JSON");
        listing["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| {
                let name = t["name"].as_str().expect("name").to_owned();
                let validator = jsonschema::validator_for(&t["outputSchema"])
                    .unwrap_or_else(|e| panic!("{name}: its output schema does not compile: {e}"));
                (name, validator)
            })
            .collect()
    });
    let validator = validators.get(tool).unwrap_or_else(|| panic!("{tool} is not in tests/golden/tools-list.json"));
    let errors: Vec<String> =
        validator.iter_errors(answer).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(
        errors.is_empty(),
        "{tool}: the answer does not conform to its output schema:\n{}\n{answer}",
        errors.join("\n")
    );
}
