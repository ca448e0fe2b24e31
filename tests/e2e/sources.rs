//! Source for what has no file, on the Sources fixture (its Widgets library built first and referenced as a
//! DLL with embedded sources): a framework method decompiled from its implementation, the library's own file,
//! a partial type's generated part, generated documents listed and read in pages, several symbols' source at
//! once; and the refusals (outside the roots, through a link, unknown paths and names, bad ranges).

use crate::support::{Fixture, Server};
use serde_json::{Value, json};

const LOGGING_GENERATOR: &str = "Microsoft.Extensions.Logging.Generators.LoggerMessageGenerator";

/// The fixture with `Widgets/bin/Widgets.dll` built, as a package's DLL would be on disk.
fn sources_fixture() -> Fixture {
    let fixture = Fixture::copy("Sources");
    let widgets = fixture.path("Widgets");
    let status = crate::support::builds::dotnet_build()
        .args(["-c", "Release", "-nologo", "-v", "q", "-o"])
        .arg(widgets.join("bin"))
        .arg(&widgets)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("dotnet build runs");
    assert!(status.success(), "the Widgets library builds");
    fixture
}

#[tokio::test(flavor = "multi_thread")]
async fn referenced_assemblies_and_generated_code_read_as_source() {
    let fixture = sources_fixture();
    let server = Server::start(&fixture.root, &[]).await;
    let program = fixture.file("App/Program.cs");
    let at = |needle: &str| {
        let (line, column) = fixture.position_of("App/Program.cs", needle, 0);
        json!({"filePath": program, "line": line, "column": column})
    };

    // JsonSerializer.Serialize: the runtime's implementation decompiled, the method's line in it.
    let serialize = server.ok("find_symbol_definition", at("Serialize(sizes)")).await;
    assert_eq!(serialize["locations"], json!([]));
    let place = &serialize["metadataSource"];
    assert_eq!(place["origin"], json!("decompiled"), "{serialize}");
    let path = place["filePath"].as_str().expect("virtual path");
    assert!(path.starts_with("roslyn-mcp://metadata/System.Text.Json/10.0.0.0/System.Text.Json.JsonSerializer.cs"));
    let line = server.ok("read_source", json!({"path": path, "startLine": place["line"], "lineCount": 1})).await;
    assert_eq!(line["text"].as_str().expect("text").trim(), place["sourceText"].as_str().expect("line"));
    assert!(line["text"].as_str().expect("text").contains("Serialize"));
    assert_eq!(line["origin"], json!("decompiled"));
    assert!(line["assembly"].as_str().expect("assembly").starts_with("System.Text.Json, Version=10.0.0.0"));

    // The Widgets library's PDB embeds its files: the constructor in Widget.cs as written.
    let constructor = server.ok("find_symbol_definition", at("Widget(\"gear\")")).await;
    let place = &constructor["metadataSource"];
    assert_eq!(place["origin"], json!("embeddedSource"));
    assert_eq!(place["filePath"], json!("roslyn-mcp://metadata/Widgets/1.0.0.0/Sources.Widgets.Widget.cs"));
    assert_eq!((place["line"].clone(), place["sourceText"].clone()), (json!(6), json!("public Widget(string name)")));
    let type_definition = server.ok("find_type_definition", at("widget.Area")).await;
    assert_eq!(type_definition["isFromMetadata"], json!(true));
    assert_eq!(type_definition["metadataSource"]["line"], json!(4), "{type_definition}");
    let file = server.ok("read_source", json!({"path": place["filePath"]})).await;
    assert_eq!(file["text"].as_str().expect("text"), fixture.read("Widgets/Widget.cs").trim_end_matches('\n'));
    assert_eq!(file["nextStartLine"], Value::Null);

    // Log is partial: its generated part is a declaration with a virtual path and the generator's name.
    let log = server.ok("get_type_at_position", at("Log.Started")).await;
    let declarations = log["declarations"].as_array().expect("declarations");
    assert_eq!(declarations.len(), 2, "{log}");
    let generated = declarations.iter().find(|d| d["generated"] == json!(true)).expect("the generated part");
    assert_eq!(generated["generator"], json!(LOGGING_GENERATOR));
    let generated_path = generated["filePath"].as_str().expect("virtual path");
    assert!(generated_path.starts_with("roslyn-mcp://generated/App/"), "{generated_path}");
    assert!(generated_path.ends_with(&format!("/{LOGGING_GENERATOR}/LoggerMessage.g.cs")), "{generated_path}");
    assert!(
        declarations.iter().any(|d| d["filePath"] == json!(fixture.file("App/Log.cs")) && d.get("generated").is_none())
    );

    // The generated documents, listed, and one read in pages.
    let listed = server.ok("list_generated_documents", json!({"project": "App"})).await;
    let documents = listed["documents"].as_array().expect("documents");
    let logging = documents
        .iter()
        .find(|d| d["generator"] == json!(LOGGING_GENERATOR))
        .expect("the logging generator's document");
    assert_eq!(logging["path"], json!(generated_path), "the listing and the declaration name it alike");
    let regex = documents
        .iter()
        .find(|d| d["generator"].as_str().is_some_and(|g| g.ends_with(".RegexGenerator")))
        .expect("the regex generator's document");
    assert_eq!(regex["hintName"], json!("RegexGenerator.g.cs"));
    let total = regex["lines"].as_u64().expect("lines");
    let first = server.ok("read_source", json!({"path": regex["path"], "lineCount": 10})).await;
    assert_eq!(
        (first["startLine"].clone(), first["endLine"].clone(), first["nextStartLine"].clone()),
        (json!(1), json!(10), json!(11))
    );
    assert_eq!(first["totalLines"], json!(total));
    assert_eq!(first["origin"], json!("generated"));
    let rest = server.ok("read_source", json!({"path": regex["path"], "startLine": 11, "lineCount": 2000})).await;
    assert_eq!(rest["endLine"], json!(total));
    assert_eq!(rest["nextStartLine"], Value::Null);
    let whole = format!("{}\n{}", first["text"].as_str().expect("text"), rest["text"].as_str().expect("text"));
    assert!(whole.contains("Word"), "the generated regex method");

    // Several symbols at once, each answered by itself.
    let names = json!(["Sources.App.Program.Describe", "Sources.App.Nope", "Sources.Widgets.Widget"]);
    let sources = server.ok("get_symbol_source", json!({"symbols": names, "signaturesOnly": true})).await;
    let entries = sources["symbols"].as_array().expect("symbols");
    assert_eq!(entries[0]["declarations"].as_array().expect("overloads").len(), 2);
    assert_eq!(entries[0]["declarations"][0]["origin"], json!("file"));
    assert_eq!(entries[1]["error"]["code"], json!("SYMBOL_NOT_FOUND"));
    let widget = entries[2]["declarations"][0]["text"].as_str().expect("text");
    assert!(
        widget.contains("public int Area(int width, int height);") && !widget.contains("width * height"),
        "{widget}"
    );
    assert_eq!(entries[2]["declarations"][0]["origin"], json!("embeddedSource"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn reading_source_is_refused_outside_the_roots_and_for_what_does_not_exist() {
    let fixture = sources_fixture();
    let outside = tempfile::tempdir().expect("outside");
    let secret = outside.path().join("Secret.cs");
    std::fs::write(&secret, "class Secret { }\n").expect("secret");
    std::os::unix::fs::symlink(&secret, fixture.path("App/Linked.cs")).expect("App/Linked.cs -> Secret.cs");
    let server = Server::start(&fixture.root, &[]).await;

    for path in [secret.display().to_string(), fixture.file("App/Linked.cs")] {
        let refused = server.fails("read_source", json!({"path": path}), "SOURCE_NOT_IN_WORKSPACE").await;
        assert!(!refused.to_string().contains("class Secret"), "{refused}");
    }
    let unknown = "roslyn-mcp://metadata/Widgets/9.9.9.9/Sources.Widgets.Widget.cs";
    server.fails("read_source", json!({"path": unknown}), "SOURCE_FILE_NOT_FOUND").await;
    // A generator's folder of App with a document it did not write; a project the solution does not have.
    let listed = server.ok("list_generated_documents", json!({"project": "App"})).await;
    let written = listed["documents"][0]["path"].as_str().expect("a generated document's path");
    let missing = format!("{}/Nothing.g.cs", written.rsplit_once('/').expect("a hint name").0);
    server.fails("read_source", json!({"path": missing}), "SOURCE_FILE_NOT_FOUND").await;
    let nope = "roslyn-mcp://generated/Nope/G/x.g.cs";
    server.fails("read_source", json!({"path": nope}), "SOURCE_NOT_IN_WORKSPACE").await;
    let project = fixture.file("App/App.csproj");
    server.fails("read_source", json!({"path": project}), "SOURCE_FILE_NOT_FOUND").await;
    let program = fixture.file("App/Program.cs");
    server.fails("read_source", json!({"path": program, "startLine": 500}), "INVALID_LINE_NUMBER").await;
    server.fails("read_source", json!({"path": program, "startLine": 0}), "INVALID_LINE_NUMBER").await;
    server.fails("read_source", json!({"path": program, "lineCount": 0}), "INVALID_PARAMETER").await;
    server.fails("read_source", json!({"path": program, "lineCount": 2001}), "INVALID_PARAMETER").await;
    server.fails("list_generated_documents", json!({"project": "Nope"}), "PROJECT_NOT_FOUND").await;
    server.fails("get_symbol_source", json!({"symbols": []}), "INVALID_PARAMETER").await;
    server.fails("get_symbol_source", json!({"symbols": [" "]}), "INVALID_PARAMETER").await;
    let program_lines = server.ok("read_source", json!({"path": program, "startLine": 9, "lineCount": 1})).await;
    assert_eq!(program_lines["text"], json!("public static class Program"));
    assert_eq!(program_lines["origin"], json!("file"));
    server.stop().await;
}
