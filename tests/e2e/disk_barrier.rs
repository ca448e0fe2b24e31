//! Every call answers from the disk as the caller left it: an edit made with the agent's own file tool just
//! before a call is in the snapshot the call reads, and a write computed or settled then takes it into
//! account. Each test is a loop with no pause between the edit and the call, over bridges to one daemon on a
//! copy of Shop, so that a race shows in some iteration.

use crate::rebase::Shared;
use crate::support::{Fixture, SLOTS, dotnet_build_errors, git};
use serde_json::{Value, json};
use std::path::Path;

const EXTENSIONS: &str = "src/Shop.Core/Extensions/StringExtensions.cs";
const CALCULATOR: &str = "src/Shop.Core/Services/PriceCalculator.cs";
const ITERATIONS: usize = 20;

/// The files `find_references` names for the symbol at `needle` in `file`.
async fn referencing_files(shared: &Shared, session: usize, file: &str, needle: &str) -> Vec<String> {
    let shop = &shared.shop;
    let (line, column) = shop.position_of(file, needle, 0);
    let position = json!({"filePath": shop.file(file), "line": line, "column": column, "pageSize": 500});
    let found = shared.sessions[session].ok("find_references", position).await;
    found["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| r["filePath"].as_str().expect("path").to_owned())
        .collect()
}

/// A class of Shop.App calling `call`, with Shop.Core's string extensions in scope.
fn user(class: &str, call: &str) -> String {
    format!(
        "using Shop.Core.Extensions;\n\nnamespace Shop.App;\n\npublic static class {class}\n{{\n    public static object Use() => {call};\n}}\n"
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_use_written_just_before_find_references_is_found_every_time_in_new_folders_too() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(2).await;
    let shop = &shared.shop;
    // Loaded and warm before the loop: each iteration then measures the barrier alone.
    referencing_files(&shared, 1, EXTENSIONS, "Shout").await;
    for n in 0..ITERATIONS {
        let file = shop.path(&format!("src/Shop.App/UseShout{n}.cs"));
        std::fs::write(&file, user(&format!("UseShout{n}"), "Shop.Core.Extensions.StringExtensions.Shout(\"x\")"))
            .expect("write");
        // Both sessions ask at the same moment.
        let (first, second) = futures::join!(
            referencing_files(&shared, 0, EXTENSIONS, "Shout"),
            referencing_files(&shared, 1, EXTENSIONS, "Shout")
        );
        for found in [first, second] {
            assert!(found.contains(&file.display().to_string()), "iteration {n}: the new use is missing: {found:?}");
        }
    }
    // A folder made with its files in one go, nested: the watch of the new folder starts after they are
    // written, and they are found all the same.
    for n in 0..ITERATIONS / 2 {
        let folder = shop.path(&format!("src/Shop.App/Feature{n}/Deep"));
        std::fs::create_dir_all(&folder).expect("folders");
        let file = folder.join("UseIsBlank.cs");
        let class = format!("UseIsBlank{n}");
        std::fs::write(&file, user(&class, "Shop.Core.Extensions.StringExtensions.IsBlank(\"x\")")).expect("write");
        let found = referencing_files(&shared, n % 2, EXTENSIONS, "IsBlank").await;
        assert!(found.contains(&file.display().to_string()), "folder {n}: the new use is missing: {found:?}");
    }
    // A folder renamed away takes its documents with it; under its new name they are found again.
    std::fs::rename(shop.path("src/Shop.App/Feature0"), shop.path("src/Shop.App/Renamed0")).expect("rename");
    let found = referencing_files(&shared, 0, EXTENSIONS, "IsBlank").await;
    assert!(!found.iter().any(|f| f.contains("/Feature0/")), "the old folder's documents are gone: {found:?}");
    assert!(found.iter().any(|f| f.contains("/Renamed0/Deep/UseIsBlank.cs")), "{found:?}");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_direct_rename_right_after_the_agent_writes_a_use_renames_it_and_the_solution_builds() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(2).await;
    let shop = &shared.shop;
    let mut name = "Shout".to_owned();
    for n in 0..ITERATIONS {
        let file = shop.path(&format!("src/Shop.App/Caller{n}.cs"));
        std::fs::write(&file, user(&format!("Caller{n}"), &format!("\"x\".{name}()"))).expect("write");
        let next = format!("Bellow{n}");
        let (line, column) = shop.position_of(EXTENSIONS, &format!("{name}("), 0);
        let rename = json!({"filePath": shop.file(EXTENSIONS), "line": line, "column": column, "newName": next});
        let renamed = shared.sessions[n % 2].ok("rename_symbol", rename).await;
        assert_eq!(renamed["changed"], json!(true), "iteration {n}: {renamed}");
        for m in 0..=n {
            let text = shop.read(&format!("src/Shop.App/Caller{m}.cs"));
            assert!(text.contains(&format!("\"x\".{next}()")), "iteration {n}: Caller{m}.cs kept the old name: {text}");
        }
        name = next;
    }
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "every rename landed whole");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_applied_right_after_another_agent_adds_a_use_is_replayed_with_it_and_builds() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(2).await;
    let shop = &shared.shop;
    let mut name = "Round".to_owned();
    for n in 0..ITERATIONS {
        let next = format!("RoundTo{n}");
        let (line, column) = shop.position_of(CALCULATOR, &format!("{name}(decimal value)"), 0);
        let rename = json!({"filePath": shop.file(CALCULATOR), "line": line, "column": column, "newName": next,
                            "preview": true});
        let plan = shared.sessions[0].ok("rename_symbol", rename).await;
        // Another agent adds a use of the old name; the plan is applied at once.
        let extra = format!("src/Shop.App/Fee{n}.cs");
        let call = format!("Shop.Core.Services.PriceCalculator.{name}(1.234m)");
        std::fs::write(shop.path(&extra), user(&format!("Fee{n}"), &call)).expect("write");
        let applied = shared.sessions[1].ok("apply_plan", json!({"planId": plan["planId"]})).await;
        let rebased = &applied["rebased"];
        assert_eq!(rebased["how"], "replayed", "iteration {n}: {applied}");
        let disk: Vec<&Value> = rebased["changedSince"]
            .as_array()
            .expect("changedSince")
            .iter()
            .filter(|c| c["source"] == "disk")
            .collect();
        assert!(disk.iter().any(|c| c["files"].to_string().contains(&extra)), "iteration {n}: {applied}");
        assert!(shop.read(&extra).contains(&format!("PriceCalculator.{next}(1.234m)")), "iteration {n}: not renamed");
        name = next;
    }
    // Two sessions' plans of two symbols, a file using both old names written, both applied at the same moment.
    let mut blank = "IsBlank".to_owned();
    for n in 0..ITERATIONS / 4 {
        let (round_next, blank_next) = (format!("RoundBoth{n}"), format!("Blank{n}"));
        let rename = |file: &str, needle: String, new_name: &str| {
            let (line, column) = shop.position_of(file, &needle, 0);
            json!({"filePath": shop.file(file), "line": line, "column": column, "newName": new_name, "preview": true})
        };
        let (round_plan, blank_plan) = futures::join!(
            shared.sessions[0].ok("rename_symbol", rename(CALCULATOR, format!("{name}(decimal value)"), &round_next)),
            shared.sessions[1].ok("rename_symbol", rename(EXTENSIONS, format!("{blank}(this"), &blank_next))
        );
        let extra = format!("src/Shop.App/Both{n}.cs");
        let call = format!("Shop.Core.Services.PriceCalculator.{name}(1m).ToString().{blank}()");
        std::fs::write(shop.path(&extra), user(&format!("Both{n}"), &call)).expect("write");
        futures::join!(
            shared.sessions[0].ok("apply_plan", json!({"planId": round_plan["planId"]})),
            shared.sessions[1].ok("apply_plan", json!({"planId": blank_plan["planId"]}))
        );
        let text = shop.read(&extra);
        let both = format!("PriceCalculator.{round_next}(1m).ToString().{blank_next}()");
        assert!(text.contains(&both), "pair {n}: both renames reached the new file: {text}");
        (name, blank) = (round_next, blank_next);
    }
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "every replayed rename builds");
    shared.stop().await;
}

/// Commits the copy as `main`, then a branch `many` adding `count` files that call `Shout`, and goes back.
fn branch_with_uses(shop: &Fixture, count: usize) {
    let root = &shop.root;
    std::fs::write(root.join(".gitignore"), "bin/\nobj/\n").expect("gitignore");
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["checkout", "-q", "-b", "many"]);
    for n in 0..count {
        let file = root.join(format!("src/Shop.App/Many/Use{n}.cs"));
        std::fs::create_dir_all(file.parent().expect("folder")).expect("folder");
        std::fs::write(file, user(&format!("Use{n}"), "\"x\".Shout()")).expect("write");
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "many"]);
    git(root, &["checkout", "-q", "main"]);
}

fn uses_of(root: &Path, name: &str) -> usize {
    let many = root.join("src/Shop.App/Many");
    let Ok(entries) = std::fs::read_dir(many) else { return 0 };
    entries.flatten().filter(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(name))).count()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_checkout_of_200_files_between_a_preview_and_its_apply_is_replayed_onto_or_refused_never_landed_broken() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start(1).await;
    let shop = &shared.shop;
    branch_with_uses(shop, 200);
    let (line, column) = shop.position_of(EXTENSIONS, "Shout(", 0);
    let rename = json!({"filePath": shop.file(EXTENSIONS), "line": line, "column": column, "newName": "Bellow",
                        "preview": true});
    let plan = shared.sessions[0].ok("rename_symbol", rename).await;
    git(&shop.root, &["checkout", "-q", "many"]);
    let applied = shared.sessions[0].call("apply_plan", json!({"planId": plan["planId"]})).await;
    if applied.is_error {
        // Refused: nothing of the plan was written.
        assert_eq!(uses_of(&shop.root, ".Shout()"), 200, "{}", applied.value);
        assert!(shop.read(EXTENSIONS).contains("Shout("), "{}", applied.value);
    } else {
        assert_eq!(applied.value["rebased"]["how"], "replayed", "{}", applied.value);
        assert_eq!(uses_of(&shop.root, ".Bellow()"), 200, "every file of the checkout renamed: {}", applied.value);
    }
    assert_eq!(dotnet_build_errors(&shop.path("Shop.sln")).await, 0, "nothing landed broken");
    // And back, the rename dropped: the 200 files go, and the next answer knows it at once.
    git(&shop.root, &["checkout", "-q", "-f", "main"]);
    let found = referencing_files(&shared, 0, EXTENSIONS, "Shout").await;
    assert!(!found.iter().any(|f| f.contains("/Many/")), "{found:?}");
    shared.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_watch_that_lost_events_reads_the_solution_again_and_says_so() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let shared = Shared::start_with(1, &[("ROSLYN_MCP_FAULT_WATCH_OVERFLOW", "OVERFLOW")]).await;
    let shop = &shared.shop;
    referencing_files(&shared, 0, EXTENSIONS, "Shout").await;
    // The watch loses every event while the marker exists, a new use among them; the marker's removal
    // stands for the overflow.
    let marker = shop.path("src/OVERFLOW");
    std::fs::write(&marker, "").expect("marker");
    let lost = shop.path("src/Shop.App/Lost.cs");
    std::fs::write(&lost, user("Lost", "\"x\".Shout()")).expect("write");
    std::fs::remove_file(&marker).expect("overflow");
    let found = referencing_files(&shared, 0, EXTENSIONS, "Shout").await;
    assert!(found.contains(&lost.display().to_string()), "the solution was read again: {found:?}");
    let status = shared.sessions[0].workspace_status(&shop.path("Shop.sln")).await.expect("the workspace");
    assert_eq!(status["watchOverflows"], json!(1), "{status}");
    assert!(shared.state.serve_log().contains("the file watch overflowed"), "the log says so");
    shared.stop().await;
}
