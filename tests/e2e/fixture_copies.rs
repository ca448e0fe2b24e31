//! The harness's copies of a fixture: one comes restored, its restore output naming its own folder, and loads
//! without a restore; one left unrestored is restored by the service as it loads.

use crate::support::{Fixture, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_restored_copy_loads_without_a_restore_and_an_unrestored_one_is_restored_as_it_loads() {
    let restored = Fixture::copy("Shop");
    let root = restored.root.display().to_string();
    for project in ["Shop.App", "Shop.Core", "Shop.Data"] {
        let assets = restored.read(&format!("src/{project}/obj/project.assets.json"));
        // Every temporary folder the assets name is the copy's: none is the folder the fixture was restored in.
        let named = assets.matches("/roslyn-mcp-e2e-").count();
        assert!(named > 0 && assets.matches(&root).count() == named, "{project}'s assets name another folder");
    }
    let unrestored = Fixture::unrestored("Shop");
    assert!(!unrestored.path("src/Shop.App/obj").exists(), "the unrestored copy has restore output");

    for (copy, restores) in [(&restored, false), (&unrestored, true)] {
        let server = Server::start(&copy.root, &[]).await;
        let answer = server.ok("get_compilation_diagnostics", json!({"solutionPath": copy.file("Shop.sln")})).await;
        assert_eq!(answer["errorCount"], json!(0), "{answer}");
        let log = std::fs::read_to_string(&server.log).expect("the service's log");
        assert_eq!(log.contains("roslyn-host: restoring /"), restores, "{}", server.log.display());
        server.stop().await;
    }
}
