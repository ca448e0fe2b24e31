//! Hard caps on what one answer may hold. Settings may make them stricter, never looser: a larger value is
//! lowered to the maximum. Over a cap the answer is CAP_EXCEEDED, never a silently shortened list.

use protocol::{ErrorCode, ToolError};

pub const MAX_PAGE_SIZE: u32 = 200;
pub const MAX_ITEMS: u32 = 200;
pub const MAX_TOTAL_ITEMS: u32 = 20_000;
/// Diagnostics page by files; fewer of those are allowed than items elsewhere.
pub const MAX_DIAGNOSTIC_FILES: u32 = 5_000;
pub const MAX_RESPONSE_BYTES: u32 = 524_288;
/// The page size when a call gives none.
pub const DEFAULT_PAGE_SIZE: u32 = 100;
/// A snippet for analyze_code_block.
pub const MAX_CODE_BYTES: usize = 65_536;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub page_size: usize,
    pub items: usize,
    pub total_items: usize,
    pub response_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self::clamped(MAX_PAGE_SIZE, MAX_ITEMS, MAX_TOTAL_ITEMS, MAX_RESPONSE_BYTES)
    }
}

impl Limits {
    pub fn clamped(page_size: u32, items: u32, total_items: u32, response_bytes: u32) -> Self {
        Self {
            page_size: page_size.min(MAX_PAGE_SIZE) as usize,
            items: items.min(MAX_ITEMS) as usize,
            total_items: total_items.min(MAX_TOTAL_ITEMS) as usize,
            response_bytes: response_bytes.min(MAX_RESPONSE_BYTES) as usize,
        }
    }

    /// The total cap for diagnostics, counted in files.
    pub fn diagnostic_files(&self) -> usize {
        self.total_items.min(MAX_DIAGNOSTIC_FILES as usize)
    }

    /// A list that is not paged must fit the item cap.
    pub fn check_items(&self, what: &str, count: usize) -> Result<(), ToolError> {
        check(what, "items", count, self.items)
    }

    /// A paged result must fit the total cap before it is paged.
    pub fn check_total(&self, what: &str, count: usize, cap: usize) -> Result<(), ToolError> {
        check(what, "totalItems", count, cap)
    }

    pub fn check_response(&self, bytes: usize) -> Result<(), ToolError> {
        check("the answer", "responseBytes", bytes, self.response_bytes)
    }

    /// The page size a call gets: its own within the cap, or the default.
    pub fn page_size(&self, requested: Option<u32>) -> Result<usize, ToolError> {
        match requested {
            Some(0) => Err(ToolError::new(ErrorCode::INVALID_PARAMETER, "`pageSize` must be at least 1")
                .detail("field", "pageSize")),
            Some(n) => Ok((n as usize).min(self.page_size)),
            None => Ok((DEFAULT_PAGE_SIZE as usize).min(self.page_size)),
        }
    }
}

fn check(what: &str, cap: &str, count: usize, limit: usize) -> Result<(), ToolError> {
    if count <= limit {
        return Ok(());
    }
    Err(ToolError::new(ErrorCode::CAP_EXCEEDED, format!("{what} has {count} {}, over the limit of {limit}", unit(cap)))
        .detail("cap", cap)
        .detail("limit", limit)
        .detail("actual", count)
        .suggest(match cap {
            "responseBytes" => "Ask for a smaller page (pageSize) or a narrower scope",
            "items" => "Narrow the question (a filter, a more specific symbol)",
            _ => "Narrow the question: a more specific query, one project or one file",
        }))
}

fn unit(cap: &str) -> &'static str {
    if cap == "responseBytes" { "bytes" } else { "items" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_lowered_to_the_hard_maxima() {
        let limits = Limits::clamped(1_000, 5_000, 1_000_000, u32::MAX);
        assert_eq!(limits, Limits::default());
        assert_eq!(Limits::clamped(10, 3, 50, 4096).diagnostic_files(), 50);
        assert_eq!(Limits::default().diagnostic_files(), 5_000);
    }

    #[test]
    fn page_sizes_are_capped_and_zero_is_refused() {
        let limits = Limits::clamped(20, 200, 100, 1000);
        assert_eq!(limits.page_size(None).ok(), Some(20));
        assert_eq!(limits.page_size(Some(5)).ok(), Some(5));
        assert_eq!(limits.page_size(Some(500)).ok(), Some(20));
        assert_eq!(limits.page_size(Some(0)).err().map(|e| e.code), Some(ErrorCode::INVALID_PARAMETER));
    }

    #[test]
    fn over_a_cap_is_a_deterministic_error() {
        let limits = Limits::clamped(20, 2, 100, 1000);
        assert!(limits.check_items("overloads", 2).is_ok());
        let error = limits.check_items("overloads", 3).expect_err("over the cap");
        assert_eq!(error.code, ErrorCode::CAP_EXCEEDED);
        assert_eq!(error.details.as_ref().and_then(|d| d.get("actual")).cloned(), Some(3.into()));
        assert_eq!(limits.check_response(1001).err().map(|e| e.code), Some(ErrorCode::CAP_EXCEEDED));
    }
}
