//! A referenced assembly's members each land on their own declaration in its decompiled C#, on the Overloads
//! fixture: every overload of `Enumerable.Sum` (differing only in `IEnumerable<T>`'s type argument, generic
//! and not) and `Math.Max`, an operator's overloads, an indexer, a nested type's member, and explicit interface
//! implementations without parameters beside the public method of the same name; through find_symbol_definition
//! (the line of `metadataSource`) and get_symbol_source (the declaration's text).

use crate::support::shared;
use serde_json::{Value, json};
use std::collections::HashSet;

/// A member as its declaration writes it: the name (an explicit implementation's with its interface, a
/// generic method's with its type parameters) and the parameter types, namespaces and spaces left out.
#[derive(Debug, PartialEq)]
struct Declared {
    name: String,
    parameters: Vec<String>,
}

/// The member a symbol's fully qualified name and containing type describe
/// (`System.Collections.Generic.List<T>.System.Collections.IList.Add(object)` → `IList.Add`, `[object]`).
fn declared(display: &str, containing_type: &str) -> Declared {
    let open = opening(display);
    let member = display[..open].strip_prefix(containing_type).and_then(|m| m.strip_prefix('.')).expect("a member");
    let name = match last_dot(member) {
        Some(dot) => format!("{}.{}", normal(&member[..dot]), &member[dot + 1..]),
        None => member.to_owned(),
    };
    Declared { name, parameters: parts(&display[open + 1..display.len() - 1]).iter().map(|p| normal(p)).collect() }
}

/// The member `name` that C# text declares: its parameter types, as written after the name (names and
/// default values left out); None when the text declares no member of that name.
fn written(text: &str, name: &str) -> Option<Declared> {
    let header: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with('['))
        .collect::<Vec<_>>()
        .join("\n");
    let at = header.match_indices(name).map(|(at, _)| at).find(|&at| {
        let before = header[..at].chars().next_back();
        let after = header[at + name.len()..].chars().next();
        before.is_none_or(char::is_whitespace) && matches!(after, Some('(' | '['))
    })?;
    let list = &header[at + name.len()..];
    let close = matching(list);
    let parameters = parts(&list[1..close]).iter().map(|p| normal(&parameter_type(p))).collect();
    Some(Declared { name: name.to_owned(), parameters })
}

/// The index of the bracket closing the one `text` starts with.
fn matching(text: &str) -> usize {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 1 => return at,
            ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    panic!("unclosed: {text}")
}

/// The index of the bracket opening the list `text` ends with.
fn opening(text: &str) -> usize {
    let mut depth = 0;
    for (at, c) in text.char_indices().rev() {
        match c {
            ')' | ']' => depth += 1,
            '(' | '[' if depth == 1 => return at,
            '(' | '[' => depth -= 1,
            _ => {}
        }
    }
    panic!("no parameter list: {text}")
}

/// A list split at its top-level commas.
fn parts(list: &str) -> Vec<String> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (at, c) in list.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                items.push(list[start..at].to_owned());
                start = at + 1;
            }
            _ => {}
        }
    }
    if !list.trim().is_empty() {
        items.push(list[start..].to_owned());
    }
    items
}

/// The last `.` outside type arguments.
fn last_dot(member: &str) -> Option<usize> {
    let mut depth = 0;
    let mut last = None;
    for (at, c) in member.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '.' if depth == 0 => last = Some(at),
            _ => {}
        }
    }
    last
}

/// A written parameter's type: attributes, default value and name left out.
fn parameter_type(parameter: &str) -> String {
    let mut text = parameter.trim();
    while text.starts_with('[') {
        text = text[matching(text) + 1..].trim_start();
    }
    let text = text.split(" = ").next().expect("a parameter").trim_end();
    text.rsplit_once(char::is_whitespace).map_or(text, |(ty, _)| ty).to_owned()
}

/// Without namespaces, `global::` or spaces; a reference type's nullable annotation, which the fully
/// qualified name does not write, left out.
fn normal(text: &str) -> String {
    let (mut out, mut word) = (String::new(), String::new());
    for c in text.replace("global::", "").chars() {
        match c {
            c if c.is_alphanumeric() || c == '_' => word.push(c),
            '.' => word.clear(),
            c => {
                out.push_str(&std::mem::take(&mut word));
                if !c.is_whitespace() {
                    out.push(c);
                }
            }
        }
    }
    out.push_str(&word);
    out.replace("object?", "object").replace("string?", "string")
}

/// The member a symbol names, as its own declaration writes it.
fn expected(symbol: &Value) -> Declared {
    declared(
        symbol["fullyQualifiedName"].as_str().expect("fullyQualifiedName"),
        symbol["containingType"].as_str().expect("containingType"),
    )
}

#[test]
fn signatures_are_read_from_names_and_text() {
    let sum = declared(
        "System.Linq.Enumerable.Sum<TSource>(this System.Collections.Generic.IEnumerable<TSource>, System.Func<TSource, decimal?>)",
        "System.Linq.Enumerable",
    );
    let text = "/// <summary>Sum(x)</summary>\n[Attr(1)]\npublic static decimal? Sum<TSource>(this IEnumerable<TSource> source, Func<TSource, decimal?> selector)\n{";
    assert_eq!(written(text, &sum.name), Some(sum));
    let add = declared(
        "System.Collections.Generic.List<T>.System.Collections.IList.Add(object)",
        "System.Collections.Generic.List<T>",
    );
    assert_eq!(add.name, "IList.Add");
    assert_eq!(written("int IList.Add(object? item)", "IList.Add"), Some(add));
    assert_eq!(written("public Enumerator GetEnumerator()", "IList.GetEnumerator"), None);
    assert_eq!(written("IEnumerator<T> IEnumerable<T>.GetEnumerator()", "GetEnumerator"), None, "not the explicit one");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_overload_of_a_decompiled_type_lands_on_its_own_declaration() {
    let (fixture, server) = shared::session("Overloads").await;
    let file = fixture.file("App/Invoice.cs");

    // Definitions: the line metadataSource points at declares the very overload the call binds to.
    let mut places = HashSet::new();
    for (needle, nth) in [
        ("Sum()", 0),
        ("Sum()", 1),
        ("Sum(line", 0),
        ("Max(a, b)", 0),
        ("Max(a, b)", 1),
        ("- start", 0),
        ("- by", 0),
        ("[0]", 0),
        ("MoveNext", 0),
    ] {
        let (line, column) = fixture.position_of("App/Invoice.cs", needle, nth);
        let definition =
            server.ok("find_symbol_definition", json!({"filePath": file, "line": line, "column": column})).await;
        let symbol = &definition["symbolInfo"];
        let place = &definition["metadataSource"];
        assert_eq!(
            (symbol["isFromMetadata"].clone(), place["origin"].clone()),
            (json!(true), json!("decompiled")),
            "{definition}"
        );
        let wanted = expected(symbol);
        let line_text = place["sourceText"].as_str().expect("sourceText");
        assert_eq!(written(line_text, &wanted.name).as_ref(), Some(&wanted), "{needle} #{nth}: {definition}");
        let read = server
            .ok("read_source", json!({"path": place["filePath"], "startLine": place["line"], "lineCount": 1}))
            .await;
        assert_eq!(read["text"].as_str().expect("text").trim(), line_text);
        assert!(
            places.insert((place["filePath"].to_string(), place["line"].clone())),
            "{needle} #{nth}: a place of its own"
        );
        // The name the answer gives is one get_symbol_source takes: the same declaration, and only it.
        let named = server.ok("get_symbol_source", json!({"symbols": [symbol["fullyQualifiedName"]]})).await;
        let declarations = named["symbols"][0]["declarations"].as_array().expect("declarations");
        assert_eq!(declarations.len(), 1, "{needle} #{nth}: {named}");
        assert_eq!(declarations[0]["location"]["filePath"], place["filePath"], "{named}");
        assert_declares_each(declarations);
    }

    // Symbol source: every overload's text declares that overload and no other.
    let names = json!(["System.Linq.Enumerable.Sum", "System.Math.Max"]);
    let sources = server.ok("get_symbol_source", json!({"symbols": names})).await;
    for (entry, at_least) in sources["symbols"].as_array().expect("symbols").iter().zip([20, 13]) {
        let declarations = entry["declarations"].as_array().expect("declarations");
        assert!(declarations.len() >= at_least, "{}: {} overloads", entry["name"], declarations.len());
        assert_declares_each(declarations);
    }
    let ids = [
        "M:System.Collections.Generic.List`1.GetEnumerator",
        "M:System.Collections.Generic.List`1.System#Collections#Generic#IEnumerable{T}#GetEnumerator",
        "M:System.Collections.Generic.List`1.System#Collections#IEnumerable#GetEnumerator",
        "M:System.Collections.Generic.List`1.System#Collections#IList#Add(System.Object)",
        "M:System.Collections.Generic.List`1.Add(`0)",
        "P:System.Collections.Generic.List`1.Item(System.Int32)",
        "M:System.Collections.Generic.List`1.Enumerator.MoveNext",
        "M:System.DateTime.op_Subtraction(System.DateTime,System.DateTime)",
        "M:System.DateTime.op_Subtraction(System.DateTime,System.TimeSpan)",
    ];
    let sources = server.ok("get_symbol_source", json!({"symbols": ids})).await;
    let declarations: Vec<Value> = sources["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(|entry| {
            let found = entry["declarations"].as_array().expect("declarations");
            assert_eq!(found.len(), 1, "{entry}");
            found[0].clone()
        })
        .collect();
    assert_declares_each(&declarations);

    // Names as answers write them: a special type by its keyword, a generic type's member, a generic method.
    let displayed = ["string.IsNullOrEmpty(string)", "System.Collections.Generic.List<T>.Add(T)", "decimal.Zero"];
    let sources = server.ok("get_symbol_source", json!({"symbols": displayed})).await;
    for (entry, name) in sources["symbols"].as_array().expect("symbols").iter().zip(displayed) {
        let found = entry["declarations"].as_array().expect("declarations");
        assert_eq!(found.len(), 1, "{name}: {entry}");
        assert_eq!(found[0]["symbol"]["fullyQualifiedName"], name, "{entry}");
    }

    // A delegate's Invoke is declared by the delegate.
    let invoke = server.ok("get_symbol_source", json!({"symbols": ["System.Action<T>.Invoke(T)"]})).await;
    let found = invoke["symbols"][0]["declarations"].as_array().expect("declarations");
    assert_eq!(found.len(), 1, "{invoke}");
    let text = found[0]["text"].as_str().expect("text");
    assert!(text.contains("delegate void Action<in T>(T obj)"), "{text}");

    // Types larger together than any answer (`string` and `Enumerable` decompiled) are refused saying where to
    // read each a part at a time; their signatures fit.
    let large = json!(["string", "System.Linq.Enumerable"]);
    let error = server.fails("get_symbol_source", json!({"symbols": large}), "CAP_EXCEEDED").await;
    let place = &error["details"]["declarations"][0];
    assert!(place["filePath"].as_str().is_some_and(|p| p.starts_with("roslyn-mcp://metadata/")), "{error}");
    let read = json!({"path": place["filePath"], "startLine": place["line"], "lineCount": 40});
    let read = server.ok("read_source", read).await;
    assert!(read["text"].as_str().is_some_and(|t| t.contains("class String")), "{read}");
    server.ok("get_symbol_source", json!({"symbols": large, "signaturesOnly": true})).await;
}

/// Each declaration is decompiled, its text declares its own symbol, and no two share a place.
fn assert_declares_each(declarations: &[Value]) {
    let mut places = HashSet::new();
    for declaration in declarations {
        assert_eq!(declaration["origin"], json!("decompiled"), "{declaration}");
        let wanted = expected(&declaration["symbol"]);
        let text = declaration["text"].as_str().expect("text");
        assert_eq!(written(text, &wanted.name).as_ref(), Some(&wanted), "{text}");
        let place = (declaration["location"]["filePath"].to_string(), declaration["location"]["line"].clone());
        assert!(places.insert(place), "{} shares its place", declaration["symbol"]["fullyQualifiedName"]);
    }
}
