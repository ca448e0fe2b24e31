//! Where an end-to-end run's time goes: each test's wall time and what the services it started spent on loads
//! (load and warm-up, from their logs), appended to the file `ROSLYN_MCP_E2E_TIMES` names (`.ci/run` prints
//! the slowest). A test's service logs live under `target/tmp/e2e-logs/`; a passing test's are removed, a
//! failing one's are kept and named in its output.

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

thread_local! {
    /// The clock of the test this thread runs (libtest runs each test on a thread named after it).
    static CLOCK: RefCell<Option<Clock>> = const { RefCell::new(None) };
}

/// One test's figures, written when its thread ends (after the test body, whatever its outcome).
struct Clock {
    test: String,
    began: Instant,
    loads: Duration,
    services: u32,
}

impl Drop for Clock {
    fn drop(&mut self) {
        let Some(file) = std::env::var_os("ROSLYN_MCP_E2E_TIMES") else { return };
        let line = format!(
            "{}\t{:.1}\t{:.1}\t{}\n",
            self.test,
            self.began.elapsed().as_secs_f64(),
            self.loads.as_secs_f64(),
            self.services
        );
        let appended = std::fs::OpenOptions::new().create(true).append(true).open(&file);
        // One write of one line: records of tests ending at once do not interleave.
        if let Err(e) = appended.and_then(|mut f| f.write_all(line.as_bytes())) {
            eprintln!("e2e timing: {}: {e}", Path::new(&file).display());
        }
    }
}

/// The name of the running test (its thread's), or `bench` outside libtest.
pub fn test_name() -> String {
    std::thread::current().name().filter(|n| *n != "main").unwrap_or("bench").to_owned()
}

/// Starts the running test's clock if it has none: at the moment libtest started the test's thread.
pub fn touch() {
    CLOCK.with_borrow_mut(|clock| {
        if clock.is_none() {
            let began = Instant::now().checked_sub(thread_age()).unwrap_or_else(Instant::now);
            *clock = Some(Clock { test: test_name(), began, loads: Duration::ZERO, services: 0 });
        }
    });
}

/// How long this thread has run, from `/proc` (its start time in clock ticks since boot; 100 a second).
fn thread_age() -> Duration {
    let ticks = || -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        stat.rsplit(')').next()?.split_whitespace().nth(19)?.parse().ok()
    };
    let uptime =
        || -> Option<f64> { std::fs::read_to_string("/proc/uptime").ok()?.split_whitespace().next()?.parse().ok() };
    match (ticks(), uptime()) {
        (Some(ticks), Some(uptime)) => Duration::from_secs_f64((uptime - ticks / 100.0).max(0.0)),
        _ => Duration::ZERO,
    }
}

/// Counts a service the test started, with the time its log says it spent on loads and warm-ups.
pub fn count_service(log: &Path) {
    touch();
    let loads = load_time(&std::fs::read_to_string(log).unwrap_or_default());
    CLOCK.with_borrow_mut(|clock| {
        if let Some(clock) = clock {
            clock.loads += loads;
            clock.services += 1;
        }
    });
}

/// The sum of the `ms` of a service log's "solution loaded" and "warm-up ended" lines.
pub fn load_time(log: &str) -> Duration {
    let ms = log
        .lines()
        .filter(|l| l.contains("solution loaded") || l.contains("warm-up ended"))
        .filter_map(|l| l.split_whitespace().find_map(|field| field.strip_prefix("ms=")))
        .filter_map(|ms| ms.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ms)
}

/// The folder of this run's service logs, `target/tmp/e2e-logs`: emptied of an earlier run's at its first use.
fn logs_folder() -> PathBuf {
    static EMPTIED: std::sync::Once = std::sync::Once::new();
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-logs");
    EMPTIED.call_once(|| {
        let _ = std::fs::remove_dir_all(&folder);
    });
    std::fs::create_dir_all(&folder).expect("e2e log folder");
    folder
}

/// A service log of the running test, named after it: removed when the test passes, kept when it fails.
pub struct ServiceLog {
    pub path: PathBuf,
}

impl ServiceLog {
    /// A fresh log file.
    pub fn create() -> Self {
        touch();
        Self { path: fresh_log_path() }
    }

    /// Counts a service whose log lives elsewhere (a daemon's, in a state folder removed with the test), and
    /// keeps a copy of the log if the test is failing, named in the test's output.
    pub fn ended_elsewhere(log: &Path) {
        count_service(log);
        if std::thread::panicking() && log.exists() {
            let kept = fresh_log_path();
            if std::fs::copy(log, &kept).is_ok() {
                eprintln!("service log kept: {}", kept.display());
            }
        }
    }
}

impl Drop for ServiceLog {
    fn drop(&mut self) {
        count_service(&self.path);
        if std::thread::panicking() {
            eprintln!("service log kept: {}", self.path.display());
        } else {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A new, empty file `<test>-<n>.log` in the log folder (a test may start several services).
fn fresh_log_path() -> PathBuf {
    let stem = test_name().replace("::", "-");
    let folder = logs_folder();
    // Only a name taken already moves on to the next: any other failure is the test's, not an endless search.
    for n in 0.. {
        let path = folder.join(format!("{stem}-{n}.log"));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(_) => return path,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    unreachable!("a free log name")
}
