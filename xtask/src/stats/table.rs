//! What the check counted: per invariant how many cases it checked and how many failed (the first failures
//! kept to show), per tool its calls' times; printed as two Markdown tables.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// Failures shown per invariant; the rest are counted.
const SHOWN: usize = 8;

#[derive(Default)]
pub struct Table {
    checks: BTreeMap<String, Check>,
    times: BTreeMap<String, Vec<Duration>>,
}

#[derive(Default)]
struct Check {
    checked: usize,
    failures: Vec<String>,
    failed: usize,
}

impl Table {
    pub fn time(&mut self, tool: &str, took: Duration) {
        self.times.entry(tool.to_owned()).or_default().push(took);
    }

    /// One case of `invariant`: passed, or failed with why.
    pub fn case(&mut self, invariant: &str, outcome: Result<(), String>) {
        let check = self.checks.entry(invariant.to_owned()).or_default();
        check.checked += 1;
        if let Err(why) = outcome {
            check.failed += 1;
            if check.failures.len() < SHOWN {
                check.failures.push(why);
            }
        }
    }

    pub fn failed(&self) -> usize {
        self.checks.values().map(|c| c.failed).sum()
    }

    pub fn render(&self) -> String {
        let mut out = String::from("| invariant | checked | failed |\n| --- | ---: | ---: |\n");
        for (name, check) in &self.checks {
            let _ = writeln!(out, "| {name} | {} | {} |", check.checked, check.failed);
        }
        out.push_str("\n| tool | calls | p50 ms | p95 ms |\n| --- | ---: | ---: | ---: |\n");
        for (tool, times) in &self.times {
            let mut sorted = times.clone();
            sorted.sort();
            let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0;
            let _ = writeln!(out, "| {tool} | {} | {:.0} | {:.0} |", sorted.len(), at(0.5), at(0.95));
        }
        for (name, check) in self.checks.iter().filter(|(_, c)| c.failed > 0) {
            let _ = writeln!(out, "\n{name}: {} failed; the first:", check.failed);
            for failure in &check.failures {
                let _ = writeln!(out, "- {failure}");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_counted_and_the_first_shown() {
        let mut table = Table::default();
        table.case("definition", Ok(()));
        for n in 0..10 {
            table.case("definition", Err(format!("case {n}")));
        }
        table.time("find_references", Duration::from_millis(3));
        table.time("find_references", Duration::from_millis(9));
        let rendered = table.render();
        assert!(rendered.contains("| definition | 11 | 10 |"), "{rendered}");
        assert!(rendered.contains("| find_references | 2 | 9 | 9 |"), "{rendered}");
        assert!(rendered.contains("- case 7") && !rendered.contains("- case 8"), "{rendered}");
        assert_eq!(table.failed(), 10);
    }
}
