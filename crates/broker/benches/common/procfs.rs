//! What the kernel counts for a process: resident memory and CPU time.

/// VmRSS of a process from /proc/<pid>/status; 0 once it is gone.
pub fn vm_rss(pid: u32) -> u64 {
    kib_field(&format!("/proc/{pid}/status"), "VmRSS:")
}

// Only the corpus bench reads the machine's memory.
#[allow(dead_code)]
/// A field of /proc/meminfo (`MemTotal:`, `MemAvailable:`), in bytes.
pub fn meminfo(field: &str) -> u64 {
    kib_field("/proc/meminfo", field)
}

/// The bytes of a `field   123 kB` line of a /proc file; 0 when there is none.
fn kib_field(file: &str, field: &str) -> u64 {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let kib = text.lines().find_map(|line| line.strip_prefix(field)).and_then(|v| v.trim().strip_suffix("kB"));
    kib.and_then(|v| v.trim().parse::<u64>().ok()).map_or(0, |kib| kib * 1024)
}

// Each bench compiles this file alone; only the sessions and corpus benches read CPU time.
#[allow(dead_code)]
/// User plus system CPU milliseconds a process has used (utime and stime of /proc/<pid>/stat, in the
/// kernel's 100 Hz ticks).
pub fn cpu_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name may hold spaces; the fields after it are numbered from state (field 3).
    let fields: Vec<&str> = stat.rsplit_once(") ").map(|(_, rest)| rest.split(' ').collect()).unwrap_or_default();
    let ticks = |index: usize| fields.get(index).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) * 10.0
}
