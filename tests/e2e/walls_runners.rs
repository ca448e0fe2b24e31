//! Test runners held to what they are given: a filter reaches the runner as one value, and a huge failure message is cut, never read whole.
//!
//! Both on tests/fixtures/Runners (FIXTURE.md): a project the service runs as TUnit's own runner on
//! Microsoft.Testing.Platform, whose program fails a test with the arguments it was given, and another with
//! a 100 MB message.

use crate::support::{Fixture, Server, memory_kib};
use serde_json::{Value, json};

fn result<'a>(run: &'a Value, test: &str) -> &'a Value {
    let results = run["results"].as_array().expect("results");
    let found: Vec<&Value> = results.iter().filter(|r| r["test"] == test).collect();
    assert_eq!(found.len(), 1, "{test} once in {}", run["summary"]);
    found[0]
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tunit_filter_can_name_no_option_or_response_file_of_the_runner() {
    let fixture = Fixture::copy("Runners");
    let server = Server::start(&fixture.root, &[]).await;
    let planted = tempfile::tempdir().expect("temp dir");
    let elsewhere = planted.path().join("elsewhere");
    let rsp = planted.path().join("evil.rsp");
    std::fs::write(&rsp, format!("--results-directory\n{}\n", elsewhere.display())).expect("response file");

    // Read as arguments of their own, each would be a response file or an option of the platform.
    let rsp = format!("@{}", rsp.display());
    let options = [
        rsp.clone(),
        format!("--results-directory={}", elsewhere.display()),
        format!("--diagnostic-output-directory={}", elsewhere.display()),
        format!("--config-file={}", planted.path().join("testconfig.json").display()),
        format!("  -d {}", elsewhere.display()),
    ];
    for filter in options {
        let refused = server
            .fails("run_tests", json!({"project": "Fake.TunitTests", "filter": filter}), "INVALID_PARAMETER")
            .await;
        assert_eq!(refused["details"]["field"], "filter", "{refused}");
    }
    assert!(!elsewhere.exists(), "a refused filter reached a runner");

    // Inside a filter they are its text: the runner gets one `--treenode-filter=` argument holding it whole.
    let filter = format!("/*/Fake/Runner/Records {rsp} --results-directory={}", elsewhere.display());
    let run = server.ok("run_tests", json!({"project": "Fake.TunitTests", "filter": filter})).await;
    let records = result(&run, "Fake.Runner.Records");
    let said = records["message"].as_str().expect("the runner's arguments");
    let arguments: Vec<String> = serde_json::from_str(said).expect("a JSON array of the arguments");
    let filters: Vec<&String> = arguments.iter().filter(|a| a.contains("treenode-filter")).collect();
    assert_eq!(filters, [&format!("--treenode-filter={filter}")], "{arguments:?}");
    assert!(!arguments.iter().any(|a| a.starts_with('@')), "{arguments:?}");
    let results_directories: Vec<&String> = arguments.iter().filter(|a| a.starts_with("--results-directory")).collect();
    assert_eq!(results_directories, ["--results-directory"], "only the service's own: {arguments:?}");
    assert!(!elsewhere.exists(), "the filter's text reached the runner as an option");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_100_mb_failure_message_is_listed_cut_to_its_start_and_never_held_whole() {
    const MESSAGE_BYTES: u64 = 100_000_008;
    let fixture = Fixture::copy("Runners");
    let server = Server::start(&fixture.root, &[]).await;
    let before = memory_kib(server.pid, "VmHWM");

    let run = server.ok("run_tests", json!({"tests": ["Fake.Runner.Floods"]})).await;
    assert_eq!(run.get("resultsOmitted"), None, "none left out: {}", run["summary"]);
    let floods = result(&run, "Fake.Runner.Floods");
    assert_eq!(floods["outcome"], "failed");
    let message = floods["message"].as_str().expect("a message");
    let (kept, marker) = message.split_once("\n[… cut: ").expect("a marker where it was cut");
    assert_eq!(kept.len(), 64 * 1024, "its first 64 KiB");
    assert!(kept.starts_with("STARTxxx") && !message.contains("END"), "{:.100}", kept);
    assert_eq!(marker, format!("65536 of {MESSAGE_BYTES} bytes kept]"));
    let frames: Vec<&str> =
        floods["stackTrace"].as_array().expect("frames").iter().map(|f| f["text"].as_str().expect("text")).collect();
    assert_eq!(frames.first(), Some(&"at Fake.Runner.Floods()"), "{:.200}", frames.join("|"));
    assert!(frames.last().is_some_and(|f| f.starts_with("[… cut: ")), "the trace is cut too");
    assert!(frames.iter().map(|f| f.len()).sum::<usize>() <= 64 * 1024 + 100, "the trace's first 64 KiB");

    // The 200 MB report was streamed: the service's peak memory grew by less than the message alone.
    let grown = memory_kib(server.pid, "VmHWM").saturating_sub(before);
    assert!(grown * 1024 < MESSAGE_BYTES, "the service's peak grew by {grown} KiB");
    server.stop().await;
}
