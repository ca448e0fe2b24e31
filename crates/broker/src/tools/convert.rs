//! Host answers to tool outputs: field renames, and 1-based spans to locations.

use protocol::host;
use protocol::tools::diagnostics::SeverityName;
use protocol::tools::{Location, SymbolInfo};

pub fn location(span: &host::Span) -> Location {
    Location {
        file_path: span.file.clone(),
        line: span.start_line,
        column: span.start_column,
        end_line: span.end_line,
        end_column: span.end_column,
    }
}

pub fn symbol(summary: &host::SymbolSummary) -> SymbolInfo {
    SymbolInfo {
        name: summary.name.clone(),
        kind: summary.kind.clone(),
        fully_qualified_name: summary.display.clone(),
        containing_type: summary.containing_type.clone(),
        containing_namespace: summary.containing_namespace.clone(),
        assembly: summary.assembly.clone(),
        is_from_metadata: summary.is_metadata,
    }
}

pub fn severity_name(severity: host::Severity) -> SeverityName {
    match severity {
        host::Severity::Hidden => SeverityName::Hidden,
        host::Severity::Info => SeverityName::Info,
        host::Severity::Warning => SeverityName::Warning,
        host::Severity::Error => SeverityName::Error,
    }
}

pub fn severity(name: SeverityName) -> host::Severity {
    match name {
        SeverityName::Hidden => host::Severity::Hidden,
        SeverityName::Info => host::Severity::Info,
        SeverityName::Warning => host::Severity::Warning,
        SeverityName::Error => host::Severity::Error,
    }
}
