//! Moves on the Consumers fixture (tests/fixtures/Consumers/FIXTURE.md): `Coupon` leaves `Acme.Core.Pricing` for
//! `Acme.Core.Promotions` by move_files, by move_files keeping the namespace then sync_namespaces, and by
//! move_type_to_namespace. Its users sit in every kind of place: a file of top-level statements in a project that
//! sees Acme.Core only through Acme.Services, another project, a global using, a using alias and a `using static`,
//! fully qualified names (`global::`, object creation, `typeof`, an attribute, a cref), `nameof`. Every one is
//! updated, a file still using another type of the old namespace keeps its using, the solution builds,
//! find_references finds the same places, and undo restores every byte.

use crate::support::{Fixture, Server, assert_same_tree, dotnet_build_errors, tree};
use serde_json::json;

const COUPON: &str = "src/Acme.Core/Pricing/Coupon.cs";
const MOVED: &str = "src/Acme.Core/Promotions/Coupon.cs";
const SOLUTION: &str = "Consumers.slnx";

#[tokio::test(flavor = "multi_thread")]
async fn a_file_moved_to_another_namespace_updates_its_users_everywhere_then_builds_and_undo_restores_every_byte() {
    let fixture = Fixture::copy("Consumers");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let places = coupon_places(&server, &fixture, COUPON).await;
    let destination = fixture.file("src/Acme.Core/Promotions");

    let moved = server.ok("move_files", json!({"files": [fixture.file(COUPON)], "destination": destination})).await;
    assert_eq!(
        moved["namespaces"],
        json!([{"file": fixture.file(COUPON), "namespace": "Acme.Core.Pricing", "newNamespace": "Acme.Core.Promotions"}]),
        "{moved}"
    );
    assert_eq!(moved["projectReferences"], json!([]), "{moved}");
    assert!(!fixture.path(COUPON).exists());
    assert_users_follow(&fixture, true);
    assert_eq!(coupon_places(&server, &fixture, MOVED).await, places, "the same places");
    assert_eq!(dotnet_build_errors(&fixture.path(SOLUTION)).await, 0);
    server.ok("undo", json!({"operationId": moved["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    assert!(!fixture.path("src/Acme.Core/Promotions").exists(), "undo removes the folder the move made");

    // The same change in two steps: the file moves as it is, then its namespace follows its folder.
    let kept = json!({"files": [fixture.file(COUPON)], "destination": destination, "keepNamespaces": true});
    let kept = server.ok("move_files", kept).await;
    assert!(fixture.read(MOVED).contains("namespace Acme.Core.Pricing;"));
    let synced = server.ok("sync_namespaces", json!({"folder": fixture.file("src/Acme.Core")})).await;
    assert_eq!(
        synced["namespaces"],
        json!([{"file": fixture.file(MOVED), "namespace": "Acme.Core.Pricing", "newNamespace": "Acme.Core.Promotions"}]),
        "{synced}"
    );
    assert_users_follow(&fixture, true);
    assert_eq!(coupon_places(&server, &fixture, MOVED).await, places, "the same places");
    assert_eq!(dotnet_build_errors(&fixture.path(SOLUTION)).await, 0);
    for operation in [&synced, &kept] {
        server.ok("undo", json!({"operationId": operation["operationId"]})).await;
    }
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_type_moved_to_another_namespace_updates_its_users_everywhere_then_builds_and_undo_restores_every_byte() {
    let fixture = Fixture::copy("Consumers");
    let server = Server::start(&fixture.root, &[]).await;
    let before = tree(&fixture.root);
    let places = coupon_places(&server, &fixture, COUPON).await;

    let arguments =
        json!({"sourceFile": fixture.file(COUPON), "symbolName": "Coupon", "targetNamespace": "Acme.Core.Promotions"});
    let moved = server.ok("move_type_to_namespace", arguments).await;
    assert_eq!(moved["symbol"]["fullyQualifiedName"], json!("Acme.Core.Promotions.Coupon"), "{moved}");
    // CouponRuleAttribute stays behind in Acme.Core.Pricing.
    assert_eq!(moved["changes"]["filesCreated"], json!([fixture.file(MOVED)]), "{moved}");
    let left = fixture.read(COUPON);
    assert!(left.contains("namespace Acme.Core.Pricing;") && !left.contains(" class Coupon\n"), "{left}");
    assert_users_follow(&fixture, false);
    assert_eq!(coupon_places(&server, &fixture, MOVED).await, places, "the same places");
    assert_eq!(dotnet_build_errors(&fixture.path(SOLUTION)).await, 0);
    server.ok("undo", json!({"operationId": moved["operationId"]})).await;
    assert_same_tree(&before, &fixture.root, "undo restores every byte");
    server.stop().await;
}

/// Every user of `Coupon` names `Acme.Core.Promotions`; `CouponRuleAttribute` went with it when
/// `with_attribute` (the whole file moved).
fn assert_users_follow(fixture: &Fixture, with_attribute: bool) {
    let new_using = "using Acme.Core.Promotions;";
    let old_using = "using Acme.Core.Pricing;";
    let moved = fixture.read(MOVED);
    // Its cref to PriceList still needs the old namespace.
    assert!(moved.contains("namespace Acme.Core.Promotions;") && moved.contains(old_using), "{moved}");
    // Only Coupon of the old namespace: the using is replaced.
    for only_coupon in ["src/Acme.App/Program.cs", "src/Acme.App/Welcomes.cs", "src/Acme.Core/Orders/Order.cs"] {
        let text = fixture.read(only_coupon);
        assert!(text.contains(new_using) && !text.contains(old_using), "{only_coupon}:\n{text}");
    }
    // Object creations alone, in top-level statements and in a namespace block that imports the old namespace.
    let program = fixture.read("src/Acme.App/Program.cs");
    assert_eq!(program.lines().nth(18), Some("var coupon = new Coupon(\"WELCOME\", 20m);"), "{program}");
    let welcomes = fixture.read("src/Acme.App/Welcomes.cs");
    if with_attribute {
        assert!(welcomes.starts_with("namespace Acme.App\n{\n    using Acme.Core.Promotions;\n\n"), "{welcomes}");
    } else {
        // move_type_to_namespace imports at the top of the file.
        assert!(welcomes.starts_with("using Acme.Core.Promotions;\n"), "{welcomes}");
    }
    // PriceList too: the old using stays beside the new one.
    let till = fixture.read("src/Acme.App/Till.cs");
    assert!(till.contains(new_using) && till.contains(old_using), "{till}");
    // The same namespace, or a global using, imported the old one.
    for imported in ["src/Acme.Core/Pricing/PriceList.cs", "src/Acme.Services/Checkout.cs"] {
        let text = fixture.read(imported);
        assert!(text.contains(new_using), "{imported}:\n{text}");
    }
    assert_eq!(fixture.read("src/Acme.Services/GlobalUsings.cs"), "global using Acme.Core.Pricing;\n");
    let aliases = fixture.read("src/Acme.App/Aliases.cs");
    for directive in ["using C = Acme.Core.Promotions.Coupon;", "using static Acme.Core.Promotions.Coupon;"] {
        assert!(aliases.contains(directive), "{aliases}");
    }
    let qualified = fixture.read("src/Acme.App/Qualified.cs");
    let attribute = if with_attribute { "[Acme.Core.Promotions.CouponRule(" } else { "[Acme.Core.Pricing.CouponRule(" };
    for name in [
        "cref=\"Acme.Core.Promotions.Coupon\"",
        attribute,
        "global::Acme.Core.Promotions.Coupon Spring()",
        "new Acme.Core.Promotions.Coupon(",
        "Acme.Core.Promotions.Coupon.Parse(",
        "typeof(Acme.Core.Promotions.Coupon)",
    ] {
        assert!(qualified.contains(name), "{name} in:\n{qualified}");
    }
    for (file, bytes) in tree(&fixture.root).into_iter().filter(|(file, _)| file.ends_with(".cs")) {
        let text = String::from_utf8_lossy(&bytes);
        let old = "Acme.Core.Pricing.Coupon";
        let stale = text.match_indices(old).any(|(at, _)| !text[at + old.len()..].starts_with(char::is_alphanumeric));
        assert!(!stale, "{file} still names the old place:\n{text}");
    }
}

/// find_references of `Coupon` declared in `file`: each place as its file and its line's text, read with the
/// namespace the move changes as the new one (lines shift where a using is added).
async fn coupon_places(server: &Server, fixture: &Fixture, file: &str) -> Vec<(String, String)> {
    let text = fixture.read(file);
    let (line, column) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.ends_with(" class Coupon").then(|| (i + 1, l.len() - "Coupon".len() + 1)))
        .unwrap_or_else(|| panic!("no Coupon in {file}:\n{text}"));
    let found = server
        .ok(
            "find_references",
            json!({"filePath": fixture.file(file), "line": line, "column": column, "includeDeclaration": true}),
        )
        .await;
    let mut places: Vec<_> = found["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| {
            let path = r["filePath"].as_str().expect("filePath");
            let line = r["line"].as_u64().expect("line") as usize;
            let text =
                std::fs::read_to_string(path).expect("read").lines().nth(line - 1).expect("line").trim().to_owned();
            let relative = path.strip_prefix(&format!("{}/", fixture.root.display())).expect("in the fixture");
            (
                relative.replace("/Pricing/Coupon.cs", "/Promotions/Coupon.cs"),
                text.replace("Acme.Core.Pricing.Coupon", "Acme.Core.Promotions.Coupon"),
            )
        })
        .collect();
    places.sort();
    assert!(places.len() > 20, "Coupon is used in many places: {places:?}");
    places
}
