//! Resident memory of a process, read from `/proc/<pid>/statm`, and the machine's, from `/proc/meminfo`.

/// Resident set size of `pid` in bytes; `None` when the process is gone or `/proc` cannot be read.
pub fn resident_bytes(pid: u32) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    Some(resident_pages(&statm)? * page_size())
}

/// The machine's memory (MemTotal) in bytes; `None` when `/proc/meminfo` cannot be read.
pub fn machine_bytes() -> Option<u64> {
    mem_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

fn mem_total(meminfo: &str) -> Option<u64> {
    let kib = meminfo.lines().find_map(|line| line.strip_prefix("MemTotal:"))?.trim().strip_suffix("kB")?;
    Some(kib.trim().parse::<u64>().ok()? * 1024)
}

/// The second field of statm counts resident pages.
fn resident_pages(statm: &str) -> Option<u64> {
    statm.split_whitespace().nth(1)?.parse().ok()
}

fn page_size() -> u64 {
    // SAFETY: sysconf reads a system constant and touches no memory of ours.
    #[allow(unsafe_code)]
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    // sysconf reports -1 only for names it does not know; 4 KiB is every Linux default.
    u64::try_from(size).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statm_counts_resident_pages_in_its_second_field() {
        assert_eq!(resident_pages("5000 1200 300 10 0 900 0\n"), Some(1200));
        assert_eq!(resident_pages(""), None);
    }

    #[test]
    fn meminfo_gives_the_machine_total_in_kib() {
        assert_eq!(mem_total("MemTotal:       24576000 kB\nMemFree: 1 kB\n"), Some(24_576_000 * 1024));
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        assert!(machine_bytes().is_some_and(|bytes| bytes > 1 << 28), "this machine has more than 256 MiB");
    }

    #[test]
    fn own_resident_memory_is_read_from_proc() {
        let bytes = resident_bytes(std::process::id()).expect("own statm");
        assert!(bytes >= 1 << 20, "a running test resides in more than 1 MiB, got {bytes}");
        assert_eq!(bytes % page_size(), 0);
    }

    #[test]
    fn a_missing_process_has_no_memory() {
        assert_eq!(resident_bytes(u32::MAX), None);
    }
}
