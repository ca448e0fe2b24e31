//! End-to-end tests: the real `roslyn-mcp` binary, driven over stdio by an MCP client, with the real
//! Roslyn host on copies of the fixture solutions in `tests/fixtures`.

mod support;

mod cancel;
mod catalog;
mod daemon;
mod diagnostics;
mod errors;
mod lifecycle;
mod move_refusals;
mod moves;
mod navigation;
mod observability;
mod paging;
mod sessions;
mod walls_host;
mod watch;
mod write_faults;
