//! The runner's structured output: VSTest's TRX files (each case's outcome, time, message and stack trace)
//! and the blame collector's sequence files (the tests a test process was running when it died or hung).

mod xml;

use protocol::tools::testing::TestOutcome;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// The most of a failure's message, and of its stack trace, an answer carries: the start is kept.
const TEXT_LIMIT: usize = 64 * 1024;
/// The most of all failures' texts one run's reports keep: past it a case's text is only where it was cut.
const REPORT_TEXT: usize = 16 * 1024 * 1024;
/// A report is read in chunks of this size.
const CHUNK: usize = 64 * 1024;

/// One case as the TRX reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    /// The case, arguments included.
    pub id: String,
    /// Its test method, `Namespace.Class.Method`.
    pub test: String,
    pub target_framework: Option<String>,
    pub outcome: TestOutcome,
    pub duration_ms: Option<u64>,
    pub message: Option<String>,
    pub stack_trace: Option<String>,
}

/// What one run of a test project left in its results folder.
#[derive(Debug, Default)]
pub struct RunReport {
    pub cases: Vec<CaseResult>,
    /// Tests a test process had started and not finished when it died: `(test method, case)`.
    pub unfinished: Vec<(String, String)>,
    /// The blame collector stopped a test that ran past the hang limit.
    pub hung: bool,
    /// The runner stopped the session at its time limit.
    pub timed_out: bool,
    /// Why the run was aborted, as the runner said it.
    pub aborted: Vec<String>,
}

/// Reads every TRX and sequence file under `dir`, each streamed: a report of any size is read in bounded memory.
pub fn read(dir: &Path) -> std::io::Result<RunReport> {
    let mut report = RunReport::default();
    let mut budget = REPORT_TEXT;
    for path in files(dir)? {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let open = || Ok::<_, std::io::Error>(BufReader::with_capacity(CHUNK, File::open(&path)?));
        if name.ends_with(".trx") {
            let framework = framework_of(name);
            parse_trx(open()?, framework.as_deref(), &mut report, &mut budget).map_err(std::io::Error::other)?;
        } else if name.starts_with("Sequence_") && name.ends_with(".xml") {
            report.unfinished.extend(parse_sequence(open()?).map_err(std::io::Error::other)?);
        }
    }
    report.unfinished.sort();
    report.unfinished.dedup();
    Ok(report)
}

/// The files under `dir`, at any depth (the blame collector nests its attachments), symlinks not followed.
fn files(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// VSTest names a run's TRX `<user>_<machine>_<time>_<tfm>.trx`.
fn framework_of(file_name: &str) -> Option<String> {
    let stem = file_name.strip_suffix(".trx")?;
    stem.rsplit('_').next().filter(|last| is_framework(last)).map(str::to_owned)
}

/// The target framework of an assembly in a standard output folder (`bin/Debug/net10.0/Tests.dll`), for a
/// runner that does not name it (the platform's TRX of a single-targeted project).
fn framework_folder(assembly: &str) -> Option<&str> {
    Path::new(assembly).parent()?.file_name()?.to_str().filter(|folder| is_framework(folder))
}

/// `net8.0`, `net10.0`, `net48`: a target framework moniker as folders and file names carry it.
fn is_framework(name: &str) -> bool {
    name.starts_with("net") && name.len() > 3
}

/// A result as the TRX lists it, before its test's definition (which follows the results) names it.
#[derive(Default)]
struct Listed {
    test_id: Option<String>,
    name: String,
    outcome: String,
    duration: Option<String>,
    /// Its first `ErrorInfo` (an inner result's, for a data-driven one without its own) was read.
    has_error: bool,
    message: Option<String>,
    stack_trace: Option<String>,
}

/// A TRX read element by element: the results (nested for MSTest's data rows), the tests' definitions, and
/// the run's notes.
fn parse_trx(
    source: impl BufRead,
    framework: Option<&str>,
    report: &mut RunReport,
    budget: &mut usize,
) -> Result<(), xml::Error> {
    let mut events = xml::Events::new(source)?;
    // UnitTest id → its class, method and the target framework its assembly was built for.
    let mut methods: HashMap<String, (String, String, Option<String>)> = HashMap::new();
    let mut listed: Vec<Listed> = Vec::new();
    // The results open now (indices into `listed`), those the open ErrorInfo belongs to, the open UnitTest.
    let (mut open, mut erring, mut unit) = (Vec::<usize>::new(), Vec::<usize>::new(), None::<String>);
    let mut run_info: Option<(Option<String>, Option<String>)> = None;
    let mut parents: Vec<String> = Vec::new();
    while let Some(node) = events.next()? {
        let element = match node {
            xml::Node::Close(name) => {
                parents.pop();
                match name.as_str() {
                    "UnitTestResult" => _ = open.pop(),
                    "ErrorInfo" => erring.clear(),
                    "UnitTest" => unit = None,
                    "RunInfo" => run_note(report, run_info.take()),
                    _ => {}
                }
                continue;
            }
            xml::Node::Open(element) => element,
        };
        let parent = parents.last().map(String::as_str);
        match (element.name.as_str(), parent) {
            ("UnitTestResult", _) => {
                open.push(listed.len());
                listed.push(Listed {
                    test_id: element.attribute("testId").map(str::to_owned),
                    name: element.attribute("testName").unwrap_or_default().to_owned(),
                    outcome: element.attribute("outcome").unwrap_or_default().to_owned(),
                    duration: element.attribute("duration").map(str::to_owned),
                    ..Listed::default()
                });
            }
            ("ErrorInfo", _) => {
                erring = open.iter().copied().filter(|&at| !listed[at].has_error).collect();
                erring.iter().for_each(|&at| listed[at].has_error = true);
            }
            ("Message" | "StackTrace", Some("ErrorInfo")) if !erring.is_empty() => {
                let text = cut(events.text(TEXT_LIMIT.min(*budget))?, budget);
                for &at in &erring {
                    let field =
                        if element.name == "Message" { &mut listed[at].message } else { &mut listed[at].stack_trace };
                    if field.is_none() {
                        field.clone_from(&text);
                    }
                }
            }
            ("UnitTest", _) => unit = element.attribute("id").map(str::to_owned),
            ("TestMethod", Some("UnitTest")) => {
                if let Some(id) = unit.take() {
                    let built_for = element.attribute("codeBase").and_then(framework_folder).map(str::to_owned);
                    let class = element.attribute("className").unwrap_or_default().to_owned();
                    methods.insert(id, (class, element.attribute("name").unwrap_or_default().to_owned(), built_for));
                }
            }
            ("RunInfo", _) => run_info = Some((element.attribute("outcome").map(str::to_owned), None)),
            ("Text", _) => {
                if let Some((_, said @ None)) = &mut run_info {
                    *said = Some(cut(events.text(TEXT_LIMIT.min(*budget))?, budget).unwrap_or_default());
                }
            }
            _ => {}
        }
        parents.push(element.name);
    }
    for result in listed {
        let (class, method, built_for) = match result.test_id.as_ref().and_then(|id| methods.get(id)) {
            Some((class, method, built_for)) => (class.as_str(), method.as_str(), built_for.as_deref()),
            None => ("", result.name.as_str(), None),
        };
        let test = format!("{class}.{}", without_arguments(method));
        // xunit names a case by its full name, NUnit and MSTest by the method's.
        let id = if class.is_empty() || result.name.starts_with(&format!("{class}.")) {
            result.name.clone()
        } else {
            format!("{class}.{}", result.name)
        };
        report.cases.push(CaseResult {
            id,
            test,
            target_framework: framework.or(built_for).map(str::to_owned),
            outcome: outcome(&result.outcome),
            duration_ms: result.duration.as_deref().and_then(duration_ms),
            message: result.message,
            stack_trace: result.stack_trace,
        });
    }
    Ok(())
}

/// A failure's text as the answer carries it: its start, and where it was cut, how much there was.
fn cut(text: xml::Text, budget: &mut usize) -> Option<String> {
    *budget = budget.saturating_sub(text.kept.len());
    let kept = text.kept.trim_end();
    if text.cut {
        let line = if kept.is_empty() { "" } else { "\n" };
        Some(format!("{kept}{line}[… cut: {} of {} bytes kept]", kept.len(), text.total))
    } else {
        Some(kept.to_owned()).filter(|t| !t.is_empty())
    }
}

/// What a `RunInfo` said: a hang, the session's time limit, or why the run was aborted.
fn run_note(report: &mut RunReport, info: Option<(Option<String>, Option<String>)>) {
    let Some((outcome, said)) = info else { return };
    let said = said.unwrap_or_default();
    if said.contains("inactivity time") {
        report.hung = true;
    }
    if said.contains("test run timeout") {
        report.timed_out = true;
    }
    if outcome.as_deref() == Some("Error") {
        report.aborted.push(said);
    }
}

/// The tests of a sequence file that started and never completed.
fn parse_sequence(source: impl BufRead) -> Result<Vec<(String, String)>, xml::Error> {
    let mut events = xml::Events::new(source)?;
    let mut unfinished = Vec::new();
    while let Some(node) = events.next()? {
        let xml::Node::Open(test) = node else { continue };
        if test.name != "Test" || test.attribute("Completed") != Some("False") {
            continue;
        }
        let Some(name) = test.attribute("Name") else { continue };
        let display = test.attribute("DisplayName").unwrap_or(name);
        let case = if display.starts_with(name) { display.to_owned() } else { format!("{name}{}", case_of(display)) };
        unfinished.push((without_arguments(name).to_owned(), case));
    }
    Ok(unfinished)
}

/// `Method (1,2)` or `Method(1,2)`: the arguments part, as `(1,2)`.
fn case_of(display: &str) -> &str {
    display.find('(').map_or("", |at| &display[at..])
}

/// NUnit names a parametrized case's method with its arguments: `Method(1,2)` → `Method`.
fn without_arguments(method: &str) -> &str {
    method.find('(').map_or(method, |at| method[..at].trim_end())
}

fn outcome(trx: &str) -> TestOutcome {
    match trx {
        "Passed" | "PassedButRunAborted" => TestOutcome::Passed,
        "NotExecuted" | "Inconclusive" | "Pending" | "NotRunnable" | "Disconnected" | "Warning" => TestOutcome::Skipped,
        "Aborted" => TestOutcome::Crashed,
        _ => TestOutcome::Failed,
    }
}

/// `hh:mm:ss.fffffff`.
fn duration_ms(text: &str) -> Option<u64> {
    let mut parts = text.split(':');
    let (hours, minutes, seconds) = (parts.next()?, parts.next()?, parts.next()?);
    let seconds: f64 = seconds.parse().ok()?;
    let whole = hours.parse::<u64>().ok()? * 3600 + minutes.parse::<u64>().ok()? * 60;
    Some(whole * 1000 + (seconds * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRX: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results>
    <UnitTestResult testId="a" testName="SmallAmountsKeepTheirPrice(10)" duration="00:00:01.5072020" outcome="Passed" />
    <UnitTestResult testId="b" testName="Pricing.XunitTests.LabelTests.KnownBroken" duration="00:00:00.0047750" outcome="Failed">
      <Output><ErrorInfo><Message>Assert.Equal() Failure
Expected: 3</Message><StackTrace>   at Pricing.XunitTests.LabelTests.KnownBroken() in /w/LabelTests.cs:line 26
</StackTrace></ErrorInfo></Output>
    </UnitTestResult>
    <UnitTestResult testId="c" testName="Ignored" outcome="NotExecuted" />
  </Results>
  <TestDefinitions>
    <UnitTest id="a"><TestMethod className="Pricing.NunitTests.DiscountTests" name="SmallAmountsKeepTheirPrice(10)" /></UnitTest>
    <UnitTest id="b"><TestMethod className="Pricing.XunitTests.LabelTests" name="KnownBroken" /></UnitTest>
    <UnitTest id="c"><TestMethod className="Pricing.NunitTests.DiscountTests" name="Ignored" /></UnitTest>
  </TestDefinitions>
  <ResultSummary outcome="Failed"><RunInfos>
    <RunInfo outcome="Error"><Text>The active test run was aborted. Reason: Test host process crashed</Text></RunInfo>
    <RunInfo outcome="Warning"><Text>Data collector 'Blame' message: The specified inactivity time of 5 seconds has elapsed.</Text></RunInfo>
  </RunInfos></ResultSummary>
</TestRun>"#;

    #[test]
    fn each_case_is_named_with_its_arguments_under_its_method() {
        let mut report = RunReport::default();
        parse_trx(TRX.as_bytes(), Some("net10.0"), &mut report, &mut REPORT_TEXT.clone()).expect("parses");
        let names: Vec<(&str, &str, TestOutcome)> =
            report.cases.iter().map(|c| (c.id.as_str(), c.test.as_str(), c.outcome)).collect();
        assert_eq!(
            names,
            [
                (
                    "Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice(10)",
                    "Pricing.NunitTests.DiscountTests.SmallAmountsKeepTheirPrice",
                    TestOutcome::Passed
                ),
                (
                    "Pricing.XunitTests.LabelTests.KnownBroken",
                    "Pricing.XunitTests.LabelTests.KnownBroken",
                    TestOutcome::Failed
                ),
                (
                    "Pricing.NunitTests.DiscountTests.Ignored",
                    "Pricing.NunitTests.DiscountTests.Ignored",
                    TestOutcome::Skipped
                ),
            ]
        );
        assert_eq!(report.cases[0].duration_ms, Some(1507));
        assert_eq!(report.cases[1].message.as_deref(), Some("Assert.Equal() Failure\nExpected: 3"));
        assert!(report.cases[1].stack_trace.as_deref().is_some_and(|s| s.ends_with("line 26")));
        assert!(report.hung && !report.timed_out);
        assert_eq!(report.aborted, ["The active test run was aborted. Reason: Test host process crashed"]);
    }

    #[test]
    fn a_sequence_names_the_tests_that_never_completed_with_their_case() {
        let text = r#"<?xml version="1.0"?><TestSequence>
  <Test Name="Pricing.MstestTests.CatalogTests.PricesByQuantity" DisplayName="PricesByQuantity (1,10)" Completed="True" />
  <Test Name="Pricing.MstestTests.CatalogTests.PricesByQuantity" DisplayName="PricesByQuantity (2,20)" Completed="False" />
</TestSequence>"#;
        assert_eq!(
            parse_sequence(text.as_bytes()).expect("parses"),
            [(
                "Pricing.MstestTests.CatalogTests.PricesByQuantity".to_owned(),
                "Pricing.MstestTests.CatalogTests.PricesByQuantity(2,20)".to_owned()
            )]
        );
    }

    #[test]
    fn the_framework_comes_from_the_file_name_else_from_the_assembly_folder() {
        assert_eq!(framework_of("_vm_2026-11-26_17_43_35_net10.0.trx").as_deref(), Some("net10.0"));
        assert_eq!(framework_of("results.trx"), None);
        // The platform's TRX of a single-targeted project: `run_default.trx`, the assembly in its output folder.
        let platform = r#"<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>
    <UnitTestResult testId="q" testName="QuotesEachQuantity(1, 10)" outcome="Passed" /></Results>
  <TestDefinitions><UnitTest id="q">
    <TestMethod codeBase="/c/Pricing.TunitTests/bin/Debug/net10.0/Pricing.TunitTests.dll" className="Pricing.TunitTests.QuoteTests" name="QuotesEachQuantity" />
  </UnitTest></TestDefinitions></TestRun>"#;
        let mut report = RunReport::default();
        let framework = framework_of("run_default.trx");
        parse_trx(platform.as_bytes(), framework.as_deref(), &mut report, &mut REPORT_TEXT.clone()).expect("parses");
        let case = &report.cases[0];
        assert_eq!(case.id, "Pricing.TunitTests.QuoteTests.QuotesEachQuantity(1, 10)");
        assert_eq!(case.target_framework.as_deref(), Some("net10.0"));
    }

    #[test]
    fn a_long_failure_keeps_the_start_of_its_message_and_trace_and_says_where_it_was_cut() {
        let long = format!("START{}", "x".repeat(TEXT_LIMIT));
        let trx = TRX.replace("Expected: 3", &long).replace("   at Pricing", &format!("{long}\n   at Pricing"));
        let mut report = RunReport::default();
        let mut budget = REPORT_TEXT;
        parse_trx(trx.as_bytes(), None, &mut report, &mut budget).expect("parses");
        let failed = &report.cases[1];
        for text in [&failed.message, &failed.stack_trace] {
            let text = text.as_deref().expect("a text");
            let (kept, said) = text.split_once("\n[… cut: ").expect("a marker at the cut");
            assert_eq!(kept.len(), TEXT_LIMIT);
            assert!(kept.starts_with("Assert.Equal() Failure\nSTART") || kept.starts_with("START"), "{kept:.40}");
            assert!(said.starts_with(&format!("{TEXT_LIMIT} of ")), "{said}");
        }
        assert!(REPORT_TEXT - budget >= 2 * TEXT_LIMIT, "the kept texts count against the run's budget");

        // Past the run's budget a case's text is only where it was cut.
        let mut report = RunReport::default();
        parse_trx(trx.as_bytes(), None, &mut report, &mut 10).expect("parses");
        let message = report.cases[1].message.as_deref().expect("a message");
        assert!(message.starts_with("Assert.Equ\n[… cut: 10 of "), "{message}");
        let trace = report.cases[1].stack_trace.as_deref().expect("a trace");
        assert!(trace.starts_with("[… cut: 0 of "), "{trace}");
    }
}
