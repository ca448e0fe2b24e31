//! The errors of a failed build, from MSBuild's file logger in errors-only mode: one canonical line per
//! error, `file(line,col): error CODE: message [project]`.

use serde::Serialize;

/// An error the build reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildError {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    pub code: String,
    pub message: String,
}

/// The log's distinct errors, in order.
pub fn errors(log: &str) -> Vec<BuildError> {
    let mut found: Vec<BuildError> = Vec::new();
    for error in log.trim_start_matches('\u{feff}').lines().filter_map(parse) {
        if !found.contains(&error) {
            found.push(error);
        }
    }
    found
}

fn parse(line: &str) -> Option<BuildError> {
    let (origin, rest) = line.split_once(": error ")?;
    let (code, message) = rest.split_once(": ").unwrap_or(("", rest));
    // The project the error came from closes the line.
    let message = match message.rfind(" [") {
        Some(at) if message.ends_with(']') => &message[..at],
        _ => message,
    };
    let (file, line, column) = match origin.strip_suffix(')').and_then(|o| o.rsplit_once('(')) {
        Some((file, place)) => {
            let mut numbers = place.split(',').map(|n| n.trim().parse::<u32>().ok());
            (Some(file.trim()), numbers.next().flatten(), numbers.next().flatten())
        }
        None => (Some(origin.trim()).filter(|o| o.contains('/')), None, None),
    };
    Some(BuildError {
        file_path: file.map(str::to_owned),
        line,
        column,
        code: code.trim().to_owned(),
        message: message.trim().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_and_project_errors_are_read_with_their_places() {
        let log = "\u{feff}/w/Pricing/Pricer.cs(12,9): error CS1002: ; expected [/w/Pricing/Pricing.csproj]\n\
                   /w/Pricing/Pricer.cs(12,9): error CS1002: ; expected [/w/Pricing/Pricing.csproj]\n\
                   /w/App.csproj : error NU1101: Unable to find package Nope. [/w/App.csproj]\n\
                   CSC : error CS2001: Source file 'x.cs' could not be found.\n";
        let errors = errors(log);
        assert_eq!(errors.len(), 3);
        assert_eq!(
            errors[0],
            BuildError {
                file_path: Some("/w/Pricing/Pricer.cs".into()),
                line: Some(12),
                column: Some(9),
                code: "CS1002".into(),
                message: "; expected".into()
            }
        );
        assert_eq!((errors[1].file_path.as_deref(), errors[1].code.as_str()), (Some("/w/App.csproj"), "NU1101"));
        assert_eq!(
            (errors[2].file_path.as_deref(), errors[2].message.as_str()),
            (None, "Source file 'x.cs' could not be found.")
        );
    }
}
