//! Uses of referenced assemblies' members: the virtual document a definition points to declares, at that
//! place, exactly the member used (its name, its type parameters' count, its parameters' types), and
//! get_symbol_source of the member answers the same declaration.

use super::csharp::{code_only, parameter_type, parenthesized, split_top};
use super::service::Service;
use super::{Options, Solution};
use serde_json::{Value, json};

/// Places asked per use checked: most names are the solution's own.
const ASKED_PER_USE: usize = 6;

pub async fn check(service: &Service, solution: &Solution, options: &Options) {
    let mut candidates = Vec::new();
    for file in &solution.documents {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        for (index, (line, code)) in text.lines().zip(code_only(&text).lines()).enumerate() {
            for at in member_names(code) {
                candidates.push((file.clone(), index as u64 + 1, line[..at].encode_utf16().count() as u64 + 1));
            }
        }
    }
    let asked = options.uses.saturating_mul(ASKED_PER_USE);
    let key =
        |(file, line, column): &(std::path::PathBuf, u64, u64)| format!("{}:{line}:{column}", solution.relative(file));
    let mut checked = 0;
    for (file, line, column) in options.sample.take(candidates, asked, key) {
        if checked >= options.uses {
            break;
        }
        let at = json!({"filePath": file, "line": line, "column": column});
        let Ok(definition) = service.call("find_symbol_definition", at).await else { continue };
        let symbol = &definition["symbolInfo"];
        if symbol["isFromMetadata"] != true || symbol["kind"] == "Namespace" {
            continue;
        }
        checked += 1;
        let used = format!("{}:{line}:{column} {}", file.display(), symbol["fullyQualifiedName"]);
        let site = definition.get("metadataSource").ok_or_else(|| format!("{used}: no metadataSource"));
        service.case("a metadata definition has a place to read", site.clone().map(drop));
        let Ok(site) = site else { continue };
        let read = json!({"path": site["filePath"], "startLine": site["line"], "lineCount": 12});
        let answer = service.call("read_source", read).await;
        service.judged("a metadata definition declares the member used", &used, answer, |read| {
            declares(&read["text"], site["column"].as_u64().unwrap_or(1), symbol)
                .map_err(|why| format!("{used}: {why} in {}:{}", site["filePath"], site["line"]))
        });
        let named = json!({"symbols": [symbol["fullyQualifiedName"]]});
        let answer = service.call("get_symbol_source", named).await;
        // A type larger than any answer (`string`) is read a part at a time where the refusal says it is.
        if let Err(refusal) = &answer
            && refusal["code"] == "CAP_EXCEEDED"
            && let Some(place) = refusal["details"]["declarations"].get(0)
        {
            let read = json!({"path": place["filePath"], "startLine": place["line"], "lineCount": 40});
            let part = service.call("read_source", read).await;
            service.judged("a metadata member's source declares it", &used, part, |read| {
                let column = place["column"].as_u64().unwrap_or(1);
                declares(&read["text"], column, symbol).map_err(|why| format!("{used}: source read by lines {why}"))
            });
            continue;
        }
        service.judged("a metadata member's source declares it", &used, answer, |source| {
            let declarations = &source["symbols"][0]["declarations"];
            match declarations.as_array().and_then(|all| all.first()) {
                Some(first) => declares(&first["text"], 1, symbol).map_err(|why| format!("{used}: source {why}")),
                None => Err(format!("{used}: get_symbol_source answered no declaration")),
            }
        });
    }
}

/// Byte offsets of names used as members in a line of code (literals and comments blanked): after a `.`, or
/// the type of a `new`.
fn member_names(line: &str) -> Vec<usize> {
    let trimmed = line.trim_start();
    if trimmed.starts_with("using ") || trimmed.starts_with("namespace ") {
        return Vec::new();
    }
    let bytes = line.as_bytes();
    line.char_indices()
        .filter(|&(at, c)| (c.is_ascii_alphabetic() || c == '_') && at > 0)
        .filter(|&(at, _)| bytes[at - 1] == b'.' || line[..at].ends_with("new "))
        .map(|(at, _)| at)
        .collect()
}

/// Whether `text`, from `column` of its first line, declares the member `symbol` describes.
fn declares(text: &Value, column: u64, symbol: &Value) -> Result<(), String> {
    let text = &code_only(text.as_str().unwrap_or_default());
    let first = text.lines().next().unwrap_or_default();
    let start = first.char_indices().nth(column as usize - 1).map_or(0, |(at, _)| at);
    let name = symbol["name"].as_str().unwrap_or_default();
    // A delegate's Invoke is declared by the delegate itself (`public delegate void Action<in T>(T obj);`): the
    // declaration's first line of code (past its documentation and attributes) says so.
    let head = text.lines().map(str::trim_start).find(|l| !l.is_empty() && !l.starts_with('[')).unwrap_or_default();
    let delegate = name == "Invoke" && head.contains("delegate ");
    let written_name = match name {
        ".ctor" | ".cctor" => type_name(symbol),
        _ if delegate => type_name(symbol),
        "this[]" => "this".to_owned(),
        other => other.rsplit('.').next().unwrap_or(other).to_owned(),
    };
    let Some(at) = find_word(text, &written_name, start) else {
        return Err(format!("no `{written_name}`"));
    };
    let fqn = symbol["fullyQualifiedName"].as_str().unwrap_or_default();
    let kind = symbol["kind"].as_str().unwrap_or_default();
    if !matches!(kind, "Method" | "Constructor") && name != "this[]" {
        return Ok(());
    }
    let from = fqn.rfind(&format!("{}(", tail(fqn, name))).or_else(|| fqn.find('(')).unwrap_or(0);
    let wanted = parameters(fqn, from);
    // Past its type parameters, whose attributes have parentheses of their own (`Add<[DynamicallyAccessedMembers(
    // DynamicallyAccessedMemberTypes.All)] TComponent>(string selector)`).
    let after = at + written_name.len();
    let after = match text[after..].starts_with('<') {
        true => parenthesized(&text[after..].replacen('<', "(", 1), 0).map_or(after, |list| after + list.len() + 2),
        false => after,
    };
    let written = parameters(text, after);
    if wanted != written {
        return Err(format!("parameters {written:?}, not {wanted:?}"));
    }
    // The type parameters written are the delegate's, which Invoke uses and does not declare.
    if delegate {
        return Ok(());
    }
    // A constructor has no type parameters of its own; its name in `fqn` is its type's, which may.
    let wanted_arity = if written_name == type_name(symbol) { 0 } else { arity(fqn, name) };
    let written_arity = arity(&text[at..], &written_name);
    if wanted_arity != written_arity {
        return Err(format!("{written_arity} type parameters, not {wanted_arity}"));
    }
    Ok(())
}

/// The member's name as it ends the fully qualified name before its parameters.
fn tail<'a>(fqn: &'a str, name: &'a str) -> &'a str {
    if name.starts_with('.') || name == "this[]" {
        fqn.split('(').next().unwrap_or(fqn).rsplit('.').next().unwrap_or(name)
    } else {
        name
    }
}

fn type_name(symbol: &Value) -> String {
    let containing = symbol["containingType"].as_str().unwrap_or_default();
    let bare = containing.split('<').next().unwrap_or(containing);
    bare.rsplit(['.', '+']).next().unwrap_or(bare).to_owned()
}

/// The types of the parameter list that follows `from`.
fn parameters(text: &str, from: usize) -> Vec<String> {
    let list = if text[from..].trim_start().starts_with("this") && text[from..].contains('[') {
        text[from..]
            .find('[')
            .and_then(|open| text[from + open + 1..].find(']').map(|end| &text[from + open + 1..from + open + 1 + end]))
    } else {
        parenthesized(text, from)
    };
    list.map(|list| split_top(list).into_iter().map(parameter_type).collect()).unwrap_or_default()
}

/// How many type parameters follow `name` in `text` (`Sum<T>` has one).
fn arity(text: &str, name: &str) -> usize {
    let Some(at) = text.find(name) else { return 0 };
    let after = &text[at + name.len()..];
    if !after.starts_with('<') {
        return 0;
    }
    parenthesized(&after.replacen('<', "(", 1), 0).map_or(0, |list| split_top(list).len())
}

/// The byte offset of `word` as a whole word at or after `from`.
fn find_word(text: &str, word: &str, from: usize) -> Option<usize> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    let mut at = from.min(text.len());
    while let Some(found) = text[at..].find(word) {
        let start = at + found;
        let end = start + word.len();
        let before = text[..start].chars().next_back().is_none_or(|c| !is_name(c));
        let after = text[end..].chars().next().is_none_or(|c| !is_name(c));
        if before && after {
            return Some(start);
        }
        at = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_is_the_overload_used_or_says_why_not() {
        let sum = json!({"name": "Sum", "kind": "Method", "fullyQualifiedName":
            "System.Linq.Enumerable.Sum(System.Collections.Generic.IEnumerable<decimal>)"});
        let decimal = json!("public static decimal Sum(this IEnumerable<decimal> source)\n{");
        assert_eq!(declares(&decimal, 1, &sum), Ok(()));
        let int = json!("public static int Sum(this IEnumerable<int> source)\n{");
        assert!(declares(&int, 1, &sum).is_err_and(|why| why.contains("parameters")));
        let generic = json!({"name": "Max", "kind": "Method", "fullyQualifiedName":
            "System.Linq.Enumerable.Max<TSource>(System.Collections.Generic.IEnumerable<TSource>)"});
        let written = json!("public static TSource? Max<TSource>(this IEnumerable<TSource> source)");
        assert_eq!(declares(&written, 1, &generic), Ok(()));
        let constructor = json!({"name": "Dictionary", "kind": "Method", "containingType":
            "System.Collections.Generic.Dictionary<TKey, TValue>", "fullyQualifiedName":
            "System.Collections.Generic.Dictionary<TKey, TValue>.Dictionary(int)"});
        assert_eq!(declares(&json!("public Dictionary(int capacity)"), 1, &constructor), Ok(()));
        assert_eq!(member_names("var x = list.Sum() + new Foo(1);"), [13, 25]);
        let add = json!({"name": "Add", "kind": "Method", "fullyQualifiedName":
            "Hosting.RootComponentMappingCollection.Add<TComponent>(string)"});
        let written = json!(
            "public void Add<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.All)] TComponent>(string selector)"
        );
        assert_eq!(declares(&written, 1, &add), Ok(()));
        let invoke = json!({"name": "Invoke", "kind": "Method", "containingType": "System.Action<T1, T2>",
            "fullyQualifiedName": "System.Action<T1, T2>.Invoke(T1, T2)"});
        let delegate = json!("public delegate void Action<in T1, in T2>(T1 arg1, T2 arg2);");
        assert_eq!(declares(&delegate, 1, &invoke), Ok(()));
    }
}
