//! Projects that are their own test runner on Microsoft.Testing.Platform (TUnit): started with `dotnet run`,
//! once per target framework, selected by a tree-node filter, their results in the platform's TRX report.

use super::settings::escape;
use super::trx::RunReport;
use protocol::host::TestFramework;
use protocol::{ErrorCode, ToolError};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::Path;
use std::process::ExitStatus;

/// The platform's exit code when its test process ended without finishing the session.
const TEST_HOST_CRASHED: i32 = 7;

/// What a project's tests run on, by the frameworks that declare them: TUnit only on the platform.
pub fn runs_on_platform(frameworks: &[TestFramework]) -> bool {
    frameworks.contains(&TestFramework::TUnit)
}

/// The arguments after `dotnet run --project P --no-build [-f tfm] --`: the TRX named for the target framework
/// (as VSTest names its own, `…_<tfm>.trx`), each finished test printed (the watchdog's sign of life).
pub fn arguments(results: &Path, target_framework: Option<&str>, filter: Option<&str>) -> Vec<OsString> {
    let trx = format!("run_{}.trx", target_framework.unwrap_or("default"));
    let mut args: Vec<OsString> = vec!["--results-directory".into(), results.into()];
    args.extend(["--report-trx", "--report-trx-filename", &trx, "--progress", "off", "--no-ansi"].map(OsString::from));
    args.extend(["--output", "detailed"].map(OsString::from));
    if let Some(filter) = filter {
        // One argument: the platform takes what follows `=` as the option's value whole, where a separate
        // argument would start an option of its own at `-` or name a response file at `@`.
        let mut option = OsString::from("--treenode-filter=");
        option.push(filter);
        args.push(option);
    }
    args
}

/// A caller's filter the platform would read as an option (`--results-directory=/elsewhere`) or a response
/// file (`@/tmp/evil.rsp`) is refused before anything runs, whichever runner the projects use.
pub fn check_filter(filter: &str) -> Result<(), ToolError> {
    match filter.trim_start().chars().next() {
        Some(first @ ('-' | '@')) => Err(ToolError::new(
            ErrorCode::INVALID_PARAMETER,
            format!("filter cannot start with '{first}': a test runner would read it as an option or a response file"),
        )
        .detail("field", "filter")
        .suggest("Give a VSTest filter expression (FullyQualifiedName~Name) or a tree-node filter (/*/Namespace/Class/Method)")),
        _ => Ok(()),
    }
}

/// Whether the run's test process died before the session ended (`Environment.Exit`, a crash).
pub fn crashed(status: ExitStatus) -> bool {
    status.code() == Some(TEST_HOST_CRASHED)
}

/// A platform run names no test its process was running when it was stopped (`hung`) or died (`crashed`): the
/// selected tests it did not report are those, as the runner recovers the finished ones from its stream.
pub fn unfinished(report: &mut RunReport, tests: &BTreeMap<String, TestFramework>, hung: bool, crashed: bool) {
    if !(hung || crashed) {
        return;
    }
    let reported: BTreeSet<&str> = report.cases.iter().map(|c| c.test.as_str()).collect();
    let missing: Vec<(String, String)> =
        tests.keys().filter(|t| !reported.contains(t.as_str())).map(|t| (t.clone(), t.clone())).collect();
    report.unfinished.extend(missing);
    report.hung |= hung;
    if crashed {
        report.aborted.push("the test process ended before the session did".to_owned());
    }
}

/// A tree-node filter (`/assembly/namespace/class/method`) taking every selected test: one alternative list
/// per level, so a test of another class with a selected test's name may run too (it is not reported).
pub fn tree_filter(tests: &BTreeMap<String, TestFramework>) -> Option<String> {
    let mut levels: [BTreeSet<&str>; 3] = Default::default();
    for name in tests.keys() {
        let (rest, method) = name.rsplit_once('.').unwrap_or(("", name));
        let (namespace, class) = rest.rsplit_once('.').unwrap_or(("", rest));
        for (level, part) in levels.iter_mut().zip([namespace, class, method]) {
            level.insert(part);
        }
    }
    if tests.is_empty() {
        return None;
    }
    let level = |parts: &BTreeSet<&str>| {
        let parts: Vec<String> = parts.iter().map(|p| escape(p, OPERATORS)).collect();
        if parts.len() == 1 { parts[0].clone() } else { format!("({})", parts.join(")|(")) }
    };
    Some(format!("/*/{}/{}/{}", level(&levels[0]), level(&levels[1]), level(&levels[2])))
}

/// The tree-node filter's operators.
const OPERATORS: &[char] = &['\\', '/', '(', ')', '&', '|', '*', '[', ']', '=', '!'];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_takes_each_level_of_every_selected_test() {
        let tests = |names: &[&str]| names.iter().map(|n| (n.to_string(), TestFramework::TUnit)).collect();
        assert_eq!(tree_filter(&BTreeMap::new()), None);
        assert_eq!(
            tree_filter(&tests(&["Pricing.TunitTests.QuoteTests.AddsUpWrong"])).as_deref(),
            Some("/*/Pricing.TunitTests/QuoteTests/AddsUpWrong")
        );
        assert_eq!(
            tree_filter(&tests(&["A.B.C.M1", "A.B.D.M2", "X.E.M1"])).as_deref(),
            Some("/*/(A.B)|(X)/(C)|(D)|(E)/(M1)|(M2)")
        );
    }

    #[test]
    fn a_filter_reaches_the_platform_as_the_value_of_one_option() {
        let args = arguments(Path::new("/r"), None, Some("/*/A/B/C --results-directory=/elsewhere @/tmp/evil.rsp"));
        let filters: Vec<&OsString> = args.iter().filter(|a| a.to_string_lossy().contains("treenode")).collect();
        assert_eq!(filters, ["--treenode-filter=/*/A/B/C --results-directory=/elsewhere @/tmp/evil.rsp"]);
        assert_eq!(args.last(), filters.first().copied());
    }

    #[test]
    fn a_filter_the_platform_would_read_as_an_option_or_a_response_file_is_refused() {
        for filter in ["@/tmp/evil.rsp", "--results-directory=/elsewhere", "-d", " --config-file=x"] {
            let refused = check_filter(filter).expect_err(filter);
            assert_eq!(refused.code, ErrorCode::INVALID_PARAMETER, "{filter}");
        }
        assert!(check_filter("FullyQualifiedName~Checkout&Category!=Slow").is_ok());
        assert!(check_filter("/*/Pricing/QuoteTests/*").is_ok());
    }
}
