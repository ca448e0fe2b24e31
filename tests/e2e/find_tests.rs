//! find_tests on the Tested fixture (tests/fixtures/Tested/FIXTURE.md): a library and its xunit, NUnit and
//! MSTest projects. The tests a symbol, a kept plan, an applied write and the files' difference from a git
//! revision reach, each with the chain that reaches it; what is not an origin or not a test project is
//! refused and nothing changes.

use crate::support::{Fixture, Server, assert_same_tree, eventually, git, tree};
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) fn ids(found: &Value) -> Vec<String> {
    found["tests"].as_array().expect("tests").iter().map(|t| t["id"].as_str().expect("id").to_owned()).collect()
}

fn project<'a>(found: &'a Value, name: &str) -> &'a Value {
    found["projects"].as_array().expect("projects").iter().find(|p| p["name"] == name).expect(name)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_symbol_a_plan_and_its_operation_each_select_the_tests_that_reach_them() {
    let fixture = Fixture::copy("Tested");
    let server = Server::start(&fixture.root, &[]).await;
    let pricer = fixture.file("Pricing/Pricer.cs");
    // The second declaration of the file: Pricer's, not IPricer's.
    let (line, column) = fixture.position_of("Pricing/Pricer.cs", "Price(int quantity)", 1);
    let found = server.ok("find_tests", json!({"filePath": pricer, "line": line, "column": column})).await;
    assert_eq!(found["selection"], "static");
    assert_eq!(found["changedSymbols"][0]["fullyQualifiedName"], "Pricing.Pricer.Price(int)", "{found}");
    let through_interface = found["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .find(|t| t["id"] == "Pricing.XunitTests.CartTests.TotalAsksThePricer")
        .unwrap_or_else(|| panic!("the cart test reaches Pricer.Price through IPricer: {found}"));
    assert_eq!(
        through_interface["reason"],
        json!([
            "Pricing.Pricer.Price(int)",
            "Pricing.IPricer.Price(int)",
            "Pricing.Cart.Total()",
            "Pricing.XunitTests.CartTests.TotalAsksThePricer()"
        ])
    );
    assert_eq!(through_interface["framework"], "xunit");
    assert_eq!(through_interface["location"]["filePath"], fixture.file("Pricing.XunitTests/CartTests.cs"));
    assert!(ids(&found).contains(&"Pricing.NunitTests.DiscountTests.PricesEveryQuantity".to_owned()));
    assert!(ids(&found).contains(&"Pricing.MstestTests.CatalogTests.PricesByQuantity".to_owned()));
    let xunit = project(&found, "Pricing.XunitTests");
    assert_eq!(
        (xunit["testCount"].clone(), xunit["selected"].clone(), xunit["notSelected"].clone()),
        (json!(5), json!(1), json!(4))
    );
    assert_eq!(project(&found, "Pricing.MstestTests")["frameworks"], json!(["MSTest"]));

    // A preview that changes BulkDiscount.Apply: the tests reaching it through the virtual Discount.Apply.
    let preview = server
        .ok("find_replace", json!({"pattern": "amount * 0.9m", "replacement": "amount * 0.8m", "preview": true}))
        .await;
    let before_apply = tree(&fixture.root);
    let expected = json!([
        "Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice",
        "Pricing.NunitTests.DiscountTests.StandardDiscountTakesTenPercentOfLargeAmounts"
    ]);
    let planned = server.ok("find_tests", json!({"planId": preview["planId"]})).await;
    assert_eq!(json!(ids(&planned)), expected, "{planned}");
    assert_eq!(planned["changedSymbols"][0]["fullyQualifiedName"], "Pricing.BulkDiscount.Apply(decimal)");
    assert_same_tree(&before_apply, &fixture.root, "find_tests writes nothing");
    let applied = server.ok("apply_plan", json!({"planId": preview["planId"]})).await;
    let operation = json!({"operationId": applied["operationId"]});
    let written = eventually(Duration::from_secs(30), || async {
        let found = server.ok("find_tests", operation.clone()).await;
        (json!(ids(&found)) == expected).then_some(found)
    })
    .await;
    assert!(written.is_some(), "the applied operation reaches the same tests");
    server.ok("undo", operation.clone()).await;
    let undone = server.ok("find_tests", operation.clone()).await;
    assert_eq!(json!(ids(&undone)), expected, "an undone operation names what it changed on the side now on disk");

    // Refusals: nothing to start from, two origins, a library asked as a test project.
    let before = tree(&fixture.root);
    server.fails("find_tests", json!({}), "INVALID_PARAMETER").await;
    server.fails("find_tests", json!({"planId": "x", "changedSince": "HEAD"}), "INVALID_PARAMETER").await;
    server.fails("find_tests", json!({"filePath": pricer, "line": line}), "MISSING_REQUIRED_PARAM").await;
    let refused = server
        .fails(
            "find_tests",
            json!({"filePath": pricer, "line": line, "column": column, "project": "Pricing"}),
            "NOT_A_TEST_PROJECT",
        )
        .await;
    assert!(refused.to_string().contains("Pricing.XunitTests"), "{refused}");
    server.fails("find_tests", json!({"operationId": "nope"}), "OPERATION_NOT_FOUND").await;
    assert_same_tree(&before, &fixture.root, "refusals change nothing");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn changes_since_a_git_revision_select_the_tests_of_the_edited_members() {
    let fixture = Fixture::copy("Tested");
    git(&fixture.root, &["init", "-q"]);
    git(&fixture.root, &["add", "-A"]);
    git(&fixture.root, &["commit", "-q", "-m", "fixture"]);
    // The watcher tells of nothing during the test: what the host sees, changedSince brought it.
    let server = Server::start(&fixture.root, &["--debounce-ms", "600000"]).await;
    server.ok("initialize_workspace", json!({"workingDirectory": fixture.root.display().to_string()})).await;
    // Three edited bodies, one of them run only by a static constructor, and a new file git does not track yet.
    let packs =
        fixture.read("Pricing/Packs.cs").replace("list.Split(',')", "list.Split(',', StringSplitOptions.TrimEntries)");
    std::fs::write(fixture.path("Pricing/Packs.cs"), packs).expect("edit");
    let money = fixture.read("Pricing/Money.cs").replace("ToUpperInvariant() + \"!\"", "ToUpperInvariant() + \"!!\"");
    std::fs::write(fixture.path("Pricing/Money.cs"), money).expect("edit");
    let pricer =
        fixture.read("Pricing/Pricer.cs").replace("return quantity * UnitPrice;", "return UnitPrice * quantity;");
    std::fs::write(fixture.path("Pricing/Pricer.cs"), pricer).expect("edit");
    std::fs::write(fixture.path("Pricing/Extra.cs"), "namespace Pricing;\n\npublic static class Extra\n{\n}\n")
        .expect("new file");
    // Asked at once: the service brings the host's view of the changed files up to the disk first.
    let found = server.ok("find_tests", json!({"changedSince": "HEAD"})).await;
    let changed: Vec<&str> = found["changedSymbols"]
        .as_array()
        .expect("changed")
        .iter()
        .filter_map(|s| s["fullyQualifiedName"].as_str())
        .collect();
    assert_eq!(
        changed,
        [
            "Pricing.Extra",
            "Pricing.Labels.Shout(this string)",
            "Pricing.Packs.Parse(string)",
            "Pricing.Pricer.Price(int)"
        ],
        "{found}"
    );
    // Packs.Parse runs only in Packs' static constructor: CountsWhatWasAdded reads Packs (through its class's field).
    assert_eq!(
        ids(&found),
        [
            "Pricing.MstestTests.CatalogTests.PricesByQuantity",
            "Pricing.NunitTests.DiscountTests.PricesEveryQuantity",
            "Pricing.TunitTests.QuoteTests.QuotesEachQuantity",
            "Pricing.XunitTests.CartTests.CountsWhatWasAdded",
            "Pricing.XunitTests.CartTests.TotalAsksThePricer",
            "Pricing.XunitTests.LabelTests.Shouts"
        ],
        "{found}"
    );
    assert_eq!(project(&found, "Pricing.NunitTests")["notSelected"], json!(3));
    // Paged: each page syncs the same unchanged files, which leaves the snapshot and the cursor valid.
    let mut paged = Vec::new();
    let mut arguments = json!({"changedSince": "HEAD", "pageSize": 1});
    loop {
        let page = server.ok("find_tests", arguments.clone()).await;
        paged.extend(ids(&page));
        match page["nextCursor"].as_str() {
            Some(cursor) => arguments["cursor"] = json!(cursor),
            None => break,
        }
    }
    assert_eq!(paged, ids(&found));

    // Money.cs put back as it was: no longer in the difference, and still brought up to date, so the host
    // does not keep the edit until the watcher's news (which would then move the snapshot under a cursor).
    git(&fixture.root, &["checkout", "--", "Pricing/Money.cs"]);
    let found = server.ok("find_tests", json!({"changedSince": "HEAD"})).await;
    assert!(!ids(&found).contains(&"Pricing.XunitTests.LabelTests.Shouts".to_owned()), "{found}");
    let shout = server.ok("search_symbols", json!({"query": "Shout"})).await;
    assert!(shout.to_string().contains(r#"ToUpperInvariant() + \"!\";"#), "the host sees Money.cs put back: {shout}");

    let before = tree(&fixture.root);
    let outside = fixture.root.parent().expect("parent").join("pwned");
    server.fails("find_tests", json!({"changedSince": "no-such-branch"}), "REVISION_NOT_FOUND").await;
    // An option in place of a revision is refused before git sees it.
    let option = format!("--output={}", outside.display());
    server.fails("find_tests", json!({"changedSince": option}), "REVISION_NOT_FOUND").await;
    assert!(!outside.exists(), "no option reaches git");
    assert_same_tree(&before, &fixture.root, "refusals change nothing");
    server.stop().await;
}

/// A test project named as the solution reaches the library it tests in a sibling folder of its repository:
/// the library's files are inside the walls, its changes select tests and a run builds it; a project it
/// references from outside the repository stays outside, and the answer says so.
#[tokio::test(flavor = "multi_thread")]
async fn a_test_project_as_the_solution_follows_changes_to_its_sibling_library_and_names_what_it_cannot() {
    let fixture = Fixture::copy("Tested");
    git(&fixture.root, &["init", "-q"]);
    git(&fixture.root, &["add", "-A"]);
    git(&fixture.root, &["commit", "-q", "-m", "fixture"]);
    let server = Server::start(&fixture.root, &[]).await;
    let tests = fixture.file("Pricing.XunitTests/Pricing.XunitTests.csproj");
    let pricer =
        fixture.read("Pricing/Pricer.cs").replace("return quantity * UnitPrice;", "return UnitPrice * quantity;");
    std::fs::write(fixture.path("Pricing/Pricer.cs"), pricer).expect("edit the library");

    let found = server.ok("find_tests", json!({"changedSince": "HEAD", "solutionPath": tests})).await;
    assert_eq!(found["changedSymbols"][0]["fullyQualifiedName"], "Pricing.Pricer.Price(int)", "{found}");
    assert_eq!(ids(&found), ["Pricing.XunitTests.CartTests.TotalAsksThePricer"], "{found}");
    assert!(found.get("notFollowed").is_none(), "all of the change was followed: {found}");
    let symbols = json!({"filePath": fixture.file("Pricing/Pricer.cs"), "solutionPath": tests});
    server.ok("get_document_symbols", symbols).await;
    let run = server.ok("run_tests", json!({"changedSince": "HEAD", "solutionPath": tests})).await;
    assert_eq!((run["summary"]["passed"].clone(), run["summary"]["failed"].clone()), (json!(1), json!(0)), "{run}");

    // A library outside the repository: referenced, loaded, but outside the walls, and named.
    let elsewhere = fixture.root.parent().expect("parent").join("Elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    let project = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>";
    std::fs::write(elsewhere.join("Elsewhere.csproj"), project).expect("project");
    std::fs::write(elsewhere.join("Far.cs"), "namespace Elsewhere;\n\npublic static class Far\n{\n}\n")
        .expect("source");
    let csproj = fixture.read("Pricing.XunitTests/Pricing.XunitTests.csproj").replace(
        "<ProjectReference Include=\"../Pricing/Pricing.csproj\" />",
        "<ProjectReference Include=\"../Pricing/Pricing.csproj\" />\n    <ProjectReference Include=\"../../Elsewhere/Elsewhere.csproj\" />",
    );
    std::fs::write(fixture.path("Pricing.XunitTests/Pricing.XunitTests.csproj"), csproj).expect("reference it");
    let far = json!({"filePath": elsewhere.join("Far.cs").display().to_string(), "solutionPath": tests});
    server.fails("get_document_symbols", far, "SOURCE_NOT_IN_WORKSPACE").await;
    let found = server.ok("find_tests", json!({"changedSince": "HEAD", "solutionPath": tests})).await;
    assert_eq!(
        found["notFollowed"],
        json!([{"reason": "projectOutsideRepository", "count": 1, "paths": [elsewhere.join("Elsewhere.csproj")]}]),
        "{found}"
    );
    assert_eq!(ids(&found), ["Pricing.XunitTests.CartTests.TotalAsksThePricer"], "{found}");
    server.stop().await;
}
