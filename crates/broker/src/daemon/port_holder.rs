//! Who holds a TCP port, for the error a person reads when `serve` cannot bind: the listening socket in
//! `/proc/net/tcp{,6}` gives its owner's uid and inode, and the inode names the process when that
//! process is visible to us (our own, or any when we are root).

use std::path::Path;

/// "pid 1234 (roslyn-mcp)", or "a process of uid 1000", for whatever listens on `port`.
pub fn describe(port: u16) -> Option<String> {
    let (uid, inode) = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|table| std::fs::read_to_string(table).ok())
        .find_map(|table| listener(&table, port))?;
    Some(match process_with_socket(inode) {
        Some((pid, name)) => format!("pid {pid} ({name}, uid {uid})"),
        None => format!("a process of uid {uid}"),
    })
}

/// The (uid, inode) of the socket listening on `port` in one `/proc/net/tcp` table.
fn listener(table: &str, port: u16) -> Option<(u32, u64)> {
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let local_port = fields.get(1)?.rsplit_once(':').and_then(|(_, p)| u16::from_str_radix(p, 16).ok())?;
        // State 0A is LISTEN.
        (local_port == port && *fields.get(3)? == "0A")
            .then(|| Some((fields.get(7)?.parse().ok()?, fields.get(9)?.parse().ok()?)))?
    })
}

fn process_with_socket(inode: u64) -> Option<(u32, String)> {
    let wanted = format!("socket:[{inode}]");
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let holds = std::fs::read_dir(entry.path().join("fd"))
            .ok()?
            .flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == Path::new(&wanted)));
        holds.then(|| {
            let name = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
            (pid, name.trim().to_owned())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_process_listening_on_a_port() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let holder = describe(port).expect("a holder");
        assert!(holder.contains(&format!("pid {}", std::process::id())), "{holder}");
    }

    // A freed port may be taken at once by a test running beside this one, so the refusals are read
    // from a table of our own rather than from the live one.
    #[test]
    fn only_a_listening_socket_on_the_port_is_its_holder() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   \
            0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1\n   \
            1: 0100007F:1F91 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1001        0 4343 1\n";
        assert_eq!(listener(table, 0x1F90), Some((1000, 4242)));
        assert_eq!(listener(table, 0x1F91), None, "an established connection does not hold the port");
        assert_eq!(listener(table, 0x1F92), None);
    }
}
