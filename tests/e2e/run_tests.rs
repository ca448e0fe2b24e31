//! run_tests on the Tested fixture (tests/fixtures/Tested/FIXTURE.md): each framework's tests built in the
//! service's copy of the fixture and run with their runner (VSTest, or TUnit's own on
//! Microsoft.Testing.Platform), results read from its TRX; a hanging test named, a test that ends its process
//! reported as crashed, a build error refused with the compiler's errors; the fixture's files never touched,
//! no process of a run left behind but the service's compiler server, and that one gone with the service.

use crate::support::daemon::{Agent, StateDir};
use crate::support::{
    ANSWER_AS_A_WHOLE, Fixture, SLOTS, Server, assert_same_tree, eventually, nothing_left_running,
    processes_mentioning, tree,
};
use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
use rmcp::service::PeerRequestOptions;
use serde_json::{Value, json};
use std::time::Duration;

fn results<'a>(run: &'a Value, test: &str) -> Vec<&'a Value> {
    run["results"].as_array().expect("results").iter().filter(|r| r["test"] == test).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn tests_of_every_framework_run_with_their_cases_and_failures_placed_in_the_source() {
    let _slot = SLOTS.acquire().await.expect("slot");
    let fixture = Fixture::copy("Tested");
    let state = StateDir::default();
    let agent = Agent::default();
    let client = state.bridge_command(agent.clone(), state.bridge_process(&fixture.root, &[ANSWER_AS_A_WHOLE])).await;
    let before = tree(&fixture.root);

    let tests = [
        "Pricing.XunitTests.CartTests.TotalAsksThePricer",
        "Pricing.XunitTests.LabelTests.KnownBroken",
        "Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice",
        "Pricing.MstestTests.CatalogTests.PricesByQuantity",
        "Pricing.TunitTests.QuoteTests.AddsUpWrong",
        "Pricing.TunitTests.QuoteTests.QuotesEachQuantity",
    ];
    let run = client.ok("run_tests", json!({"tests": tests})).await;
    assert_eq!(run["complete"], true, "{run}");
    assert_eq!(
        run["projects"],
        json!(["Pricing.MstestTests", "Pricing.NunitTests", "Pricing.TunitTests", "Pricing.XunitTests"])
    );
    let summary = &run["summary"];
    assert_eq!(
        (summary["total"].clone(), summary["passed"].clone(), summary["failed"].clone()),
        (json!(9), json!(7), json!(2)),
        "{run}"
    );
    // The failures first, each with its message and the test's own frame placed in the fixture.
    let failures = [
        (tests[4], "Expected to be 4", "Pricing.TunitTests/QuoteTests.cs"),
        (tests[1], "Expected: 3", "Pricing.XunitTests/LabelTests.cs"),
    ];
    for (at, (id, said, file)) in failures.into_iter().enumerate() {
        let broken = &run["results"][at];
        assert_eq!((broken["id"].clone(), broken["outcome"].clone()), (json!(id), json!("failed")), "{run}");
        assert!(broken["message"].as_str().is_some_and(|m| m.contains(said)), "{broken}");
        let frame = broken["stackTrace"]
            .as_array()
            .expect("frames")
            .iter()
            .find(|f| f["filePath"].is_string())
            .expect("a placed frame");
        assert_eq!(frame["filePath"], fixture.file(file));
        assert!(frame["line"].as_u64().is_some_and(|l| l > 1), "{frame}");
    }
    let quotes: Vec<&str> = results(&run, tests[5]).iter().map(|r| r["id"].as_str().expect("id")).collect();
    assert_eq!(quotes, [format!("{}(1, 10)", tests[5]), format!("{}(4, 40)", tests[5])], "{run}");
    assert!(results(&run, tests[5]).iter().all(|r| r["targetFramework"] == "net10.0"), "{run}");
    // Parametrized cases each with their arguments, under the test's id.
    let cases: Vec<&str> = results(&run, tests[2]).iter().map(|r| r["id"].as_str().expect("id")).collect();
    assert_eq!(cases, [format!("{}(10)", tests[2]), format!("{}(50)", tests[2])], "{run}");
    assert_eq!(results(&run, tests[3]).len(), 2, "{run}");
    assert!(
        results(&run, tests[3])
            .iter()
            .all(|r| r["targetFramework"] == "net10.0" && r["project"] == "Pricing.MstestTests")
    );
    // The build went to the service's folder: the fixture has no bin or obj, and nothing else changed.
    assert_same_tree(&before, &fixture.root, "run_tests writes nothing into the solution");
    let progress: Vec<String> =
        agent.progress.lock().expect("progress").iter().filter_map(|p| p.message.clone()).collect();
    assert!(progress.iter().any(|m| m.starts_with("Building Pricing.MstestTests (1 of 4)")), "{progress:?}");
    assert!(progress.iter().any(|m| m.starts_with("9 test case(s) finished")), "{progress:?}");

    // A filter in one project; a change's tests, found and run in one call.
    let shouts = client
        .ok("run_tests", json!({"project": "Pricing.XunitTests", "filter": "FullyQualifiedName~LabelTests.Shouts"}))
        .await;
    assert_eq!(
        (shouts["summary"]["passed"].clone(), shouts["summary"]["total"].clone()),
        (json!(2), json!(2)),
        "{shouts}"
    );
    let (line, column) = fixture.position_of("Pricing/Discounts.cs", "Apply(decimal amount)", 1);
    let reached = client
        .ok("run_tests", json!({"filePath": fixture.file("Pricing/Discounts.cs"), "line": line, "column": column}))
        .await;
    assert_eq!(reached["projects"], json!(["Pricing.NunitTests"]), "{reached}");
    assert!(reached["results"].as_array().expect("results").iter().all(|r| r["outcome"] == "passed"), "{reached}");

    // Refusals.
    client.fails("run_tests", json!({"tests": ["Pricing.Nowhere.Missing"]}), "TEST_NOT_FOUND").await;
    client.fails("run_tests", json!({"project": "Pricing"}), "NOT_A_TEST_PROJECT").await;
    client.fails("run_tests", json!({}), "INVALID_PARAMETER").await;
    client.fails("run_tests", json!({"tests": [tests[0]], "filter": "Name=X"}), "INVALID_PARAMETER").await;
    assert_same_tree(&before, &fixture.root, "nothing written");
    nothing_left_running(state.path()).await;
    // The builds' compiler server is the service's own and stays warm between runs; it goes with the service.
    let server = format!("-pipename:roslyn-mcp-{}-", state.daemon_pid().await);
    assert_eq!(processes_mentioning(&server).len(), 1, "one compiler server for the daemon's runs");
    client.close().await;
    state.terminate().await;
    let gone = eventually(Duration::from_secs(10), || async { processes_mentioning(&server).is_empty().then_some(()) });
    assert!(gone.await.is_some(), "the compiler server outlived the service: {:?}", processes_mentioning(&server));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hanging_test_is_named_and_one_that_ends_its_process_is_a_crash_with_the_others_kept() {
    let fixture = Fixture::copy("Tested");
    let state = tempfile::tempdir().expect("state");
    // The run cancelled below is cancelled as a call, before it could answer with its job.
    let env = [("ROSLYN_MCP_STATE_DIR", state.path().to_str().expect("utf-8")), ANSWER_AS_A_WHOLE];
    let server = Server::start_with_env(&fixture.root, &env).await;

    // The fault knob: HangsWhenAsked waits forever while this file exists.
    std::fs::write(fixture.path("Pricing.NunitTests/hang.fault"), "").expect("knob");
    let hang =
        server.fails("run_tests", json!({"project": "Pricing.NunitTests", "testTimeoutSeconds": 5}), "TIMEOUT").await;
    assert_eq!(hang["details"]["test"], "Pricing.NunitTests.DiscountTests.HangsWhenAsked", "{hang}");
    assert_eq!(hang["details"]["limitSeconds"], 5);
    nothing_left_running(state.path()).await;

    // TUnit's runner names no running test: the selected one it never reported is the one that hung, and the
    // results it recovered from its stopped test process are kept.
    std::fs::write(fixture.path("Pricing.TunitTests/hang.fault"), "").expect("knob");
    let quotes = "Pricing.TunitTests.QuoteTests.QuotesEachQuantity";
    let hangs = "Pricing.TunitTests.QuoteTests.HangsWhenAsked";
    let hang = server.fails("run_tests", json!({"tests": [quotes, hangs], "testTimeoutSeconds": 5}), "TIMEOUT").await;
    assert_eq!(hang["details"]["test"], hangs, "{hang}");
    assert_eq!(hang["details"]["resultsSoFar"]["summary"]["passed"], 2, "{hang}");
    nothing_left_running(state.path()).await;

    // Cancelled while the hanging test runs: the runner and its test process go with the call.
    let arguments = json!({"project": "Pricing.NunitTests"}).as_object().cloned().expect("object");
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new("run_tests").with_arguments(arguments),
    ));
    let handle = server.peer().send_cancellable_request(request, PeerRequestOptions::no_options()).await.expect("send");
    let artifacts = state.path().join("test-runs").display().to_string();
    let testing = eventually(Duration::from_secs(120), || async {
        processes_mentioning(&artifacts).iter().any(|p| p.contains("Pricing.NunitTests.dll")).then_some(())
    });
    assert!(testing.await.is_some(), "the NUnit tests never started");
    handle.cancel(Some("the agent moved on".into())).await.expect("cancel");
    nothing_left_running(state.path()).await;

    // ExitsWhenAsked ends its test process while this file exists: it crashed, the cases before it passed.
    std::fs::write(fixture.path("Pricing.MstestTests/exit.fault"), "").expect("knob");
    let run = server.ok("run_tests", json!({"project": "Pricing.MstestTests"})).await;
    let crashed = results(&run, "Pricing.MstestTests.CatalogTests.ExitsWhenAsked");
    assert_eq!(crashed.len(), 1, "{run}");
    assert_eq!(crashed[0]["outcome"], "crashed", "{run}");
    assert_eq!(results(&run, "Pricing.MstestTests.CatalogTests.ApplesCostOne")[0]["outcome"], "passed", "{run}");
    assert_eq!(run["summary"]["crashed"], 1);
    nothing_left_running(state.path()).await;

    std::fs::write(fixture.path("Pricing.TunitTests/exit.fault"), "").expect("knob");
    let exits = "Pricing.TunitTests.QuoteTests.ExitsWhenAsked";
    let run = server.ok("run_tests", json!({"tests": [exits, "Pricing.TunitTests.QuoteTests.AddsUpWrong"]})).await;
    assert_eq!(results(&run, exits)[0]["outcome"], "crashed", "{run}");
    nothing_left_running(state.path()).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn build_errors_are_refused_with_their_places_long_answers_list_failures_and_runs_can_be_off() {
    let fixture = Fixture::copy("Tested");
    // A response cap that a list of every passed case does not fit under.
    let server = Server::start_with_env(&fixture.root, &[("ROSLYN_MCP_MAX_RESPONSE_BYTES", "1500")]).await;
    let pricer = fixture.path("Pricing/Pricer.cs");
    let text = std::fs::read_to_string(&pricer).expect("read");
    std::fs::write(&pricer, text.replacen("return", "return return", 1)).expect("break it");
    let before = tree(&fixture.root);
    let refused = server.fails("run_tests", json!({"project": "Pricing.XunitTests"}), "BUILD_FAILED").await;
    let error = &refused["details"]["errors"][0];
    assert_eq!(error["filePath"], fixture.file("Pricing/Pricer.cs"), "{refused}");
    assert!(error["code"].as_str().is_some_and(|c| c.starts_with("CS")), "{refused}");
    assert_same_tree(&before, &fixture.root, "a failed build writes nothing into the solution");

    // Fixed, it runs; the failure is listed whole and the passed cases, which do not fit, are counted.
    std::fs::write(&pricer, &text).expect("fix it");
    let run = server.ok("run_tests", json!({"project": "Pricing.XunitTests"})).await;
    assert_eq!((run["summary"]["passed"].clone(), run["passedOmitted"].clone()), (json!(5), json!(5)), "{run}");
    let listed: Vec<&Value> = run["results"].as_array().expect("results").iter().collect();
    assert_eq!(listed.len(), 1, "{run}");
    assert_eq!(listed[0]["id"], "Pricing.XunitTests.LabelTests.KnownBroken");

    // The copy was restored once; a project file that now asks for another package has it restored again.
    let project = fixture.path("Pricing.XunitTests/Pricing.XunitTests.csproj");
    let xml = std::fs::read_to_string(&project).expect("read");
    let nunit = r#"<PackageReference Include="NUnit" Version="4.4.0" />"#;
    std::fs::write(&project, xml.replacen("<PackageReference ", &format!("{nunit}\n    <PackageReference "), 1))
        .expect("add a package");
    std::fs::write(
        fixture.path("Pricing.XunitTests/PackageTests.cs"),
        "namespace Pricing.XunitTests;\npublic class PackageTests\n{\n    [Xunit.Fact]\n    public void SeesNUnit() => \
         Xunit.Assert.Equal(\"TestAttribute\", typeof(NUnit.Framework.TestAttribute).Name);\n}\n",
    )
    .expect("a test using it");
    let run = server
        .ok("run_tests", json!({"project": "Pricing.XunitTests", "filter": "FullyQualifiedName~PackageTests"}))
        .await;
    assert_eq!((run["summary"]["passed"].clone(), run["summary"]["total"].clone()), (json!(1), json!(1)), "{run}");
    server.stop().await;

    let off = Server::start_with_env(&fixture.root, &[("ROSLYN_MCP_TEST_RUNS", "false")]).await;
    let refused = off.fails("run_tests", json!({"project": "Pricing.XunitTests"}), "TEST_RUNS_DISABLED").await;
    assert!(refused["message"].as_str().is_some_and(|m| m.contains("does not run tests")), "{refused}");
    off.stop().await;
}
