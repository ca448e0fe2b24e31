//! A git revision read without running any program the repository's configuration names.

use crate::find_tests::ids;
use crate::support::{Fixture, Server, git};
use serde_json::json;

/// A repository whose `.cs` files have a clean filter: git runs it on every working-tree file it compares
/// with a revision (`git diff`, `git status`), and it leaves a marker.
#[tokio::test(flavor = "multi_thread")]
async fn changed_since_selects_the_edited_members_tests_without_running_the_repositorys_clean_filter() {
    let fixture = Fixture::copy("Tested");
    git(&fixture.root, &["init", "-q"]);
    git(&fixture.root, &["add", "-A"]);
    git(&fixture.root, &["commit", "-q", "-m", "fixture"]);
    let marker = fixture.root.parent().expect("parent").join("filtered");
    std::fs::write(fixture.path(".gitattributes"), "*.cs filter=evil\n").expect("attributes");
    git(&fixture.root, &["config", "filter.evil.clean", &format!("touch '{}'; cat", marker.display())]);
    let pricer =
        fixture.read("Pricing/Pricer.cs").replace("return quantity * UnitPrice;", "return UnitPrice * quantity;");
    std::fs::write(fixture.path("Pricing/Pricer.cs"), pricer).expect("edit");

    let server = Server::start(&fixture.root, &[]).await;
    let found = server.ok("find_tests", json!({"changedSince": "HEAD"})).await;
    assert_eq!(found["changedSymbols"][0]["fullyQualifiedName"], "Pricing.Pricer.Price(int)", "{found}");
    assert_eq!(found["changedSymbols"].as_array().map(Vec::len), Some(1), "{found}");
    // The same tests as the edited member selects when asked for by position.
    let (line, column) = fixture.position_of("Pricing/Pricer.cs", "Price(int quantity)", 1);
    let by_symbol = server
        .ok("find_tests", json!({"filePath": fixture.file("Pricing/Pricer.cs"), "line": line, "column": column}))
        .await;
    assert!(ids(&found).contains(&"Pricing.XunitTests.CartTests.TotalAsksThePricer".to_owned()), "{found}");
    assert_eq!(ids(&found), ids(&by_symbol));
    assert!(!marker.exists(), "the repository's clean filter ran");
    server.stop().await;
}
