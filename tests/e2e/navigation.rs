//! The navigation tools answer correctly on the Shop fixture (positions from tests/fixtures/Shop/FIXTURE.md).

use crate::support::{Fixture, Server, shared, site, sites};
use serde_json::json;

const PROGRAM: &str = "src/Shop.App/Program.cs";

#[tokio::test(flavor = "multi_thread")]
async fn initialize_workspace_loads_the_solution_and_becomes_the_session_default() {
    let (shop, server) = shared::session("Shop").await;
    let init = server.ok("initialize_workspace", json!({"workingDirectory": shop.root.display().to_string()})).await;
    assert_eq!(init["primarySolution"]["path"], json!(shop.file("Shop.sln")));
    assert_eq!(init["primarySolution"]["name"], json!("Shop"));
    assert_eq!(init["primarySolution"]["projectCount"], json!(3));
    assert_eq!(init["frameworkVersions"], json!(["net10.0"]));
    assert_eq!(init["allSolutions"][0]["projects"], json!(["Shop.App", "Shop.Core", "Shop.Data"]));
    let app = init["projects"].as_array().expect("projects").iter().find(|p| p["name"] == "Shop.App").cloned();
    assert_eq!(app.expect("Shop.App")["projectReferences"], json!(["Shop.Core", "Shop.Data"]));

    // Relative paths now resolve against the workspace root.
    let (line, column) = shop.position_of(PROGRAM, "names =", 0);
    let relative =
        server.ok("get_type_at_position", json!({"filePath": PROGRAM, "line": line, "column": column})).await;
    assert_eq!(relative["symbolName"], json!("List<string>"));
    assert_eq!(relative["resolvedFromSolution"], json!(shop.file("Shop.sln")));
}

#[tokio::test(flavor = "multi_thread")]
async fn type_and_definition_answers_match_the_fixture() {
    let (shop, server) = shared::session("Shop").await;
    let program = shop.file(PROGRAM);

    // A local of a metadata generic type.
    let (line, column) = shop.position_of(PROGRAM, "names =", 0);
    let names = server.ok("get_type_at_position", json!({"filePath": program, "line": line, "column": column})).await;
    assert_eq!(names["symbolName"], json!("List<string>"));
    assert_eq!(names["fullTypeName"], json!("System.Collections.Generic.List<System.String>"));
    assert_eq!(names["namespace"], json!("System.Collections.Generic"));
    assert_eq!(names["isGeneric"], json!(true));
    assert_eq!(names["typeArguments"], json!(["System.String"]));
    assert_eq!(names["symbol"]["kind"], json!("Local"));
    assert_eq!(names["declarations"], json!([]));
    assert!(
        names["interfaces"]
            .as_array()
            .expect("interfaces")
            .contains(&json!("System.Collections.Generic.IList<System.String>"))
    );

    // A source type used in another project.
    let customer = server.ok("get_type_at_position", json!({"filePath": program, "line": 15, "column": 13})).await;
    assert_eq!(customer["fullTypeName"], json!("Shop.Core.Models.Customer"));
    assert_eq!(customer["kind"], json!("Class"));
    assert_eq!(customer["assembly"], json!("Shop.Core"));
    assert_eq!(sites(shop, &customer["declarations"]), vec![site("src/Shop.Core/Models/Customer.cs", 6, 14)]);

    let definition = server.ok("find_symbol_definition", json!({"filePath": program, "line": 15, "column": 13})).await;
    assert_eq!(definition["symbolInfo"]["fullyQualifiedName"], json!("Shop.Core.Models.Customer"));
    assert_eq!(definition["definitionLocation"]["line"], json!(6));
    assert_eq!(definition["definitionLocation"]["column"], json!(14));
    assert_eq!(definition["definitionLocation"]["filePath"], json!(shop.file("src/Shop.Core/Models/Customer.cs")));
    assert_eq!(definition["sourceText"], json!("public class Customer"));

    // A partial class has one declaration per part.
    let order = server.ok("find_symbol_definition", json!({"filePath": program, "line": 27, "column": 29})).await;
    assert_eq!(
        sites(shop, &order["locations"]),
        vec![site("src/Shop.Core/Models/Order.Lines.cs", 5, 22), site("src/Shop.Core/Models/Order.cs", 6, 22)]
    );

    // An extension method resolves to its declaration in another project.
    let shout = server.ok("find_symbol_definition", json!({"filePath": program, "line": 18, "column": 29})).await;
    assert_eq!(sites(shop, &shout["locations"]), vec![site("src/Shop.Core/Extensions/StringExtensions.cs", 5, 26)]);
    assert_eq!(shout["symbolInfo"]["kind"], json!("Method"));

    // Overloads: the call binds to the exact overload.
    let calculate = server.ok("find_symbol_definition", json!({"filePath": program, "line": 22, "column": 42})).await;
    assert_eq!(sites(shop, &calculate["locations"]), vec![site("src/Shop.Core/Services/PriceCalculator.cs", 16, 24)]);

    // A symbol from a referenced assembly is a metadata symbol, never a path outside the workspace.
    let (line, column) = shop.position_of(PROGRAM, "string.Join", 0);
    let join =
        server.ok("find_symbol_definition", json!({"filePath": program, "line": line, "column": column + 7})).await;
    assert_eq!(join["symbolInfo"]["isFromMetadata"], json!(true));
    assert_eq!(join["symbolInfo"]["containingType"], json!("System.String"));
    assert_eq!(join["locations"], json!([]));
    assert!(join.get("definitionLocation").is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn find_references_returns_every_use_across_projects_and_nothing_else() {
    let (shop, server) = shared::session("Shop").await;
    let customer_file = shop.file("src/Shop.Core/Models/Customer.cs");

    let customer = server.ok("find_references", json!({"filePath": customer_file, "line": 6, "column": 14})).await;
    let expected = vec![
        site("src/Shop.App/Program.cs", 14, 32),
        site("src/Shop.App/Program.cs", 15, 13),
        site("src/Shop.App/Reporting/Report.cs", 9, 34),
        site("src/Shop.App/Reporting/Report.cs", 12, 31),
        site("src/Shop.App/Reporting/Report.cs", 20, 18),
        site("src/Shop.Core/Models/Order.cs", 10, 12),
        site("src/Shop.Data/CustomerRepository.cs", 7, 54),
        site("src/Shop.Data/CustomerRepository.cs", 9, 21),
        site("src/Shop.Data/CustomerRepository.cs", 14, 12),
    ];
    assert_eq!(sites(shop, &customer["references"]), expected);
    assert_eq!(customer["totalCount"], json!(9));
    assert_eq!(customer["nextCursor"], json!(null));
    let creation = customer["references"].as_array().expect("references").iter().find(|r| r["line"] == 14).cloned();
    assert_eq!(
        creation.expect("object creation")["lineText"],
        json!("repository.Add(new Customer { Id = 1, Name = \"Ada\" });")
    );

    // Sorted output is stable: the same question gives the same bytes.
    let again = server.ok("find_references", json!({"filePath": customer_file, "line": 6, "column": 14})).await;
    assert_eq!(again.to_string(), customer.to_string());

    let with_declaration = server
        .ok("find_references", json!({"filePath": customer_file, "line": 6, "column": 14, "includeDeclaration": true}))
        .await;
    assert_eq!(with_declaration["totalCount"], json!(10));
    assert!(sites(shop, &with_declaration["references"]).contains(&site("src/Shop.Core/Models/Customer.cs", 6, 14)));

    let page =
        server.ok("find_references", json!({"filePath": customer_file, "line": 6, "column": 14, "pageSize": 2})).await;
    assert_eq!(page["references"].as_array().map(Vec::len), Some(2));
    assert_eq!(page["totalCount"], json!(9));
    assert!(page["nextCursor"].is_string());

    // One overload's references exclude the other overloads' calls.
    let calculator = shop.file("src/Shop.Core/Services/PriceCalculator.cs");
    let calculate = server.ok("find_references", json!({"filePath": calculator, "line": 11, "column": 24})).await;
    assert_eq!(sites(shop, &calculate["references"]), vec![site("src/Shop.App/Program.cs", 21, 41)]);
    assert_eq!(calculate["references"][0]["kind"], json!("Invocation"));

    let repository = shop.file("src/Shop.Core/Services/IRepository.cs");
    let generic = server.ok("find_references", json!({"filePath": repository, "line": 5, "column": 22})).await;
    assert_eq!(
        sites(shop, &generic["references"]),
        vec![
            site("src/Shop.App/Reporting/Report.cs", 9, 22),
            site("src/Shop.App/Reporting/Report.cs", 12, 19),
            site("src/Shop.Data/InMemoryRepository.cs", 6, 38),
        ]
    );
}

/// A file of a multi-targeted project is in one project per framework: each place is found once, always in
/// the project first in ordinal order, so that the same question gets the same bytes, and names the
/// frameworks that see it.
#[tokio::test(flavor = "multi_thread")]
async fn references_in_a_multi_targeted_project_name_the_same_project_every_time() {
    let (multi, server) = shared::session("MultiTarget").await;
    let (line, column) = multi.position_of("Shapes.cs", "Circle", 0);
    let question = json!({"filePath": multi.file("Shapes.cs"), "line": line, "column": column});
    let first = server.ok("find_references", question.clone()).await;
    let references = first["references"].as_array().expect("references");
    assert_eq!(references.len(), 7, "four uses in Drawing.cs and three in Framed.cs, each once: {first}");
    // Seen by both frameworks: the first in ordinal order; seen by net9.0 alone (`#if NET9_0`): that one.
    let projects: Vec<_> = references.iter().map(|r| r["project"].as_str().expect("project")).collect();
    assert_eq!(projects, [["Multi(net10.0)"; 5].as_slice(), &["Multi(net9.0)"; 2]].concat(), "{first}");
    let frameworks: Vec<_> = references.iter().map(|r| r["frameworks"].clone()).collect();
    let both = json!(["net10.0", "net9.0"]);
    assert_eq!(frameworks, [vec![both; 5], vec![json!(["net9.0"]); 2]].concat(), "{first}");
    for _ in 0..10 {
        let again = server.ok("find_references", question.clone()).await;
        assert_eq!(again["references"], first["references"]);
    }
    let definition = server.ok("find_symbol_definition", question).await;
    assert_eq!(definition["locations"].as_array().map(Vec::len), Some(1), "{definition}");
}

/// A place only some target frameworks compile (`#if NET9_0`, disabled text in net10.0, the first project) is
/// resolved in a framework that compiles it.
#[tokio::test(flavor = "multi_thread")]
async fn a_place_one_framework_compiles_resolves_in_that_framework() {
    let (multi, server) = shared::session("MultiTarget").await;
    let at = |text: &str, nth: usize| {
        let (line, column) = multi.position_of("Framed.cs", text, nth);
        json!({"filePath": multi.file("Framed.cs"), "line": line, "column": column})
    };
    let legacy = server.ok("find_symbol_definition", at("Legacy", 0)).await;
    assert_eq!(legacy["symbolInfo"]["fullyQualifiedName"], json!("Multi.Framed.Legacy()"), "{legacy}");
    let circle = server.ok("find_symbol_definition", at("Circle", 1)).await;
    assert_eq!(circle["symbolInfo"]["fullyQualifiedName"], json!("Multi.Circle"), "{circle}");
    let references = server.ok("find_references", at("Legacy", 0)).await;
    assert_eq!(references["references"], json!([]), "declared, never called: {references}");
}

/// A referenced type is read from the assembly that defines it: `mscorlib` 4.0.0.0 of net462, not the facade
/// of the same identity in netstandard2.0's references, which only forwards it.
#[tokio::test(flavor = "multi_thread")]
async fn a_framework_type_is_read_where_it_is_defined_not_from_a_facade_of_its_name() {
    let (facade, server) = shared::session("Facade").await;
    let at = json!({"filePath": facade.file("Lookup.cs"), "line": 7, "column": 76});
    let definition = server.ok("find_symbol_definition", at).await;
    assert_eq!(definition["symbolInfo"]["assembly"], json!("mscorlib"), "{definition}");
    let place = &definition["metadataSource"];
    assert_eq!(
        place["filePath"],
        json!("roslyn-mcp://metadata/mscorlib/4.0.0.0/System.Collections.Generic.Dictionary`2.cs"),
        "{definition}"
    );
    assert!(place["sourceText"].as_str().is_some_and(|t| t.contains("ContainsKey(TKey key)")), "{definition}");
}

/// At a deconstruction's target, the definition is what the name assigns (a field), as an IDE answers, not
/// the tuple's element.
#[tokio::test(flavor = "multi_thread")]
async fn a_deconstruction_target_is_defined_where_its_field_is() {
    let (fixture, server) = shared::session("Rename").await;
    let pair = fixture.file("Core/Traps/Pair.cs");
    let definition = server.ok("find_symbol_definition", json!({"filePath": pair, "line": 8, "column": 28})).await;
    assert_eq!(definition["symbolInfo"]["fullyQualifiedName"], json!("Rename.Core.Traps.Pair._left"), "{definition}");
    let locations = definition["locations"].as_array().expect("locations");
    assert_eq!((locations[0]["line"].clone(), locations[0]["column"].clone()), (json!(5), json!(17)), "{definition}");
}

/// A file of a project that is loaded is answered by it: the solution found above the file is loaded only
/// when asked for by solutionPath.
#[tokio::test(flavor = "multi_thread")]
async fn a_file_of_a_loaded_project_does_not_load_the_solution_above_it() {
    let shop = Fixture::copy("Shop");
    let server = Server::start(&shop.root, &[]).await;
    let core = shop.file("src/Shop.Core/Shop.Core.csproj");
    // The session works in one project's folder; Shop.sln stands above it.
    let init = server.ok("initialize_workspace", json!({"workingDirectory": shop.file("src/Shop.Core")})).await;
    assert_eq!(init["primarySolution"]["path"], json!(core), "{init}");
    let question = json!({"filePath": shop.file("src/Shop.Core/Models/Customer.cs"), "line": 6, "column": 14});
    let found = server.ok("find_references", question.clone()).await;
    assert_eq!(found["resolvedFromSolution"], json!(core));
    let loaded = |diagnose: &serde_json::Value| diagnose["workspaces"].as_array().expect("workspaces").len();
    assert_eq!(loaded(&server.ok("diagnose", json!({})).await), 1, "Shop.sln above the file was not loaded");

    let mut asked = question;
    asked["solutionPath"] = json!(shop.file("Shop.sln"));
    let found = server.ok("find_references", asked).await;
    assert_eq!(found["resolvedFromSolution"], json!(shop.file("Shop.sln")));
    assert_eq!(loaded(&server.ok("diagnose", json!({})).await), 2);
    server.stop().await;
}

/// A project's target frameworks as MSBuild evaluates them, even when a property sets them.
#[tokio::test(flavor = "multi_thread")]
async fn initialize_workspace_lists_every_target_framework_of_a_multi_targeted_project() {
    let (multi, server) = shared::session("MultiTarget").await;
    let init = server.ok("initialize_workspace", json!({"workingDirectory": multi.root.display().to_string()})).await;
    assert_eq!(init["frameworkVersions"], json!(["net10.0", "net9.0"]), "{init}");
    let projects = init["projects"].as_array().expect("projects");
    assert!(!projects.is_empty());
    for project in projects {
        assert_eq!(project["targetFrameworks"], json!(["net10.0", "net9.0"]), "{init}");
    }
}
