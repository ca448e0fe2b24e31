//! Generated documents named and gated by their project's path, never by a project name alone. The attack,
//! on the GeneratedTwins fixture: the workspace's project `Lib` references a project also named `Lib` outside
//! the roots, whose source generator writes `outsidesecret`; a client asks for that document by the name
//! both share, by the outside project file's id, and for the symbol it declares.

use crate::support::{Fixture, Server};
use serde_json::json;
use sha2::{Digest, Sha256};

/// What the outside project's generated document says, and nothing inside does.
const SECRET: &str = "outsidesecret";

/// The id a generated path gives the project file at `path`, as the format documents it.
fn project_id(path: &str) -> String {
    hex::encode(Sha256::digest(path.as_bytes()))[..16].to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_outside_project_of_the_same_name_does_not_lend_its_generated_documents() {
    let fixture = Fixture::copy("GeneratedTwins");
    let server = Server::start(&fixture.path("ws"), &[]).await;
    let inside = fixture.file("ws/Lib/Lib.csproj");

    // Only the inside project's document is listed, under a path naming its project file.
    let listed = server.ok("list_generated_documents", json!({"project": "Lib"})).await;
    let documents = listed["documents"].as_array().expect("documents");
    assert_eq!(documents.len(), 1, "{listed}");
    assert_eq!(listed["omittedOutsideRoots"], json!(1), "the outside Lib's document is counted: {listed}");
    let document = &documents[0];
    assert_eq!(document["project"], json!(inside));
    let generator = document["generator"].as_str().expect("generator");
    let path = format!("roslyn-mcp://generated/Lib/{}/{generator}/RegexGenerator.g.cs", project_id(&inside));
    assert_eq!(document["path"], json!(path));

    // It reads, and a declaration in it has the same path.
    let read = server.ok("read_source", json!({"path": path})).await;
    assert!(read["text"].as_str().expect("text").contains("insideword"), "{read}");
    assert!(!read.to_string().contains(SECRET));
    let patterns = server.ok("get_symbol_source", json!({"symbols": ["Twins.Inside.Patterns"]})).await;
    let declarations = patterns["symbols"][0]["declarations"].as_array().expect("declarations");
    let generated = declarations.iter().find(|d| d["origin"] == json!("generated")).expect("the generated part");
    assert_eq!(generated["location"]["filePath"], json!(path), "{patterns}");

    // The outside document: by the name both projects share (the path a name-based scheme gave it), and by
    // the outside project file's id.
    let outside = fixture.file("outside/Lib/Lib.csproj");
    for path in [
        format!("roslyn-mcp://generated/Lib/{generator}/RegexGenerator.g.cs"),
        format!("roslyn-mcp://generated/Lib/{}/{generator}/RegexGenerator.g.cs", project_id(&outside)),
    ] {
        let answer = server.call("read_source", json!({"path": path})).await.value;
        assert_eq!(answer["error"]["code"], json!("SOURCE_NOT_IN_WORKSPACE"), "{path}: {answer}");
        assert!(!answer.to_string().contains(SECRET), "{path} leaked the outside text: {answer}");
    }

    // The outside type's source: its file and its generated part are both outside.
    let secrets = server.ok("get_symbol_source", json!({"symbols": ["Twins.Outside.Secrets"]})).await;
    let entry = &secrets["symbols"][0];
    assert_eq!(entry["declarations"], json!([]), "{secrets}");
    assert_eq!(entry["error"]["code"], json!("SOURCE_NOT_IN_WORKSPACE"), "{secrets}");
    assert_eq!(secrets["omittedOutsideRoots"], json!(2), "the file and the generated part: {secrets}");
    assert!(!secrets.to_string().contains(SECRET), "{secrets}");
    server.stop().await;
}
