//! What each tool's description must state, each fact drawn from the code that makes it true: a behaviour
//! change (another way to carry a plan over, a longer plan life, a renamed argument) fails here until the
//! description says it. Also what every description owes a client: a first sentence saying what the tool is
//! for, every argument explained somewhere, and the weight budget of `tools/list`.

use super::{INSTRUCTIONS, Kind, listed_tools};
use crate::tools::{MAX_WRITE_WAIT_SECS, WRITE_WAIT, sources, testing};
use crate::{config, jobs, limits, plans};
use protocol::tools::input_schema;
use protocol::tools::plans::{RebaseKind, Verify};
use rmcp::model::Tool;
use rmcp::schemars::JsonSchema;
use serde_json::{Value, json};

/// The facts one tool's description states, beyond what every tool of its kind owes.
fn facts(tool: &str) -> Vec<String> {
    let minutes = |d: std::time::Duration| format!("{} minutes", d.as_secs() / 60);
    match tool {
        "apply_plan" => {
            let mut facts = values_of::<RebaseKind>();
            facts.extend(values_of::<Verify>().into_iter().filter(|v| v != "compile"));
            facts.extend(["exact", "rebased", "operationId", "changed: false", "atomic"].map(String::from));
            facts.extend(
                ["COMPILATION_ERROR", "STALE_PLAN", "TESTS_FAILED", "WORKSPACE_BUSY", "PLAN_NOT_FOUND"]
                    .map(String::from),
            );
            facts.push(format!("default {}, at most {MAX_WRITE_WAIT_SECS}", WRITE_WAIT.as_secs()));
            facts.push(minutes(plans::PLAN_TTL));
            facts
        }
        "undo" => ["operationId", "any order", "merged", "compile", "STALE_PLAN", "OPERATION_NOT_APPLICABLE"]
            .map(String::from)
            .to_vec(),
        "redo" => ["operationId", "merging as undo"].map(String::from).to_vec(),
        "get_job" => vec![
            format!("{} s", config::ANSWER_WITHIN_SECS),
            minutes(jobs::KEEP_ENDED),
            "LOADING".into(),
            "JOB_NOT_FOUND".into(),
            "rolling back a write".into(),
        ],
        "run_tests" => {
            vec![format!("default {}", testing::run::DEFAULT_TIMEOUT_SECS), "TIMEOUT".into(), "get_job".into()]
        }
        "initialize_workspace" => vec!["SOLUTION_NOT_FOUND".into(), "get_job".into()],
        "find_tests" => ["xunit", "NUnit", "MSTest", "TUnit", "reflection"].map(String::from).to_vec(),
        "read_source" => vec![
            format!("default {}", sources::DEFAULT_LINES),
            "roslyn-mcp://generated/".into(),
            "roslyn-mcp://metadata/".into(),
        ],
        "get_symbol_source" => vec![format!("up to {}", sources::MAX_SYMBOLS), "SYMBOL_NOT_FOUND".into()],
        "analyze_code_block" => vec![format!("{} KiB", limits::MAX_CODE_BYTES / 1024)],
        "find_symbol_definition" | "find_type_definition" => vec!["roslyn-mcp://metadata/".into()],
        "rename_symbol" => vec!["INVALID_SYMBOL_NAME".into(), "NAME_COLLISION".into()],
        "change_signature" => ["PARAMETER_IN_USE", "NAME_COLLISION", "BINDING_CHANGED", "EVALUATION_ORDER_CHANGED"]
            .map(String::from)
            .to_vec(),
        "safe_delete" => vec!["STILL_REFERENCED".into(), "MAY_BE_USED_ELSEWHERE".into()],
        "move_files" => ["CIRCULAR_REFERENCE", "REFERENCE_MISSING", "INVALID_TARGET_PATH"].map(String::from).to_vec(),
        "apply_code_action" => vec!["CODE_ACTION_STALE".into()],
        _ => Vec::new(),
    }
}

/// Arguments the server's instructions explain for every tool, and those apply_plan explains for every write.
const CONVENTIONS: &[&str] = &["filePath", "line", "column", "solutionPath", "project", "pageSize", "cursor"];
const WRITE_ARGUMENTS: &[&str] = &["preview", "verify", "waitSeconds"];
/// Arguments whose name says what they are.
const SELF_EVIDENT: &[&str] = &["sourceFile", "targetNamespace", "newName", "endColumn", "pattern", "wholeWord"];
/// What the server's instructions state once for every tool.
fn conventions() -> Vec<String> {
    let mut facts = ["1-based", "UTF-16", "relative to the workspace root", "project's name or project file path"]
        .map(String::from)
        .to_vec();
    facts.extend(["solutionPath", "error.code", "get_job", "apply_plan", "operationId"].map(String::from));
    facts.push(format!("{} s", config::ANSWER_WITHIN_SECS));
    facts
}

/// The verbs a first sentence starts with: what the tool is for, in one sentence a tool search can match.
const PURPOSES: &[&str] = &[
    "Apply", "Build", "Change", "Check", "Compile", "Delete", "Find", "Format", "Get", "Go", "List", "Load", "Make",
    "Move", "Read", "Redo", "Remove", "Rename", "Reorder", "Replace", "Show", "Undo", "Write",
];

/// What `tools/list` may weigh: descriptions and input schemas (what clients put into every session's
/// context), and the whole answer.
const CONTEXT_BUDGET: usize = 24_000;
const LIST_BUDGET: usize = 100_000;

/// Everything a tool's description owes, missing: its facts, its kind's, its first sentence, its arguments.
fn missing(tool: &Tool, kind: Kind) -> Vec<String> {
    let description = tool.description.as_deref().unwrap_or_default();
    let mut owed = facts(&tool.name);
    let writes = kind == Kind::Write && !matches!(tool.name.as_ref(), "apply_plan" | "undo" | "redo");
    if writes {
        owed.extend(["compiler errors", "apply_plan"].map(String::from));
    }
    let output = serde_json::to_string(&tool.output_schema).unwrap_or_default();
    if output.contains("\"nextCursor\"") {
        owed.push("Paged".into());
    }
    let mut gaps: Vec<String> = owed.into_iter().filter(|fact| !description.contains(fact.as_str())).collect();
    let first = description.split(". ").next().unwrap_or_default();
    if !PURPOSES.contains(&first.split(' ').next().unwrap_or_default()) || first.len() > 220 {
        gaps.push(format!("a first sentence saying what it is for: {first:?}"));
    }
    let arguments = tool.input_schema.get("properties").and_then(Value::as_object).into_iter().flatten();
    for (name, schema) in arguments {
        let explained = schema.get("description").is_some()
            || description.contains(name.as_str())
            || CONVENTIONS.contains(&name.as_str())
            || SELF_EVIDENT.contains(&name.as_str())
            || (kind == Kind::Write && WRITE_ARGUMENTS.contains(&name.as_str()));
        if !explained {
            gaps.push(format!("argument {name}"));
        }
    }
    gaps
}

/// Every value of an enum, as its published schema lists them.
fn values_of<T: JsonSchema>() -> Vec<String> {
    let schema = input_schema::<T>();
    schema["enum"].as_array().expect("an enum").iter().filter_map(Value::as_str).map(String::from).collect()
}

#[test]
fn every_description_states_what_the_code_does() {
    let gaps: Vec<String> = listed_tools()
        .iter()
        .flat_map(|(tool, kind)| missing(tool, *kind).into_iter().map(move |gap| format!("{}: {gap}", tool.name)))
        .collect();
    assert!(gaps.is_empty(), "descriptions miss what they must state:\n{}", gaps.join("\n"));
    let unstated: Vec<String> =
        conventions().into_iter().filter(|fact| !INSTRUCTIONS.contains(fact.as_str())).collect();
    assert!(unstated.is_empty(), "the server's instructions miss {unstated:?}");
}

#[test]
fn a_description_that_loses_a_fact_is_caught() {
    let tools = listed_tools();
    let (apply_plan, kind) = tools.iter().find(|(tool, _)| tool.name == "apply_plan").expect("apply_plan");
    let mut stale = apply_plan.clone();
    // The old rule: every file must still hold what the plan was computed from.
    stale.description =
        Some(apply_plan.description.as_deref().unwrap_or_default().replace("merged or replayed", "refused").into());
    let gaps = missing(&stale, *kind);
    assert!(gaps.contains(&"merged".to_owned()) && gaps.contains(&"replayed".to_owned()), "{gaps:?}");
    let mut vague = apply_plan.clone();
    vague.description = Some("Plans can be written with this tool.".into());
    let gaps = missing(&vague, *kind);
    assert!(gaps.iter().any(|g| g.starts_with("a first sentence")), "{gaps:?}");
    assert!(gaps.contains(&"argument exact".to_owned()), "{gaps:?}");
}

#[test]
fn the_tool_list_keeps_to_its_budget() {
    let tools: Vec<Tool> = listed_tools().into_iter().map(|(tool, _)| tool).collect();
    let size = |value: &Value| serde_json::to_string(value).expect("json").len();
    let context: usize =
        tools.iter().map(|t| size(&json!(t.description)) + size(&Value::Object((*t.input_schema).clone()))).sum();
    let whole = size(&json!({ "tools": tools }));
    assert!(context <= CONTEXT_BUDGET, "descriptions and input schemas weigh {context} bytes, over {CONTEXT_BUDGET}");
    assert!(whole <= LIST_BUDGET, "tools/list weighs {whole} bytes, over {LIST_BUDGET}");
}
