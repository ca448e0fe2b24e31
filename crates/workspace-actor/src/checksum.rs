//! File contents as the service compares them: sha256 of the UTF-8 text without its byte order mark.

use sha2::{Digest, Sha256};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Lowercase hex sha256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The text of a file, without a leading byte order mark.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// `text` encoded as a file that had `original`'s byte order mark (or none).
pub fn with_bom_of(original: Option<&[u8]>, text: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(text.len() + BOM.len());
    if original.is_some_and(|o| o.starts_with(BOM)) {
        bytes.extend_from_slice(BOM);
    }
    bytes.extend_from_slice(text.as_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_ignored_by_the_text_and_kept_by_the_rewrite() {
        let with = b"\xEF\xBB\xBFclass A {}";
        assert_eq!(without_bom(with), b"class A {}");
        assert_eq!(with_bom_of(Some(with), "class B {}"), b"\xEF\xBB\xBFclass B {}");
        assert_eq!(with_bom_of(Some(b"x"), "y"), b"y");
        assert_eq!(sha256_hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
