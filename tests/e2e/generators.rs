//! A fresh clone whose projects take a source generator from a project of the repository (the Generated
//! fixture, copied restored but not built, as `git clone` and `dotnet restore` leave it): searches answer, the
//! generator is built by the service in its own copy (the user's tree gets no `bin/`) so that the code it
//! writes resolves, and it is built again when its sources change; with the build off, or failing, every
//! answer says what is missing and why, and nothing fails on it.

use crate::rebase::Shared;
use crate::support::{Fixture, Outcome, Part, Server, dotnet_build_errors, eventually, files, kill9};
use serde_json::{Value, json};
use std::time::Duration;

const FORECAST: &str = "Client/Forecast.cs";
const GENERATOR: &str = "Stubs/StubGenerator.cs";
const LOOKUP: &str = "Client/Lookup.cs";

fn at(fixture: &Fixture, file: &str, needle: &str) -> Value {
    let (line, column) = fixture.position_of(file, needle, 0);
    json!({"filePath": fixture.file(file), "line": line, "column": column})
}

/// The files of the places an answer lists, generated ones by their virtual path.
fn files_of(places: &Value) -> Vec<String> {
    places.as_array().expect("places").iter().map(|p| p["filePath"].as_str().expect("filePath").to_owned()).collect()
}

/// The files under the projects' `bin/` folders.
fn built_files(fixture: &Fixture) -> Vec<String> {
    files(&fixture.root, Part::BuildOutput).into_keys().collect()
}

async fn references_of_send(server: &Server, fixture: &Fixture) -> Outcome {
    let outcome = server.call("find_references", at(fixture, "Core/Rest.cs", "Send(string")).await;
    assert!(!outcome.is_error, "find_references: {}", outcome.value);
    outcome
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fresh_clone_answers_with_the_code_its_own_generator_writes_built_in_the_services_copy() {
    let fixture = Fixture::copy("Generated");
    assert_eq!(built_files(&fixture), Vec::<String>::new(), "a fresh clone: nothing is built");
    let server = Server::start(&fixture.root, &[]).await;

    // Rest.Send is called by Forecast.Direct, Lookup.Sent and the stub the generator writes.
    let references = references_of_send(&server, &fixture).await;
    let places = files_of(&references.value["references"]);
    assert!(places.contains(&fixture.file(FORECAST)), "{}", references.value);
    assert!(places.iter().any(|p| p.starts_with("roslyn-mcp://generated/Client/")), "{}", references.value);
    assert_eq!(references.notices, Vec::<String>::new(), "the generator runs: nothing to say");

    // A call of a generated method resolves to the generated document.
    let create = server.ok("find_symbol_definition", at(&fixture, FORECAST, "CreateWeather")).await;
    assert!(files_of(&create["locations"]).iter().any(|p| p.ends_with("/StubFactory.g.cs")), "{create}");
    // And navigation goes on from the generator's output, asked by its virtual path: the stub's call of Rest.Send
    // leads to the declaration, and its references are the same.
    let stub = references.value["references"]
        .as_array()
        .expect("references")
        .iter()
        .find(|r| r["filePath"].as_str().is_some_and(|p| p.starts_with("roslyn-mcp://generated/Client/")));
    let stub = stub.expect("a generated place");
    let from = json!({"filePath": stub["filePath"], "line": stub["line"], "column": stub["column"]});
    let send = server.ok("find_symbol_definition", from.clone()).await;
    assert_eq!(files_of(&send["locations"]), vec![fixture.file("Core/Rest.cs")], "{send}");
    let again = server.ok("find_references", from).await;
    assert_eq!(files_of(&again["references"]), places, "{again}");
    // A virtual path whose project id names no project inside the roots is refused, as an outside file is.
    let path = stub["filePath"].as_str().expect("path");
    let mut parts: Vec<&str> = path.split('/').collect();
    parts[4] = "0000000000000000";
    let forged = json!({"filePath": parts.join("/"), "line": stub["line"], "column": stub["column"]});
    server.fails("find_symbol_definition", forged, "SOURCE_NOT_IN_WORKSPACE").await;
    // Diagnostics agree with the build: the generator's project also has a suppressor (Rest.Send takes null),
    // which hides the CS8604 of Lookup.Sent and leaves Lookup.Length's, in a file's and in a project's answer.
    for scope in [json!({"filePath": fixture.file(LOOKUP)}), json!({"project": "Client"})] {
        let diagnostics = server.ok("get_compilation_diagnostics", scope.clone()).await;
        let null_arguments: Vec<Value> = diagnostics["files"]
            .as_array()
            .expect("files")
            .iter()
            .flat_map(|f| f["diagnostics"].as_array().expect("diagnostics").clone())
            .filter(|d| d["code"] == "CS8604")
            .map(|d| d["location"]["line"].clone())
            .collect();
        assert_eq!(null_arguments, [json!(9)], "{scope}: {diagnostics}");
    }
    let implementations = server.ok("find_implementations", at(&fixture, "Client/IWeather.cs", "IWeather")).await;
    assert!(implementations.to_string().contains("WeatherStub"), "{implementations}");
    let rename = at(&fixture, "Client/IWeather.cs", "Today");
    let mut arguments = rename.clone();
    arguments["newName"] = json!("Now");
    arguments["preview"] = json!(true);
    let preview = server.ok("rename_symbol", arguments).await;
    assert!(preview["planId"].is_string(), "{preview}");

    // Built in the service's copy: the repository's tree has no build output (the load's design-time build
    // makes the output folders, empty).
    assert_eq!(built_files(&fixture), Vec::<String>::new());
    let diagnose = server.ok("diagnose", json!({"solutionPath": fixture.file("Generated.slnx")})).await;
    let generator = &diagnose["workspaces"][0]["generators"][0];
    assert_eq!(
        (generator["name"].clone(), generator["state"].clone()),
        (json!("Stubs"), json!("current")),
        "{diagnose}"
    );
    assert_eq!(generator["consumers"], json!(["Client"]));
    assert!(generator["build"].as_str().is_some_and(|b| b.contains("copy")), "{diagnose}");

    // The generator's sources change: it is built again, and the method it now writes resolves.
    let source = fixture.read(GENERATOR).replace("Prefix = \"Create\"", "Prefix = \"Make\"");
    std::fs::write(fixture.path(GENERATOR), source).expect("edit the generator");
    let later = "namespace Generated.Client\n{\n    public static class Later\n    {\n        public static string Noon() => StubFactory.MakeWeather().Today();\n    }\n}\n";
    std::fs::write(fixture.path("Client/Later.cs"), later).expect("a new caller");
    let make = eventually(Duration::from_secs(180), || async {
        let outcome = server.call("find_symbol_definition", at(&fixture, "Client/Later.cs", "MakeWeather")).await;
        (!outcome.is_error).then_some(outcome.value)
    })
    .await
    .expect("the rebuilt generator's method resolves");
    assert!(files_of(&make["locations"]).iter().any(|p| p.ends_with("/StubFactory.g.cs")), "{make}");
    assert_eq!(built_files(&fixture), Vec::<String>::new(), "rebuilt in the copy too");

    // A host that dies is replaced; the new one is given the build made for these sources, not a new build.
    let builds = || std::fs::read_to_string(&server.log).expect("the service's log").matches("generator built").count();
    assert_eq!(builds(), 2, "built at the load and after the edit");
    let status = server.workspace_status(&fixture.path("Generated.slnx")).await.expect("the workspace");
    kill9(status["hostPid"].as_u64().expect("host pid") as u32);
    let noticed = eventually(Duration::from_secs(30), || async {
        let status = server.workspace_status(&fixture.path("Generated.slnx")).await?;
        (status["hostRestarts"] == json!(1)).then_some(())
    });
    noticed.await.expect("the host's death is noticed");
    let again = server.ok("find_symbol_definition", at(&fixture, "Client/Later.cs", "MakeWeather")).await;
    assert!(files_of(&again["locations"]).iter().any(|p| p.ends_with("/StubFactory.g.cs")), "{again}");
    let status = server.workspace_status(&fixture.path("Generated.slnx")).await.expect("the workspace");
    assert_eq!(status["hostRestarts"], json!(1), "{status}");
    assert_eq!(status["generators"][0]["state"], json!("current"), "{status}");
    assert_eq!(builds(), 2, "no new build");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_generator_builds_off_every_answer_says_what_is_missing_and_searches_still_answer() {
    let fixture = Fixture::copy("Generated");
    let server = Server::start(&fixture.root, &["--generator-build", "off"]).await;

    // The search that failed on the whole solution answers; the generated call site is missing, and it says so.
    let references = references_of_send(&server, &fixture).await;
    let files = files_of(&references.value["references"]);
    assert_eq!(files, vec![fixture.file(FORECAST), fixture.file(LOOKUP)], "{}", references.value);
    let [notice] = references.notices.as_slice() else { panic!("one notice: {:?}", references.notices) };
    assert!(notice.contains("Generator Stubs") && notice.contains("is not built"), "{notice}");
    assert!(notice.contains("missing from Client") && notice.contains("generator_build = off"), "{notice}");
    assert!(notice.contains("dotnet build") && notice.contains("Stubs.csproj"), "{notice}");

    // What the generator would write does not exist; the failure says why.
    let missing = server.call("find_symbol_definition", at(&fixture, FORECAST, "CreateWeather")).await;
    assert!(missing.is_error, "{}", missing.value);
    assert_eq!(missing.value["error"]["code"], json!("SYMBOL_NOT_FOUND"));
    assert_eq!(missing.value["error"]["details"]["notices"], json!([notice]), "{}", missing.value);
    let diagnostics = server.ok("get_compilation_diagnostics", json!({"filePath": fixture.file(FORECAST)})).await;
    assert!(diagnostics.to_string().contains("StubFactory"), "the missing type is a compiler error: {diagnostics}");

    let diagnose = server.ok("diagnose", json!({"solutionPath": fixture.file("Generated.slnx")})).await;
    assert_eq!(diagnose["workspaces"][0]["generators"][0]["state"], json!("missing"), "{diagnose}");
    assert_eq!(built_files(&fixture), Vec::<String>::new(), "nothing was built");
    assert!(server.logs("generator Stubs is not built", Duration::from_secs(5)).await, "the load's log names it");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_generator_that_does_not_build_is_named_with_its_first_error_and_nothing_fails() {
    let fixture = Fixture::copy("Generated");
    let broken = fixture.read(GENERATOR).replace("public const string Prefix", "public const string Prefix Prefix");
    std::fs::write(fixture.path(GENERATOR), broken).expect("break the generator");
    let server = Server::start(&fixture.root, &[]).await;

    let references = references_of_send(&server, &fixture).await;
    let [notice] = references.notices.as_slice() else { panic!("one notice: {:?}", references.notices) };
    assert!(notice.contains("is not built") && notice.contains("failed"), "{notice}");
    // The compiler's first error, at its place in the repository's file (not the service's copy).
    let place = format!("{}(", fixture.file(GENERATOR));
    assert!(notice.contains(&place) && notice.contains(": CS"), "{notice}");
}

#[tokio::test(flavor = "multi_thread")]
async fn in_place_the_generator_is_built_into_its_own_bin_as_dotnet_build_there_would() {
    let fixture = Fixture::copy("Generated");
    let server = Server::start(&fixture.root, &["--generator-build", "in-place"]).await;

    let create = server.ok("find_symbol_definition", at(&fixture, FORECAST, "CreateWeather")).await;
    assert!(files_of(&create["locations"]).iter().any(|p| p.ends_with("/StubFactory.g.cs")), "{create}");
    let built = built_files(&fixture);
    assert!(built.contains(&"Stubs/bin/Debug/netstandard2.0/Stubs.dll".to_owned()), "{built:?}");
    assert!(built.iter().all(|file| file.starts_with("Stubs/")), "only the generator project is built: {built:?}");
    let diagnose = server.ok("diagnose", json!({"solutionPath": fixture.file("Generated.slnx")})).await;
    let generator = &diagnose["workspaces"][0]["generators"][0];
    assert_eq!(generator["state"], json!("current"), "{diagnose}");
    assert!(generator["build"].as_str().is_some_and(|b| b.contains("where the project is")), "{diagnose}");
}

/// Two sessions over the shared daemon each preview a rename; then, with no pause, the generator's sources change
/// (its rebuild starts) and a file using both old names and the generated code is written; both plans are
/// applied at the same moment. Both renames reach the new file, the generator's new build is taken, and the
/// solution builds.
#[tokio::test(flavor = "multi_thread")]
async fn two_sessions_apply_renames_while_the_generator_is_rebuilt_and_the_solution_builds() {
    let shared = Shared::start_on(Fixture::copy("Generated"), 2, &[]).await;
    let fixture = &shared.shop;
    let rename = |needle: &str, new_name: &str| {
        let mut arguments = at(fixture, FORECAST, needle);
        arguments["newName"] = json!(new_name);
        arguments["preview"] = json!(true);
        arguments
    };
    let (morning, direct) = futures::join!(
        shared.sessions[0].ok("rename_symbol", rename("Morning", "Dawn")),
        shared.sessions[1].ok("rename_symbol", rename("Direct", "Plain"))
    );
    let solution = fixture.path("Generated.slnx");
    let status = shared.sessions[0].workspace_status(&solution).await.expect("the workspace");
    let first_build = status["generators"][0]["built"].clone();
    assert!(first_build.as_str().is_some_and(|b| !b.is_empty()), "{status}");
    let generator = fixture.read(GENERATOR).replace("Rest.Send(\\\"{method.Name}", "Rest.Send(\\\"stub {method.Name}");
    assert_ne!(generator, fixture.read(GENERATOR), "the generator's source changes");
    std::fs::write(fixture.path(GENERATOR), generator).expect("edit the generator");
    let both = "namespace Generated.Client\n{\n    public static class Both\n    {\n        public static string All() => Forecast.Morning() + Forecast.Direct() + StubFactory.CreateWeather().Today();\n    }\n}\n";
    std::fs::write(fixture.path("Client/Both.cs"), both).expect("a file using both");
    futures::join!(
        shared.sessions[0].ok("apply_plan", json!({"planId": morning["planId"]})),
        shared.sessions[1].ok("apply_plan", json!({"planId": direct["planId"]}))
    );
    let text = fixture.read("Client/Both.cs");
    assert!(text.contains("Forecast.Dawn() + Forecast.Plain()"), "both renames reached the new file: {text}");
    let rebuilt = eventually(Duration::from_secs(180), || async {
        let status = shared.sessions[0].workspace_status(&solution).await?;
        let generator = &status["generators"][0];
        // Another content, so another folder: the new build.
        (generator["state"] == json!("current") && generator["built"] != first_build).then_some(())
    });
    rebuilt.await.expect("the generator's new build is taken");
    let generated = shared.sessions[0].ok("find_references", at(fixture, "Core/Rest.cs", "Send(string")).await;
    assert!(generated.to_string().contains("roslyn-mcp://generated/"), "{generated}");
    assert_eq!(dotnet_build_errors(&solution).await, 0, "the solution builds");
    shared.stop().await;
}
