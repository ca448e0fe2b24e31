//! Just enough C# text handling to compare a declaration as written with the symbol the service describes:
//! literals and comments blanked, a parameter list split at its top-level commas, and type names reduced to a
//! comparable form.

/// `text` with the insides of its string and character literals and its comments blanked (a generator's
/// templates in raw strings, `[CallerArgumentExpression("value")]`), each byte a space but line ends, so that
/// offsets and lines stay where they were. Delimiters stay: a literal still reads as one.
pub fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut blank = |from: usize, to: usize| {
        for b in &mut out[from..to.min(bytes.len())] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let quotes_at = |at: usize| bytes[at..].iter().take_while(|b| **b == b'"').count();
    // The end of a quoted literal's body from `at`: its closing `close`, or the line's end unless `verbatim`.
    let body_end = |mut at: usize, close: u8, verbatim: bool| {
        while at < bytes.len() {
            match bytes[at] {
                b'"' if verbatim && bytes.get(at + 1) == Some(&b'"') => at += 2,
                b'\\' if !verbatim => at += 2,
                b'\n' if !verbatim => return at,
                b if b == close => return at,
                _ => at += 1,
            }
        }
        bytes.len()
    };
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        at = if rest.starts_with(b"//") {
            let end = at + rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
            blank(at, end);
            end
        } else if rest.starts_with(b"/*") {
            let end = at + rest.windows(2).position(|w| w == b"*/").map_or(rest.len(), |i| i + 2);
            blank(at, end);
            end
        } else if rest[0] == b'\'' {
            let end = body_end(at + 1, b'\'', false);
            blank(at + 1, end);
            end + 1
        } else if rest[0] == b'"' {
            match quotes_at(at) {
                2 => at + 2,
                1 => {
                    // `@"..."`, `$@"..."`, `@$"..."`
                    let verbatim = bytes[at.saturating_sub(2)..at].contains(&b'@');
                    let end = body_end(at + 1, b'"', verbatim);
                    blank(at + 1, end);
                    end + 1
                }
                quotes => {
                    let body = at + quotes;
                    let end = (body..bytes.len()).find(|&i| quotes_at(i) >= quotes).unwrap_or(bytes.len());
                    blank(body, end);
                    end + quotes
                }
            }
        } else {
            at + 1
        };
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// The text between the `(` at or after `from` and its matching `)`.
pub fn parenthesized(text: &str, from: usize) -> Option<&str> {
    let open = from + text.get(from..)?.find('(')?;
    let mut depth = 0;
    for (at, c) in text[open..].char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[open + 1..open + at]);
                }
            }
            _ => {}
        }
    }
    None
}

/// `a, Dictionary<b, c>, d` split at the commas outside brackets; empty for an empty list.
pub fn split_top(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (at, c) in list.char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(list[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    let last = list[start..].trim();
    if !last.is_empty() || !parts.is_empty() {
        parts.push(last);
    }
    parts
}

/// A type as written, comparable with another spelling of it: namespaces and `global::` dropped, the
/// keyword of a predefined type, nullable annotations gone, no spaces.
pub fn type_key(written: &str) -> String {
    let mut key = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, key: &mut String| {
        key.push_str(keyword(word));
        word.clear();
    };
    for c in written.replace("global::", "").chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else if c == '.' {
            word.clear();
        } else {
            flush(&mut word, &mut key);
            if !c.is_whitespace() && c != '?' {
                key.push(c);
            }
        }
    }
    flush(&mut word, &mut key);
    key
}

fn keyword(name: &str) -> &str {
    match name {
        "Int32" => "int",
        "Int64" => "long",
        "Int16" => "short",
        "UInt32" => "uint",
        "UInt64" => "ulong",
        "UInt16" => "ushort",
        "Byte" => "byte",
        "SByte" => "sbyte",
        "Boolean" => "bool",
        "String" => "string",
        "Char" => "char",
        "Double" => "double",
        "Single" => "float",
        "Decimal" => "decimal",
        "Object" => "object",
        "Void" => "void",
        "IntPtr" => "nint",
        "UIntPtr" => "nuint",
        other => other,
    }
}

/// A parameter as written (`[In] this ref readonly IEnumerable<int> source = null`) reduced to its type.
pub fn parameter_type(parameter: &str) -> String {
    let mut text = parameter.trim();
    // Each attribute list whole, brackets inside its arguments too (`[StringSyntax("Uri", new object[] { ... })]`).
    while text.starts_with('[') {
        let mut depth = 0;
        let Some(end) = text.find(|c| {
            depth += match c {
                '[' => 1,
                ']' => -1,
                _ => 0,
            };
            depth == 0
        }) else {
            break;
        };
        text = text[end + 1..].trim_start();
    }
    let text = text.split('=').next().unwrap_or(text).trim();
    let mut words: Vec<&str> = split_words(text);
    const MODIFIERS: &[&str] = &["this", "ref", "out", "in", "params", "scoped", "readonly"];
    while words.first().is_some_and(|w| MODIFIERS.contains(w)) {
        words.remove(0);
    }
    // The last word is the parameter's name when there is one besides the type.
    if words.len() > 1 {
        words.pop();
    }
    type_key(&words.concat())
}

/// Words at the top level (a generic's arguments stay with their type).
fn split_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let (mut depth, mut start) = (0i32, None);
    for (at, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            c if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    words.push(&text[s..at]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(at);
    }
    if let Some(s) = start {
        words.push(&text[s..]);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_reduce_to_comparable_types() {
        let declaration = "public static decimal Sum<T>(this IEnumerable<T> source, Func<T, decimal> selector) {";
        let list = parenthesized(declaration, declaration.find("Sum").expect("name")).expect("list");
        let types: Vec<String> = split_top(list).into_iter().map(parameter_type).collect();
        assert_eq!(types, ["IEnumerable<T>", "Func<T,decimal>"]);
        assert_eq!(parameter_type("[NotNull] ref readonly System.Int32? value = 0"), "int");
        let uri = "[NotNullWhen(true)][StringSyntax(\"\", new object[] { \"\" })] string? uriString";
        assert_eq!(parameter_type(uri), "string");
        assert_eq!(parameter_type("System.Collections.Generic.IEnumerable<System.Decimal>"), "IEnumerable<decimal>");
        assert!(split_top("").is_empty());
    }

    #[test]
    fn literals_and_comments_are_blanked_where_they_are() {
        let text = "var t = \"\"\"\n    partial void M(\"x\");\n    \"\"\";\nvoid N([CallerArgumentExpression(\"a)\")] string s = @\"q\"\"(\", char c = ')') /* ( */ {} // )";
        let code = code_only(text);
        assert_eq!(code.len(), text.len());
        assert_eq!(code.lines().count(), text.lines().count());
        assert!(!code.contains("partial"), "{code}");
        let n = code.find("N(").expect("N");
        assert_eq!(parenthesized(&code, n).map(|list| split_top(list).len()), Some(2), "{code}");
        assert!(code.ends_with("{}     "), "{code}");
        assert_eq!(code_only("s = \"a\\\"(\"; f(1)"), "s = \"    \"; f(1)");
    }
}
