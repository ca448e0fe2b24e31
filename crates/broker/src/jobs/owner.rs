//! Whose a job is: the user of the session that started it. Another session of that user may ask for it by
//! id (a bridge that reconnected, a second agent); nobody else learns it exists.
//!
//! The socket and stdio are this user's alone (private folders), and over HTTP the bearer token is this user's
//! secret, so their callers are this user. An HTTP port opened to every local user
//! (`--http-open-to-local-users`) has each connection's caller found from the kernel's socket table: the
//! uid owning the peer's end of a loopback connection.

use std::net::SocketAddr;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// A local user, by uid.
    User(u32),
    /// A caller whose user is unknown: only its own session.
    Session(String),
}

/// Who called over one HTTP connection, put in its requests' extensions by the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct Caller(pub Option<u32>);

impl Caller {
    /// This user: the connection presented this user's token (checked on every request before rmcp).
    pub fn this_user() -> Self {
        Self(Some(paths::user_id()))
    }

    /// The uid owning the peer's end of the loopback connection `local` ← `peer`, when the kernel says.
    pub fn of_peer(local: SocketAddr, peer: SocketAddr) -> Self {
        let uid = ["/proc/net/tcp", "/proc/net/tcp6"]
            .iter()
            .filter_map(|table| std::fs::read_to_string(table).ok())
            .find_map(|table| peer_uid(&table, local, peer));
        Self(uid)
    }
}

/// The uid of the socket in one `/proc/net/tcp` table whose local end is `peer` and remote end `local`.
fn peer_uid(table: &str, local: SocketAddr, peer: SocketAddr) -> Option<u32> {
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let matches = port_of(fields.get(1)?) == Some(peer.port()) && port_of(fields.get(2)?) == Some(local.port());
        matches.then(|| fields.get(7)?.parse().ok())?
    })
}

fn port_of(address: &str) -> Option<u16> {
    address.rsplit_once(':').and_then(|(_, port)| u16::from_str_radix(port, 16).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caller_of_a_loopback_connection_is_the_user_running_the_peer() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let client = std::net::TcpStream::connect(listener.local_addr().expect("address")).expect("connect");
        let (served, peer) = listener.accept().expect("accept");
        let caller = Caller::of_peer(served.local_addr().expect("local"), peer);
        assert_eq!(caller.0, Some(paths::user_id()));
        drop(client);
    }
}
