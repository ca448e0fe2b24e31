//! The navigation catalog answers correctly on the Shop fixture (positions from tests/fixtures/Shop/FIXTURE.md):
//! members, overloads, implementations, hierarchies, calls, type definitions, document and workspace symbols,
//! snippet analysis, diagnostics by project.

use crate::support::{shared, site, sites};
use serde_json::{Value, json};

const PROGRAM: &str = "src/Shop.App/Program.cs";
const CALCULATOR: &str = "src/Shop.Core/Services/PriceCalculator.cs";
const GREETER: &str = "src/Shop.Core/Services/Greeter.cs";

fn names(list: &Value, field: &str) -> Vec<String> {
    list.as_array().expect("list").iter().map(|item| item[field].as_str().expect(field).to_owned()).collect()
}

fn only<'a>(list: &'a Value, field: &str, value: &str) -> &'a Value {
    let found: Vec<&Value> = list.as_array().expect("list").iter().filter(|item| item[field] == json!(value)).collect();
    assert_eq!(found.len(), 1, "{field} = {value} in {list}");
    found[0]
}

#[tokio::test(flavor = "multi_thread")]
async fn members_and_overloads_match_the_fixture() {
    let (shop, server) = shared::session("Shop").await;
    let program = shop.file(PROGRAM);

    // `found` is a Customer: its properties and object's public methods, no protected MemberwiseClone.
    let (line, column) = shop.position_of(PROGRAM, "found =", 0);
    let at = json!({"filePath": program, "line": line, "column": column, "includeStatic": false});
    let customer = server.ok("get_available_members", at).await;
    assert_eq!(customer["receiverType"]["fullyQualifiedName"], json!("Shop.Core.Models.Customer"));
    assert_eq!(
        names(&customer["members"], "name"),
        ["Email", "Equals", "GetHashCode", "GetType", "Id", "Name", "ToString"]
    );
    assert_eq!((customer["totalCount"].clone(), customer["filteredCount"].clone()), (json!(7), json!(7)));
    let name = only(&customer["members"], "name", "Name");
    assert_eq!(name["kind"], json!("Property"));
    assert_eq!(name["returnType"], json!("string"));
    assert_eq!(name["documentation"], json!("The display name of the customer."));
    assert_eq!(name["accessibility"], json!("public"));
    assert_eq!(name["declaringType"], json!("Shop.Core.Models.Customer"));
    assert_eq!(sites(shop, &json!([name["location"]])), vec![site("src/Shop.Core/Models/Customer.cs", 16, 19)]);
    assert!(name["id"].as_str().expect("id").starts_with("sha256:"));
    let with_static =
        server.ok("get_available_members", json!({"filePath": program, "line": line, "column": column})).await;
    assert!(names(&with_static["members"], "name").contains(&"ReferenceEquals".to_owned()));

    // A string in a file that imports Shop.Core.Extensions: its extension methods come and go with the flag.
    let (line, column) = shop.position_of(PROGRAM, "greeting =", 0);
    let shout = server
        .ok("get_available_members", json!({"filePath": program, "line": line, "column": column, "filter": "sH"}))
        .await;
    assert_eq!(names(&shout["members"], "name"), ["Shout"]);
    assert_eq!(shout["filteredCount"], json!(1));
    assert!(shout["totalCount"].as_u64().expect("total") > 50, "{shout}");
    let shout = &shout["members"][0];
    assert_eq!((shout["isExtension"].clone(), shout["isStatic"].clone()), (json!(true), json!(false)));
    assert_eq!(shout["declaringType"], json!("Shop.Core.Extensions.StringExtensions"));
    assert_eq!(
        sites(shop, &json!([shout["location"]])),
        vec![site("src/Shop.Core/Extensions/StringExtensions.cs", 5, 26)]
    );
    let without = server
        .ok(
            "get_available_members",
            json!({"filePath": program, "line": line, "column": column, "filter": "sh", "includeExtensionMethods": false}),
        )
        .await;
    assert_eq!((without["members"].clone(), without["filteredCount"].clone()), (json!([]), json!(0)));

    // The three Calculate overloads, from a call site.
    let overloads = server.ok("get_method_overloads", json!({"filePath": program, "line": 21, "column": 41})).await;
    assert_eq!(overloads["count"], json!(3));
    assert_eq!(
        overloads["method"]["fullyQualifiedName"],
        json!("Shop.Core.Services.PriceCalculator.Calculate(decimal)")
    );
    let parameters: Vec<Vec<String>> =
        overloads["overloads"].as_array().expect("overloads").iter().map(|o| names(&o["parameters"], "type")).collect();
    assert_eq!(parameters.iter().map(Vec::len).collect::<Vec<_>>(), [1, 1, 2]);
    // Sorted by parameter count, then signature (ordinal: `Order` before `decimal`).
    assert!(parameters[0][0].ends_with("Order"), "{parameters:?}");
    assert_eq!((parameters[1][0].as_str(), parameters[2][1].as_str()), ("decimal", "int"));
    let declared: Vec<_> =
        overloads["overloads"].as_array().expect("overloads").iter().map(|o| o["location"].clone()).collect();
    assert_eq!(
        sites(shop, &Value::Array(declared)),
        vec![site(CALCULATOR, 11, 24), site(CALCULATOR, 16, 24), site(CALCULATOR, 21, 24)]
    );
    assert_eq!(overloads["overloads"][1]["documentation"], json!("Calculates the price of a single item."));
    server
        .fails("get_method_overloads", json!({"filePath": program, "line": 15, "column": 13}), "SYMBOL_NOT_FOUND")
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn implementations_and_hierarchies_match_the_fixture() {
    let (shop, server) = shared::session("Shop").await;
    let solution = shop.file("Shop.sln");

    // The interface by name: Greeter and ExplicitGreeter name it; FormalGreeter inherits it through Greeter.
    let greeter = server
        .ok("find_implementations", json!({"typeName": "Shop.Core.Services.IGreeter", "solutionPath": solution}))
        .await;
    assert_eq!(greeter["symbol"]["fullyQualifiedName"], json!("Shop.Core.Services.IGreeter"));
    let direct: Vec<(String, bool)> = greeter["implementations"]
        .as_array()
        .expect("implementations")
        .iter()
        .map(|i| (i["name"].as_str().expect("name").to_owned(), i["implementsDirectly"].as_bool().expect("direct")))
        .collect();
    assert!(direct.contains(&("Greeter".to_owned(), true)), "{direct:?}");
    assert!(direct.contains(&("ExplicitGreeter".to_owned(), true)), "{direct:?}");
    assert!(!direct.contains(&("FormalGreeter".to_owned(), true)), "{direct:?}");
    assert_eq!(only(&greeter["implementations"], "name", "Greeter")["relation"], json!("Implements"));

    // The interface member, including the explicit implementation.
    let greet = server
        .ok(
            "find_implementations",
            json!({"filePath": shop.file("src/Shop.Core/Services/IGreeter.cs"), "line": 5, "column": 16}),
        )
        .await;
    let at: Vec<Value> =
        greet["implementations"].as_array().expect("list").iter().map(|i| i["location"].clone()).collect();
    let at = sites(shop, &Value::Array(at));
    assert!(at.contains(&site(GREETER, 5, 27)) && at.contains(&site(GREETER, 21, 21)), "{at:?}");

    // A virtual method: its override, directly.
    let virtual_greet =
        server.ok("find_implementations", json!({"filePath": shop.file(GREETER), "line": 5, "column": 27})).await;
    let only_override = only(&virtual_greet["implementations"], "relation", "Overrides");
    assert_eq!(only_override["fullyQualifiedName"], json!("Shop.Core.Services.FormalGreeter.Greet(string)"));
    assert_eq!(only_override["implementsDirectly"], json!(true));

    // A generic interface by its C# name and by its metadata name.
    let by_name = server
        .ok("find_implementations", json!({"typeName": "Shop.Core.Services.IRepository<T>", "solutionPath": solution}))
        .await;
    let by_metadata = server
        .ok("find_implementations", json!({"typeName": "Shop.Core.Services.IRepository`1", "solutionPath": solution}))
        .await;
    assert_eq!(by_name["implementations"], by_metadata["implementations"]);
    let implementing = names(&by_name["implementations"], "name");
    assert!(implementing.contains(&"InMemoryRepository".to_owned()), "{implementing:?}");
    assert_eq!(only(&by_name["implementations"], "name", "InMemoryRepository")["implementsDirectly"], json!(true));

    // A constructed base type, its chain up to object, its interface.
    let repository = server
        .ok("get_type_hierarchy", json!({"typeName": "Shop.Data.CustomerRepository", "solutionPath": solution}))
        .await;
    assert_eq!(
        names(&repository["baseTypes"], "fullyQualifiedName"),
        ["Shop.Data.InMemoryRepository<Shop.Core.Models.Customer>", "object"]
    );
    assert_eq!(repository["baseTypes"][0]["isDirect"], json!(true));
    assert_eq!(repository["baseTypes"][1]["isDirect"], json!(false));
    assert_eq!(
        sites(shop, &json!([repository["baseTypes"][0]["location"]])),
        vec![site("src/Shop.Data/InMemoryRepository.cs", 6, 14)]
    );
    assert_eq!(repository["baseTypes"][1]["isFromMetadata"], json!(true));
    assert_eq!(
        names(&repository["interfaces"], "fullyQualifiedName"),
        ["Shop.Core.Services.IRepository<Shop.Core.Models.Customer>"]
    );
    assert_eq!(repository["derivedTypes"], json!([]));

    // From a position, each direction.
    let at = json!({"filePath": shop.file(GREETER), "line": 3, "column": 14});
    let both = server.ok("get_type_hierarchy", at.clone()).await;
    assert_eq!(names(&both["derivedTypes"], "name"), ["FormalGreeter"]);
    assert_eq!(names(&both["interfaces"], "name"), ["IGreeter"]);
    assert_eq!(both["interfaces"][0]["isDirect"], json!(true));
    let mut derived_only = at.clone();
    derived_only["direction"] = json!("Derived");
    let derived = server.ok("get_type_hierarchy", derived_only).await;
    assert_eq!((derived["baseTypes"].clone(), derived["interfaces"].clone()), (json!([]), json!([])));
    assert_eq!(derived["derivedTypes"], both["derivedTypes"]);
    let mut base_only = at;
    base_only["direction"] = json!("Base");
    let base = server.ok("get_type_hierarchy", base_only).await;
    assert_eq!((base["derivedTypes"].clone(), base["baseTypes"].clone()), (json!([]), both["baseTypes"].clone()));

    server
        .fails(
            "get_type_hierarchy",
            json!({"typeName": "Shop.Core.Models.Custmer", "solutionPath": solution}),
            "SYMBOL_NOT_FOUND",
        )
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn calls_type_definitions_and_symbols_match_the_fixture() {
    let (shop, server) = shared::session("Shop").await;
    let calculator = shop.file(CALCULATOR);
    let program = shop.file(PROGRAM);

    // Round: called by the three overloads and by Report.Render; it calls Math.Round (metadata).
    let round = server.ok("get_call_hierarchy", json!({"filePath": calculator, "line": 23, "column": 31})).await;
    assert_eq!(round["symbol"]["fullyQualifiedName"], json!("Shop.Core.Services.PriceCalculator.Round(decimal)"));
    let incoming: Vec<&Value> =
        round["calls"].as_array().expect("calls").iter().filter(|c| c["direction"] == json!("Incoming")).collect();
    let callers: Vec<&str> = incoming.iter().map(|c| c["fullyQualifiedName"].as_str().expect("name")).collect();
    assert_eq!(
        callers,
        [
            "Shop.App.Reporting.Report.Render(decimal)",
            "Shop.Core.Services.PriceCalculator.Calculate(Shop.Core.Models.Order)",
            "Shop.Core.Services.PriceCalculator.Calculate(decimal)",
            "Shop.Core.Services.PriceCalculator.Calculate(decimal, int)",
        ]
    );
    let call_sites: Vec<Value> =
        incoming.iter().flat_map(|c| c["callSites"].as_array().expect("sites").clone()).collect();
    assert_eq!(
        sites(shop, &Value::Array(call_sites)),
        vec![
            site("src/Shop.App/Reporting/Report.cs", 25, 44),
            site(CALCULATOR, 11, 52),
            site(CALCULATOR, 16, 66),
            site(CALCULATOR, 21, 50),
        ]
    );
    let outgoing = only(&round["calls"], "direction", "Outgoing");
    assert_eq!(outgoing["fullyQualifiedName"], json!("System.Math.Round(decimal, int)"));
    assert_eq!(outgoing["isFromMetadata"], json!(true));
    assert!(outgoing.get("location").is_none());
    assert_eq!(sites(shop, &outgoing["callSites"]), vec![site(CALCULATOR, 23, 60)]);
    let incoming_only = server
        .ok("get_call_hierarchy", json!({"filePath": calculator, "line": 23, "column": 31, "direction": "Incoming"}))
        .await;
    assert_eq!(incoming_only["totalCount"], json!(4));

    // The type of a variable: a source type, a partial type (two declarations), a metadata type.
    let (line, column) = shop.position_of(PROGRAM, "found =", 0);
    let customer =
        server.ok("find_type_definition", json!({"filePath": program, "line": line, "column": column})).await;
    assert_eq!(customer["fullTypeName"], json!("Shop.Core.Models.Customer"));
    assert_eq!(sites(shop, &customer["locations"]), vec![site("src/Shop.Core/Models/Customer.cs", 6, 14)]);
    assert_eq!(customer["locations"][0]["sourceText"], json!("public class Customer"));
    let (line, column) = shop.position_of(PROGRAM, "order =", 0);
    let order = server.ok("find_type_definition", json!({"filePath": program, "line": line, "column": column})).await;
    assert_eq!(
        sites(shop, &order["locations"]),
        vec![site("src/Shop.Core/Models/Order.Lines.cs", 5, 22), site("src/Shop.Core/Models/Order.cs", 6, 22)]
    );
    let (line, column) = shop.position_of(PROGRAM, "names =", 0);
    let list = server.ok("find_type_definition", json!({"filePath": program, "line": line, "column": column})).await;
    assert_eq!((list["isFromMetadata"].clone(), list["locations"].clone()), (json!(true), json!([])));
    assert_eq!(list["assembly"], json!("System.Collections"));

    // The declarations of one file, flattened in source order.
    let symbols = server.ok("get_document_symbols", json!({"filePath": calculator})).await;
    let flat: Vec<(String, String, Option<String>, u64, u64)> = symbols["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().expect("name").to_owned(),
                s["kind"].as_str().expect("kind").to_owned(),
                s["containerName"].as_str().map(str::to_owned),
                s["selectionRange"]["line"].as_u64().expect("line"),
                s["selectionRange"]["column"].as_u64().expect("column"),
            )
        })
        .collect();
    let entry = |name: &str, kind: &str, container: Option<&str>, line, column| {
        (name.to_owned(), kind.to_owned(), container.map(str::to_owned), line, column)
    };
    assert_eq!(
        flat,
        vec![
            entry("Shop.Core.Services", "Namespace", None, 4, 11),
            entry("PriceCalculator", "Class", Some("Shop.Core.Services"), 6, 18),
            entry("Calculate", "Method", Some("PriceCalculator"), 11, 24),
            entry("Calculate", "Method", Some("PriceCalculator"), 16, 24),
            entry("Calculate", "Method", Some("PriceCalculator"), 21, 24),
            entry("Round", "Method", Some("PriceCalculator"), 23, 31),
        ]
    );
    assert_eq!(symbols["symbols"][2]["detail"], json!("Shop.Core.Services.PriceCalculator.Calculate(decimal)"));
    assert_eq!(symbols["totalCount"], json!(6));

    // Workspace symbols: both parts of the partial Order; every match contains the query.
    let order = server.ok("search_symbols", json!({"query": "  Order ", "solutionPath": shop.file("Shop.sln")})).await;
    assert_eq!(order["query"], json!("Order"));
    let classes: Vec<&Value> = order["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .filter(|s| s["fullyQualifiedName"] == json!("Shop.Core.Models.Order"))
        .collect();
    let parts: Vec<Value> = classes.iter().map(|s| s["location"].clone()).collect();
    assert_eq!(
        sites(shop, &Value::Array(parts)),
        vec![site("src/Shop.Core/Models/Order.Lines.cs", 5, 22), site("src/Shop.Core/Models/Order.cs", 6, 22)]
    );
    assert_ne!(classes[0]["id"], classes[1]["id"]);
    assert_eq!(classes[0]["symbolId"], classes[1]["symbolId"]);
    let customer = server.ok("search_symbols", json!({"query": "Cust", "solutionPath": shop.file("Shop.sln")})).await;
    let found = names(&customer["symbols"], "name");
    assert!(found.contains(&"Customer".to_owned()) && found.contains(&"CustomerRepository".to_owned()), "{found:?}");
    assert!(found.iter().all(|n| n.to_lowercase().contains("cust")), "{found:?}");
    let none = server.ok("search_symbols", json!({"query": "Zyzzyva", "solutionPath": shop.file("Shop.sln")})).await;
    assert_eq!((none["symbols"].clone(), none["totalCount"].clone()), (json!([]), json!(0)));
}

#[tokio::test(flavor = "multi_thread")]
async fn snippets_compile_in_place_and_diagnostics_scope_to_a_project() {
    let (shop, server) = shared::session("Shop").await;
    let program = shop.file(PROGRAM);
    let before = std::fs::read(shop.path(PROGRAM)).expect("read Program.cs");

    // Inserted before `decimal several`: it sees `calculator` and `single`, declares `doubled`.
    let (line, column) = shop.position_of(PROGRAM, "decimal several", 0);
    let snippet = "var doubled = calculator.Calculate(single * 2);\n";
    let good = server
        .ok("analyze_code_block", json!({"filePath": program, "line": line, "column": column, "code": snippet}))
        .await;
    assert_eq!((good["compiles"].clone(), good["diagnostics"].clone()), (json!(true), json!([])));
    assert_eq!(names(&good["declaredSymbols"], "name"), ["doubled"]);
    let calculate =
        only(&good["usedSymbols"], "fullyQualifiedName", "Shop.Core.Services.PriceCalculator.Calculate(decimal)");
    assert_eq!(sites(shop, &json!([calculate["location"]])), vec![site(CALCULATOR, 11, 24)]);
    let local = only(&good["usedSymbols"], "name", "calculator");
    assert_eq!(sites(shop, &json!([local["location"]])), vec![site(PROGRAM, 20, 17)]);

    // A misspelt name: CS0103 at its place in the snippet.
    let bad = server
        .ok(
            "analyze_code_block",
            json!({"filePath": program, "line": line, "column": column, "code": "decimal x = 1m;\nvar y = calculatr.Calculate(x);"}),
        )
        .await;
    assert_eq!((bad["compiles"].clone(), bad["errorCount"].clone()), (json!(false), json!(1)));
    let error = only(&bad["diagnostics"], "code", "CS0103");
    assert_eq!(error["range"], json!({"line": 2, "column": 9, "endLine": 2, "endColumn": 18}));
    assert!(error["id"].as_str().expect("id").starts_with("sha256:"));
    assert_eq!(std::fs::read(shop.path(PROGRAM)).expect("read Program.cs"), before, "analysis changed the file");

    // Diagnostics of one project; an unknown project is named as such.
    let core = server
        .ok(
            "get_compilation_diagnostics",
            json!({"project": "Shop.Core", "solutionPath": shop.file("Shop.sln"), "minSeverity": "hidden"}),
        )
        .await;
    assert_eq!(core["scope"], json!("project"));
    let projects: Vec<&Value> = core["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["diagnostics"].as_array().expect("diagnostics"))
        .map(|d| &d["project"])
        .collect();
    assert!(projects.iter().all(|p| **p == json!("Shop.Core")), "{core}");
    let unknown = server
        .fails(
            "get_compilation_diagnostics",
            json!({"project": "Shop.Nope", "solutionPath": shop.file("Shop.sln")}),
            "PROJECT_NOT_FOUND",
        )
        .await;
    assert!(unknown.to_string().contains("Shop.Data"), "{unknown}");
}
