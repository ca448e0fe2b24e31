//! get_public_api and compare_public_api on the Layout fixture made a git repository: the surface as lines and
//! items, paged; against the committed revision after edits on disk, the removed, changed and added members
//! with what breaks; an unknown revision refused. Nothing is checked out or written.

use crate::support::{Fixture, Server, assert_same_tree, git, tree};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_public_api_is_listed_and_compared_with_a_revision_compiled_in_memory() {
    let fixture = Fixture::copy("Layout");
    git(&fixture.root, &["init", "-q"]);
    git(&fixture.root, &["add", "-A"]);
    git(&fixture.root, &["commit", "-q", "-m", "fixture"]);
    let server = Server::start(&fixture.root, &[]).await;

    let api = server.ok("get_public_api", json!({"project": "Core"})).await;
    assert_eq!(api["framework"], json!("net10.0"));
    let text = api["text"].as_str().expect("text");
    assert!(text.contains("const Layout.Core.Limits.MaxTokens = 1000 -> int\n"), "{text}");
    let total = api["totalCount"].as_u64().expect("total");
    let first = server.ok("get_public_api", json!({"project": "Core", "pageSize": 5})).await;
    let rest =
        server.ok("get_public_api", json!({"project": "Core", "pageSize": 100, "cursor": first["nextCursor"]})).await;
    assert_eq!(5 + rest["members"].as_array().expect("members").len() as u64, total);

    // On disk: a constant retyped, a method gone, a property added, an abstract member added to a new type.
    let limits = fixture.read("Core/Limits.cs").replace("public const int MaxTokens", "public const long MaxTokens");
    std::fs::write(fixture.path("Core/Limits.cs"), limits).expect("edit");
    let lexer = fixture.read("Core/Parsing/Lexer.cs");
    let without_word_count = lexer[..lexer.find("#if NET10_0").expect("the #if")].to_owned() + "}\n";
    std::fs::write(fixture.path("Core/Parsing/Lexer.cs"), without_word_count).expect("edit");
    std::fs::write(
        fixture.path("Core/Shape.cs"),
        "namespace Layout.Core;\n\npublic abstract class Shape\n{\n    public abstract double Area();\n}\n",
    )
    .expect("new file");
    let before = tree(&fixture.root);
    let since =
        server.ok("compare_public_api", json!({"project": fixture.file("Core/Core.csproj"), "since": "HEAD"})).await;
    assert_same_tree(&before, &fixture.root, "nothing is checked out or written");
    let ids = |list: &str| -> Vec<String> {
        since[list].as_array().expect(list).iter().map(|c| c["id"].as_str().expect("id").to_owned()).collect()
    };
    assert_eq!(ids("removed"), ["M:Layout.Core.Parsing.Lexer.WordCount(System.String)"], "{since}");
    assert_eq!(ids("changed"), ["F:Layout.Core.Limits.MaxTokens"], "{since}");
    assert_eq!(since["changed"][0]["oldLine"], json!("const Layout.Core.Limits.MaxTokens = 1000 -> int"));
    assert_eq!(since["changed"][0]["newLine"], json!("const Layout.Core.Limits.MaxTokens = 1000 -> long"));
    assert!(ids("added").contains(&"M:Layout.Core.Shape.Area".to_owned()), "{since}");
    assert_eq!(since["breakingCount"], json!(2), "the new type's abstract member breaks nobody: {since}");
    assert_eq!(since["sinceCommit"].as_str().expect("commit").len(), 40);

    let unknown = json!({"project": "Core", "since": "no-such-branch"});
    server.fails("compare_public_api", unknown, "REVISION_NOT_FOUND").await;
    let option = json!({"project": "Core", "since": "--output=/tmp/x"});
    server.fails("compare_public_api", option, "REVISION_NOT_FOUND").await;
    server.fails("get_public_api", json!({"project": "Nope"}), "PROJECT_NOT_FOUND").await;
    server.stop().await;
}
