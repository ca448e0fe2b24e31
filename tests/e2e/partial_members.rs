//! A partial method, property or event is two symbols, its declaring part and its implementing part. On the
//! Partials fixture, find_symbol_definition, get_symbol_source and find_implementations give both: a source
//! generator's part (`[GeneratedRegex]` method and property, `[LoggerMessage]`, `[LibraryImport]`) under its
//! virtual path, marked generated with its generator; a part written by hand in its own file.

use crate::support::{Fixture, shared};
use serde_json::{Value, json};

/// Where a partial member's implementing part is.
enum Implemented {
    /// In a document of the generator whose type name ends so.
    By(&'static str),
    /// In this file of the fixture.
    In(&'static str),
}

/// A call of a partial member (file, text at the call), its name, the file declaring it, and its implementation.
struct Case {
    file: &'static str,
    call: &'static str,
    name: &'static str,
    declared_in: &'static str,
    implemented: Implemented,
}

const CASES: [Case; 7] = [
    Case {
        file: "Core/Codes.cs",
        call: "CouponCode().IsMatch",
        name: "Acme.Core.Codes.CouponCode",
        declared_in: "Core/Codes.cs",
        implemented: Implemented::By(".RegexGenerator"),
    },
    Case {
        file: "Core/Codes.cs",
        call: "Digits.IsMatch",
        name: "Acme.Core.Codes.Digits",
        declared_in: "Core/Codes.cs",
        implemented: Implemented::By(".RegexGenerator"),
    },
    Case {
        file: "Core/Checkout.cs",
        call: "Redeemed(logger",
        name: "Acme.Core.Log.Redeemed",
        declared_in: "Core/Log.cs",
        implemented: Implemented::By(".LoggerMessageGenerator"),
    },
    Case {
        file: "Core/Checkout.cs",
        call: "Variable(code)",
        name: "Acme.Core.Native.Variable",
        declared_in: "Core/Native.cs",
        implemented: Implemented::By(".LibraryImportGenerator"),
    },
    Case {
        file: "Core/Pricing.cs",
        call: "Discount(total)}",
        name: "Acme.Core.Pricing.Discount",
        declared_in: "Core/Pricing.cs",
        implemented: Implemented::In("Core/Pricing.Rules.cs"),
    },
    Case {
        file: "Core/Pricing.cs",
        call: "Currency}",
        name: "Acme.Core.Pricing.Currency",
        declared_in: "Core/Pricing.cs",
        implemented: Implemented::In("Core/Pricing.Rules.cs"),
    },
    Case {
        file: "Core/Pricing.cs",
        call: "Repriced +=",
        name: "Acme.Core.Pricing.Repriced",
        declared_in: "Core/Pricing.cs",
        implemented: Implemented::In("Core/Pricing.Rules.cs"),
    },
];

impl Case {
    fn member(&self) -> &'static str {
        self.name.rsplit('.').next().expect("a member name")
    }

    /// Whether a place (a location or a site) is the implementing part's.
    fn implements(&self, fixture: &Fixture, place: &Value) -> bool {
        match self.implemented {
            Implemented::By(generator) => {
                place["generated"] == json!(true)
                    && place["generator"].as_str().is_some_and(|g| g.ends_with(generator))
                    && place["filePath"].as_str().is_some_and(|p| p.starts_with("roslyn-mcp://generated/Core/"))
            }
            Implemented::In(file) => place["filePath"] == json!(fixture.file(file)) && place.get("generated").is_none(),
        }
    }

    /// Whether a place is the declaring part's, in its file.
    fn declares(&self, fixture: &Fixture, place: &Value) -> bool {
        place["filePath"] == json!(fixture.file(self.declared_in)) && place.get("generated").is_none()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_partial_member_answers_both_its_parts() {
    let (fixture, server) = shared::session("Partials").await;
    for case in &CASES {
        let (line, column) = fixture.position_of(case.file, case.call, 0);
        let at = json!({"filePath": fixture.file(case.file), "line": line, "column": column});
        let member = case.member();

        // The definition: the declaring part and the implementing part, each on its line.
        let definition = server.ok("find_symbol_definition", at.clone()).await;
        let locations = definition["locations"].as_array().expect("locations");
        assert_eq!(locations.len(), 2, "{}: {definition}", case.name);
        let declaring = locations.iter().find(|l| case.declares(fixture, l)).expect("the declaring part");
        let declaring_text = declaring["sourceText"].as_str().expect("sourceText");
        assert!(declaring_text.contains("partial") && declaring_text.contains(member), "{declaring_text}");
        let implementing = locations.iter().find(|l| case.implements(fixture, l)).expect("the implementing part");
        let implementing_text = implementing["sourceText"].as_str().expect("sourceText");
        assert!(implementing_text.contains(member), "{}: {implementing_text}", case.name);
        let read = server
            .ok(
                "read_source",
                json!({"path": implementing["filePath"], "startLine": implementing["line"], "lineCount": 1}),
            )
            .await;
        assert_eq!(read["text"].as_str().expect("text").trim(), implementing_text);
        if let Implemented::By(_) = case.implemented {
            assert!(case.declares(fixture, &definition["definitionLocation"]), "the written part first: {definition}");
        }

        // The source: both declarations, the implementing one with its body.
        let sources = server.ok("get_symbol_source", json!({"symbols": [case.name]})).await;
        let declarations = sources["symbols"][0]["declarations"].as_array().expect("declarations");
        assert_eq!(declarations.len(), 2, "{}: {sources}", case.name);
        let written = declarations.iter().find(|d| case.declares(fixture, &d["location"])).expect("the declaring part");
        assert_eq!(written["origin"], json!("file"));
        let body =
            declarations.iter().find(|d| case.implements(fixture, &d["location"])).expect("the implementing part");
        let origin = if let Implemented::By(_) = case.implemented { "generated" } else { "file" };
        assert_eq!(body["origin"], json!(origin));
        assert_eq!(body["location"]["filePath"], implementing["filePath"]);
        let text = body["text"].as_str().expect("text");
        assert!(text.contains(member) && (text.contains('{') || text.contains("=>")), "{}: {text}", case.name);

        // The implementations: the implementing part.
        let implementations = server.ok("find_implementations", at).await;
        let found = implementations["implementations"].as_array().expect("implementations");
        assert_eq!(found.len(), 1, "{}: {implementations}", case.name);
        assert_eq!(found[0]["relation"], json!("Implements"));
        assert!(case.implements(fixture, &found[0]["location"]), "{}: {implementations}", case.name);
        assert_eq!(found[0]["location"]["line"], implementing["line"]);
        assert_eq!(found[0]["id"], definition["symbolInfo"]["id"], "one symbol, two parts");
    }
}
