//! The run's settings file: the exact filter of the selected tests (a file, not an argument: a selection of
//! thousands of tests passes the limit of one command-line argument), the session's time limit, and results
//! sent one by one, so that the cases a dying test process had finished are not lost with it.

use protocol::host::TestFramework;
use std::collections::BTreeMap;
use std::time::Duration;

/// A VSTest filter naming exactly the tests; none for no test (the whole project).
pub fn filter(tests: &BTreeMap<String, TestFramework>) -> Option<String> {
    let terms: Vec<String> = tests
        .iter()
        .map(|(name, framework)| match framework {
            // NUnit names a parametrized case with its arguments (`M(1,2)`), and its adapter cannot parse an
            // escaped parenthesis: the method's name as a part (the cases of other tests it takes are not
            // reported).
            TestFramework::NUnit => format!("FullyQualifiedName~{}", escape(name, OPERATORS)),
            _ => format!("FullyQualifiedName={}", escape(name, OPERATORS)),
        })
        .collect();
    (!terms.is_empty()).then(|| terms.join("|"))
}

/// VSTest's filter operators.
const OPERATORS: &[char] = &['\\', '(', ')', '&', '|', '=', '!', '~'];

/// A filter syntax's `operators`, each escaped with a backslash in a value.
pub fn escape(value: &str, operators: &[char]) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        if operators.contains(&c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

pub fn run_settings(session: Duration, filter: Option<&str>) -> String {
    let filter = filter.map_or_else(String::new, |f| format!("\n    <TestCaseFilter>{}</TestCaseFilter>", xml(f)));
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<RunSettings>\n  <RunConfiguration>\n    <BatchSize>1</BatchSize>\n    \
         <TestSessionTimeout>{}</TestSessionTimeout>{filter}\n  </RunConfiguration>\n</RunSettings>\n",
        session.as_millis()
    )
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_test_is_named_exactly_and_nunit_by_its_cases() {
        let tests = BTreeMap::from([
            ("A.B+C.M".to_owned(), TestFramework::XUnit),
            ("A.D.N".to_owned(), TestFramework::NUnit),
            ("A.E.Odd=Name".to_owned(), TestFramework::MSTest),
        ]);
        assert_eq!(
            filter(&tests).as_deref(),
            Some("FullyQualifiedName=A.B+C.M|FullyQualifiedName~A.D.N|FullyQualifiedName=A.E.Odd\\=Name")
        );
        assert_eq!(filter(&BTreeMap::new()), None);
    }

    #[test]
    fn the_settings_carry_the_filter_as_xml_text() {
        let settings = run_settings(Duration::from_secs(5), Some("Name~a&b|Category!=<slow>"));
        assert!(
            settings.contains("<TestCaseFilter>Name~a&amp;b|Category!=&lt;slow&gt;</TestCaseFilter>"),
            "{settings}"
        );
        assert!(settings.contains("<TestSessionTimeout>5000</TestSessionTimeout>"));
        assert!(roxmltree::Document::parse(&settings).is_ok());
    }
}
