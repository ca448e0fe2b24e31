//! The Rust side of the Roslyn host: where it is, how it starts, and the framed request/response
//! connection to it. The C# host itself lives in `host/` beside this crate.

mod connection;
mod failure;
mod host_log;
mod locate;
mod process;
mod spare;

pub use connection::{HostConnection, HostReply, ProgressSink};
pub use failure::HostFailure;
pub use locate::{HOST_DLL_ENV, HostInstall, Located, locate};
pub use process::{
    HostProcess, dotnet_command, group_members, has_argument, kill_group, kill_process, processes, running,
};
pub use spare::{SpareHost, SpareState};
