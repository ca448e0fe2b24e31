//! `verify: "tests"` on the Tested fixture (tests/fixtures/Tested/FIXTURE.md): a write runs the tests it
//! reaches before it is kept. A rename that keeps them passing stays; a body edit that breaks one is undone
//! to the byte and refused with the test named, its plan kept; a test already failing before the write
//! does not block it. list_operations shows each verdict.

use crate::support::{Fixture, Server, assert_same_tree, tree};
use serde_json::{Value, json};

async fn newest_operation(server: &Server) -> Value {
    server.ok("list_operations", json!({})).await["operations"][0].clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_is_kept_only_if_the_tests_it_reaches_pass_as_they_did_before() {
    let fixture = Fixture::copy("Tested");
    let server = Server::start(&fixture.root, &[]).await;

    // A rename of the virtual Discount.Apply: its override and the NUnit tests calling it follow.
    let (line, column) = fixture.position_of("Pricing/Discounts.cs", "Apply(decimal amount)", 0);
    let renamed = server
        .ok(
            "rename_symbol",
            json!({"filePath": fixture.file("Pricing/Discounts.cs"), "line": line, "column": column,
                   "newName": "ApplyTo", "verify": "tests"}),
        )
        .await;
    let verification = &renamed["verification"];
    assert_eq!(verification["testsSelected"], 2, "{renamed}");
    assert_eq!((verification["casesRun"].clone(), verification["passed"].clone()), (json!(3), json!(3)), "{renamed}");
    assert!(fixture.read("Pricing.NunitTests/DiscountTests.cs").contains("ApplyTo("));
    let listed = newest_operation(&server).await;
    assert_eq!(
        (listed["state"].clone(), listed["verification"]["passed"].clone()),
        (json!("Applied"), json!(3)),
        "{listed}"
    );

    // A body edit that breaks StandardDiscountTakesTenPercentOfLargeAmounts: undone, every byte as before.
    let before = tree(&fixture.root);
    let broken = server
        .fails(
            "find_replace",
            json!({"pattern": "amount * 0.9m", "replacement": "amount * 0.8m", "verify": "tests"}),
            "TESTS_FAILED",
        )
        .await;
    assert_same_tree(&before, &fixture.root, "a write whose tests fail is undone");
    let failure = &broken["details"]["failures"][0];
    assert_eq!(
        failure["id"], "Pricing.NunitTests.DiscountTests.StandardDiscountTakesTenPercentOfLargeAmounts",
        "{broken}"
    );
    assert!(failure["message"].as_str().is_some_and(|m| !m.is_empty()), "{broken}");
    assert_eq!(failure["filePath"], fixture.file("Pricing.NunitTests/DiscountTests.cs"), "{broken}");
    assert_eq!(broken["details"]["rolledBack"], true);
    let listed = newest_operation(&server).await;
    assert_eq!(listed["operationId"], broken["details"]["operationId"]);
    assert_eq!(listed["state"], "Undone", "{listed}");
    assert_eq!(listed["verification"]["newFailures"], json!([failure["id"]]), "{listed}");
    // The plan is kept: applying it without verification writes exactly it.
    let plan_id = broken["details"]["planId"].as_str().expect("the plan is kept").to_owned();
    server.ok("apply_plan", json!({"planId": plan_id})).await;
    assert!(fixture.read("Pricing/Discounts.cs").contains("amount * 0.8m"));
    server.ok("undo", json!({"operationId": newest_operation(&server).await["operationId"]})).await;

    // LabelTests.KnownBroken reaches Catalog and fails before any write: an edit there is kept, with it named.
    let kept = server
        .ok(
            "find_replace",
            json!({"pattern": "[\"pear\"] = 2m", "replacement": "[\"pear\"] = 2.0m", "verify": "tests"}),
        )
        .await;
    assert_eq!(
        kept["verification"]["failingBeforeAndAfter"],
        json!(["Pricing.XunitTests.LabelTests.KnownBroken"]),
        "{kept}"
    );
    assert!(fixture.read("Pricing/Money.cs").contains("[\"pear\"] = 2.0m"));
    assert_eq!(newest_operation(&server).await["state"], "Applied");

    // A preview writes nothing to verify.
    server
        .fails(
            "find_replace",
            json!({"pattern": "2.0m", "replacement": "2m", "preview": true, "verify": "tests"}),
            "INVALID_PARAMETER",
        )
        .await;
    server.stop().await;
}
