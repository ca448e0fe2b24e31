//! get_project_graph on the Layout fixture, with a project outside the roots added to its solution: each
//! project file once with what it names and what depends on it, the references no code names, paging, and
//! the outside project left out of every list and counted.

use crate::support::{Fixture, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_graph_names_each_project_its_references_and_dependents_and_leaves_out_what_lies_outside_the_roots() {
    let fixture = Fixture::copy("Layout");
    let outside = fixture.root.parent().expect("the copy's folder").join("Outside");
    std::fs::create_dir_all(&outside).expect("folder");
    std::fs::write(
        outside.join("Outside.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n    <ProjectReference Include=\"../Layout/Core/Core.csproj\" />\n  </ItemGroup>\n</Project>\n",
    )
    .expect("project");
    std::fs::write(outside.join("Uses.cs"), "namespace Outside;\n\npublic static class Uses\n{\n    public static int Max => Layout.Core.Limits.MaxTokens;\n}\n").expect("code");
    let solution = fixture.path("Layout.slnx");
    let text = std::fs::read_to_string(&solution)
        .expect("read")
        .replace("</Solution>", "  <Project Path=\"../Outside/Outside.csproj\" />\n</Solution>");
    std::fs::write(&solution, text).expect("write");
    let restored =
        std::process::Command::new("dotnet").args(["restore", "-v", "q"]).arg(&solution).status().expect("restore");
    assert!(restored.success());
    let server = Server::start(&fixture.root, &[]).await;

    let graph = server.ok("get_project_graph", json!({})).await;
    let names: Vec<_> = graph["projects"].as_array().expect("projects").iter().map(|p| p["name"].clone()).collect();
    assert_eq!(names, [json!("Core"), json!("Extra"), json!("Listed"), json!("Tools")], "{graph}");
    let core = &graph["projects"][0];
    assert_eq!(core["targetFrameworks"], json!(["net10.0", "net9.0"]));
    assert_eq!(
        core["dependents"],
        json!([fixture.file("Tools/Tools.csproj")]),
        "Outside depends on Core, outside the roots"
    );
    assert!(
        graph["omittedOutsideRoots"].as_u64().expect("count") >= 2,
        "the project and its place among Core's dependents: {graph}"
    );
    assert_eq!(
        graph["projects"][1]["packages"],
        json!([{"name": "Microsoft.Extensions.Logging.Abstractions", "version": "10.0.0"}])
    );
    assert!(!graph.to_string().contains("/Outside/"), "{graph}");
    assert_eq!(graph["unused"], json!([]));

    let first = server.ok("get_project_graph", json!({"unused": true, "pageSize": 3})).await;
    assert_eq!(first["projects"].as_array().expect("page").len(), 3);
    let second =
        server.ok("get_project_graph", json!({"unused": true, "pageSize": 3, "cursor": first["nextCursor"]})).await;
    assert_eq!(second["projects"][0]["name"], json!("Tools"));
    assert_eq!(second["nextCursor"], json!(null));
    assert_eq!(second["unused"], first["unused"], "the candidates come with every page");
    let candidates: Vec<_> = first["unused"]
        .as_array()
        .expect("unused")
        .iter()
        .map(|u| (u["kind"].clone(), u["reference"].clone()))
        .collect();
    assert_eq!(
        candidates,
        [
            (json!("package"), json!("Microsoft.Extensions.Logging.Abstractions")),
            (json!("project"), json!(fixture.file("Extra/Extra.csproj")))
        ]
    );

    let tools = server.ok("get_project_graph", json!({"project": "Tools"})).await;
    assert_eq!(tools["projects"][0]["dependencies"], json!([fixture.file("Core/Core.csproj")]));
    assert_eq!(tools["projects"][0]["outputKind"], json!("exe"));
    server.fails("get_project_graph", json!({"project": "Nope"}), "PROJECT_NOT_FOUND").await;
    server.stop().await;
}
