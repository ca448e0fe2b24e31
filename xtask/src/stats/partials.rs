//! Partial members reach both their parts, wherever a generator wrote one; every generated document reads.

use super::Solution;
use super::csharp::code_only;
use super::service::{Service, refusal};
use serde_json::json;

pub async fn check(service: &Service, solution: &Solution) {
    for file in &solution.documents {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        // Code only: a generator's templates in raw strings declare nothing.
        for (index, (line, code)) in text.lines().zip(code_only(&text).lines()).enumerate() {
            let Some((at, optional)) = partial_member(code) else { continue };
            let column = line[..at].encode_utf16().count() + 1;
            let place = format!("{}:{}", file.display(), index + 1);
            let answer = service
                .call("find_symbol_definition", json!({"filePath": file, "line": index + 1, "column": column}))
                .await;
            service.judged("a partial member reaches both parts", &place, answer, |found| {
                let parts = found["locations"].as_array().map_or(0, Vec::len);
                (parts >= 2 || optional).then_some(()).ok_or_else(|| format!("{place}: {parts} part(s)"))
            });
        }
    }
    for project in solution.projects.iter().filter(|p| p["generators"].as_array().is_some_and(|g| !g.is_empty())) {
        let place = project["path"].as_str().unwrap_or_default();
        let listed = match service.call("list_generated_documents", json!({"project": project["path"]})).await {
            Ok(listed) => listed,
            Err(error) => {
                service.case("a generated document reads", Err(refusal(place, &error)));
                continue;
            }
        };
        for document in listed["documents"].as_array().into_iter().flatten() {
            let path = document["path"].as_str().unwrap_or_default();
            let answer = service.call("read_source", json!({"path": path, "lineCount": 5})).await;
            service.judged("a generated document reads", path, answer, |read| {
                read["totalLines"].as_u64().is_some_and(|n| n > 0).then_some(()).ok_or_else(|| format!("{path}: empty"))
            });
        }
    }
}

/// The byte offset of the name a partial method or property declares on a line of code (literals and comments
/// blanked), and whether its implementation is optional (a `void` partial method without an access modifier).
fn partial_member(mut code: &str) -> Option<(usize, bool)> {
    // Attributes before the declaration on its line (`[GeneratedRegex("a+")] public static partial ...`).
    let mut skipped = 0;
    while let Some(rest) = code.trim_start().strip_prefix('[') {
        let close = super::csharp::parenthesized(&format!("({rest}"), 0).map_or(rest.len(), |inside| inside.len());
        let cut = code.len() - rest.len() + close + 1;
        skipped += cut.min(code.len());
        code = &code[cut.min(code.len())..];
    }
    let words: Vec<&str> = code.split_whitespace().collect();
    if !words.contains(&"partial")
        || ["class", "struct", "interface", "record", "enum"].iter().any(|k| words.contains(k))
    {
        return None;
    }
    let end = code.find(['(', '{', ';', '=']).unwrap_or(code.len());
    let head = code[..end].trim_end();
    // `partial`, a type and a name: a modifier, not a variable of that name.
    let before: Vec<&str> = head.split_whitespace().collect();
    if before.iter().position(|w| *w == "partial").is_none_or(|at| before.len() < at + 3) {
        return None;
    }
    let head = head.split('<').next().unwrap_or(head).trim_end();
    let start = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |at| at + 1);
    if start >= head.len() {
        return None;
    }
    let accessible = ["public", "private", "protected", "internal"].iter().any(|k| words.contains(k));
    let optional = words.contains(&"void") && !accessible && code[end..].starts_with('(');
    Some((skipped + start, optional))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_members_are_found_by_their_names() {
        let regex = "    [GeneratedRegex(\"a+\")] public static partial Regex CouponCode();";
        assert_eq!(partial_member(regex), Some((regex.find("CouponCode").expect("name"), false)));
        assert_eq!(partial_member("    partial void OnChanged(int value);"), Some((17, true)));
        assert_eq!(partial_member("    public partial string Name { get; set; }"), Some((26, false)));
        assert_eq!(partial_member("public partial class Shop"), None);
        assert_eq!(partial_member("var partial = 1;"), None);
    }
}
