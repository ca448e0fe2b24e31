//! Tool arguments to typed inputs. Every refusal is a tool error with a catalog code naming the field,
//! never a JSON-RPC error: the schema's rules are enforced here too, since clients may not validate.

use protocol::{ErrorCode, ToolError};
use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;

pub fn parse<T: DeserializeOwned>(args: JsonObject) -> Result<T, ToolError> {
    serde_path_to_error::deserialize(serde_json::Value::Object(args)).map_err(|error| {
        let path = error.path().to_string();
        let message = error.into_inner().to_string();
        refusal(&path, &message)
    })
}

fn refusal(path: &str, message: &str) -> ToolError {
    if let Some(field) = quoted(message, "missing field `") {
        return ToolError::new(ErrorCode::MISSING_REQUIRED_PARAM, format!("Required parameter `{field}` is missing"))
            .detail("field", field);
    }
    if let Some(field) = quoted(message, "unknown field `") {
        return ToolError::new(ErrorCode::INVALID_PARAMETER, format!("Unknown parameter `{field}`"))
            .detail("field", field)
            .suggest("See the tool's inputSchema for the parameters it takes");
    }
    let field = path.trim_start_matches('.');
    let code = match field {
        "line" => ErrorCode::INVALID_LINE_NUMBER,
        "column" => ErrorCode::INVALID_POSITION,
        "filePath" | "sourceFile" => ErrorCode::INVALID_SOURCE_PATH,
        _ => ErrorCode::INVALID_PARAMETER,
    };
    ToolError::new(code, format!("Invalid `{field}`: {message}")).detail("field", field)
}

/// The text between `prefix` and the next backtick.
fn quoted<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = &message[message.find(prefix)? + prefix.len()..];
    rest.split('`').next()
}

/// 1-based line and column, as the schema says.
pub fn position(line: u32, column: u32) -> Result<(), ToolError> {
    if line == 0 {
        return Err(ToolError::new(ErrorCode::INVALID_LINE_NUMBER, "Lines are 1-based; line 0 does not exist")
            .detail("line", line));
    }
    if column == 0 {
        return Err(ToolError::new(ErrorCode::INVALID_POSITION, "Columns are 1-based; column 0 does not exist")
            .detail("column", column));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::tools::PositionInput;
    use serde_json::json;

    fn parse_json(value: serde_json::Value) -> Result<PositionInput, ToolError> {
        let serde_json::Value::Object(map) = value else { panic!("object") };
        parse(map)
    }

    #[test]
    fn missing_unknown_and_mistyped_fields_get_their_codes() {
        let missing = parse_json(json!({"line": 1, "column": 1})).expect_err("refused");
        assert_eq!(
            (missing.code, missing.details.as_ref().and_then(|d| d.get("field")).cloned()),
            (ErrorCode::MISSING_REQUIRED_PARAM, Some(json!("filePath")))
        );
        let unknown = parse_json(json!({"filePath": "a.cs", "line": 1, "column": 1, "bogus": 1})).expect_err("refused");
        assert_eq!(unknown.code, ErrorCode::INVALID_PARAMETER);
        let negative = parse_json(json!({"filePath": "a.cs", "line": -1, "column": 1})).expect_err("refused");
        assert_eq!(negative.code, ErrorCode::INVALID_LINE_NUMBER);
        let text_column = parse_json(json!({"filePath": "a.cs", "line": 1, "column": "x"})).expect_err("refused");
        assert_eq!(text_column.code, ErrorCode::INVALID_POSITION);
    }

    #[test]
    fn zero_positions_are_refused() {
        assert_eq!(position(0, 1).err().map(|e| e.code), Some(ErrorCode::INVALID_LINE_NUMBER));
        assert_eq!(position(1, 0).err().map(|e| e.code), Some(ErrorCode::INVALID_POSITION));
        assert!(position(1, 1).is_ok());
    }
}
