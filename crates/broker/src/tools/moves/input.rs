//! The checks the input schemas state, enforced here since clients may not validate.

use crate::resolve;
use crate::session::Scope;
use protocol::{ErrorCode, ToolError};
use std::path::PathBuf;

/// `Name` or `Outer.Name`: C# identifiers separated by dots.
pub fn dotted_name(value: &str, field: &str, code: ErrorCode) -> Result<(), ToolError> {
    let identifier = |part: &str| {
        let mut chars = part.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if value.split('.').all(identifier) {
        return Ok(());
    }
    Err(ToolError::new(code, format!("`{field}` must be dot-separated C# identifiers, got `{value}`"))
        .detail("field", field)
        .detail(field, value)
        .suggest("Use letters, digits and underscores, e.g. MyApp.Services or UserService"))
}

pub fn line(line: Option<u32>) -> Result<(), ToolError> {
    match line {
        Some(0) => Err(ToolError::new(ErrorCode::INVALID_LINE_NUMBER, "Lines are 1-based; line 0 does not exist")
            .detail("line", 0)),
        _ => Ok(()),
    }
}

/// The existing `.cs` file that declares the type.
pub fn source_file(raw: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    if !raw.ends_with(".cs") {
        return Err(ToolError::new(
            ErrorCode::INVALID_SOURCE_PATH,
            format!("sourceFile must be a .cs file, got `{raw}`"),
        )
        .detail("sourceFile", raw));
    }
    resolve::existing_file(raw, "sourceFile", scope)
}

/// The `.cs` file to move into, which may not exist yet.
pub fn target_file(raw: &str, scope: &Scope) -> Result<PathBuf, ToolError> {
    if !raw.ends_with(".cs") {
        return Err(ToolError::new(
            ErrorCode::INVALID_TARGET_PATH,
            format!("targetFile must be a .cs file, got `{raw}`"),
        )
        .detail("targetFile", raw));
    }
    resolve::new_file(raw, "targetFile", scope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_schema_pattern() {
        for good in ["A", "_a1", "MyApp.Services", "A.B.C"] {
            assert!(dotted_name(good, "symbolName", ErrorCode::INVALID_SYMBOL_NAME).is_ok(), "{good}");
        }
        for bad in ["", "1A", "A..B", "A.", ".A", "A-B", "A B", "Ünï"] {
            let error = dotted_name(bad, "targetNamespace", ErrorCode::INVALID_NAMESPACE).expect_err(bad);
            assert_eq!(error.code, ErrorCode::INVALID_NAMESPACE);
        }
        assert_eq!(line(Some(0)).map_err(|e| e.code), Err(ErrorCode::INVALID_LINE_NUMBER));
        assert!(line(Some(1)).is_ok() && line(None).is_ok());
    }
}
