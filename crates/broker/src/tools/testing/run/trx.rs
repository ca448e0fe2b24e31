//! The runner's structured output: VSTest's TRX files (each case's outcome, time, message and stack trace)
//! and the blame collector's sequence files (the tests a test process was running when it died or hung).

use protocol::tools::testing::TestOutcome;
use std::collections::HashMap;
use std::path::Path;

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

/// Reads every TRX and sequence file under `dir`.
pub fn read(dir: &Path) -> std::io::Result<RunReport> {
    let mut report = RunReport::default();
    for path in files(dir)? {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.ends_with(".trx") {
            let text = std::fs::read_to_string(&path)?;
            let framework = framework_of(name);
            parse_trx(&text, framework.as_deref(), &mut report).map_err(std::io::Error::other)?;
        } else if name.starts_with("Sequence_") && name.ends_with(".xml") {
            let text = std::fs::read_to_string(&path)?;
            report.unfinished.extend(parse_sequence(&text).map_err(std::io::Error::other)?);
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

fn parse_trx(text: &str, framework: Option<&str>, report: &mut RunReport) -> Result<(), roxmltree::Error> {
    let document = roxmltree::Document::parse(text)?;
    let element = |name: &'static str| move |n: &roxmltree::Node| n.has_tag_name(name);
    // UnitTest id → its class, method and the target framework its assembly was built for.
    let mut methods: HashMap<&str, (&str, &str, Option<&str>)> = HashMap::new();
    for test in document.descendants().filter(element("UnitTest")) {
        if let (Some(id), Some(method)) = (test.attribute("id"), test.children().find(element("TestMethod"))) {
            let built_for = method.attribute("codeBase").and_then(framework_folder);
            methods.insert(
                id,
                (
                    method.attribute("className").unwrap_or_default(),
                    method.attribute("name").unwrap_or_default(),
                    built_for,
                ),
            );
        }
    }
    for result in document.descendants().filter(element("UnitTestResult")) {
        let name = result.attribute("testName").unwrap_or_default();
        let (class, method, built_for) =
            result.attribute("testId").and_then(|id| methods.get(id)).copied().unwrap_or(("", name, None));
        let test = format!("{class}.{}", without_arguments(method));
        // xunit names a case by its full name, NUnit and MSTest by the method's.
        let id = if class.is_empty() || name.starts_with(&format!("{class}.")) {
            name.to_owned()
        } else {
            format!("{class}.{name}")
        };
        let error = result.descendants().find(element("ErrorInfo"));
        let text_of = |tag: &'static str| {
            error
                .and_then(|e| e.children().find(element(tag)))
                .and_then(|n| n.text())
                .map(|t| t.trim_end().to_owned())
                .filter(|t| !t.is_empty())
        };
        report.cases.push(CaseResult {
            id,
            test,
            target_framework: framework.or(built_for).map(str::to_owned),
            outcome: outcome(result.attribute("outcome").unwrap_or_default()),
            duration_ms: result.attribute("duration").and_then(duration_ms),
            message: text_of("Message"),
            stack_trace: text_of("StackTrace"),
        });
    }
    for info in document.descendants().filter(element("RunInfo")) {
        let said = info.descendants().find(element("Text")).and_then(|t| t.text()).unwrap_or_default();
        if said.contains("inactivity time") {
            report.hung = true;
        }
        if said.contains("test run timeout") {
            report.timed_out = true;
        }
        if info.attribute("outcome") == Some("Error") {
            report.aborted.push(said.to_owned());
        }
    }
    Ok(())
}

/// The tests of a sequence file that started and never completed.
fn parse_sequence(text: &str) -> Result<Vec<(String, String)>, roxmltree::Error> {
    let document = roxmltree::Document::parse(text)?;
    Ok(document
        .descendants()
        .filter(|n| n.has_tag_name("Test") && n.attribute("Completed") == Some("False"))
        .filter_map(|n| {
            let name = n.attribute("Name")?;
            let display = n.attribute("DisplayName").unwrap_or(name);
            let case =
                if display.starts_with(name) { display.to_owned() } else { format!("{name}{}", case_of(display)) };
            Some((without_arguments(name).to_owned(), case))
        })
        .collect())
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
        parse_trx(TRX, Some("net10.0"), &mut report).expect("parses");
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
            parse_sequence(text).expect("parses"),
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
        parse_trx(platform, framework_of("run_default.trx").as_deref(), &mut report).expect("parses");
        let case = &report.cases[0];
        assert_eq!(case.id, "Pricing.TunitTests.QuoteTests.QuotesEachQuantity(1, 10)");
        assert_eq!(case.target_framework.as_deref(), Some("net10.0"));
    }
}
